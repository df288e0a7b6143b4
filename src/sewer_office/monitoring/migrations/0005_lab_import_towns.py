# A laboratory file may hold the results of facilities of several member towns, each judged
# under its own town's values: the import records every town and its parameters version.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("monitoring", "0004_pretreatment_oversight"),
    ]

    operations = [
        migrations.AlterField(
            model_name="labimport",
            name="jurisdiction",
            field=models.CharField(max_length=400),
        ),
        migrations.AlterField(
            model_name="labimport",
            name="parameters_version",
            field=models.CharField(max_length=400),
        ),
    ]
