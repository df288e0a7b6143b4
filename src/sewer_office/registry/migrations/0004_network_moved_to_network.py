# The sewer network is now the network app's (``network.0001_initial``, which keeps the
# tables): the registry only forgets its models; the database is not touched.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("network", "0001_initial"),
        ("registry", "0003_establishment_code_and_more"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="BuildingConnection"),
                migrations.DeleteModel(name="SamplingPointOverride"),
                migrations.DeleteModel(name="SewerPipe"),
                migrations.DeleteModel(name="Manhole"),
                migrations.DeleteModel(name="NetworkVersion"),
            ],
            database_operations=[],
        ),
    ]
