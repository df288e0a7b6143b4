"""The open findings of a status in time order, and a member town's counts of them by facility."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("findings", "0008_open_findings_by_facility_severity"),
        ("monitoring", "0006_import_towns_unbounded"),
        ("registry", "0009_establishment_jurisdiction"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(
                condition=models.Q(("current", True), ("review__in", ("new", "acknowledged"))),
                fields=["status", "observed_at", "id"],
                name="finding_open_status_time",
            ),
        ),
        migrations.AddIndex(
            model_name="finding",
            index=models.Index(
                condition=models.Q(("current", True), ("review__in", ("new", "acknowledged"))),
                fields=["establishment", "status", "review"],
                name="finding_facility_status",
            ),
        ),
    ]
