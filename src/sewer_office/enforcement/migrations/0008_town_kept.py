"""Each violation keeps its town, its facility's or its parcel's (docs/scale.md); those already
stored take it from them."""

from django.conf import settings
from django.db import migrations, models

import sewer_office.accounts.towns
from sewer_office.core.parcel_towns import copy_parcel_towns


class Migration(migrations.Migration):
    dependencies = [
        ("enforcement", "0007_response_plan_adoption"),
        ("findings", "0008_open_findings_by_facility_severity"),
        ("registry", "0009_establishment_jurisdiction"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="violation",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.RunPython(
            copy_parcel_towns("enforcement", {"Violation": ("establishment", "property")}),
            migrations.RunPython.noop,
        ),
        migrations.AddIndex(
            model_name="violation",
            index=models.Index(
                fields=["jurisdiction", "-observed_on", "-id"], name="violation_town_recent"
            ),
        ),
        migrations.AddIndex(
            model_name="violation",
            index=models.Index(fields=["jurisdiction", "state"], name="violation_town_state"),
        ),
    ]
