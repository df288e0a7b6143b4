"""A laboratory file's towns and their parameters versions, stored whole: the plant's laboratory
sends one file for all its member towns, whose names joined exceed any fixed width."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("monitoring", "0005_lab_import_towns"),
    ]

    operations = [
        migrations.AlterField(
            model_name="labimport",
            name="jurisdiction",
            field=models.TextField(),
        ),
        migrations.AlterField(
            model_name="labimport",
            name="parameters_version",
            field=models.TextField(),
        ),
    ]
