# The findings ledger is now the findings app's (``findings.0001_initial``, which keeps the
# table): monitoring only forgets the model; the database is not touched.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("findings", "0001_initial"),
        ("monitoring", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Finding")],
            database_operations=[],
        ),
    ]
