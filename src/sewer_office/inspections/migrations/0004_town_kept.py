"""Each inspection keeps its town, its facility's or its parcel's (docs/scale.md); those already
stored take it from them."""

from django.conf import settings
from django.db import migrations, models

import sewer_office.accounts.towns
from sewer_office.core.parcel_towns import copy_parcel_towns


class Migration(migrations.Migration):
    dependencies = [
        ("inspections", "0003_entry_refusal_agency_inspectors"),
        ("monitoring", "0005_lab_import_towns"),
        ("registry", "0009_establishment_jurisdiction"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="inspection",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.RunPython(
            copy_parcel_towns("inspections", {"Inspection": ("establishment", "property")}),
            migrations.RunPython.noop,
        ),
        migrations.AddIndex(
            model_name="inspection",
            index=models.Index(
                fields=["jurisdiction", "state", "scheduled_for"], name="inspection_town_state"
            ),
        ),
    ]
