"""Each facility keeps its parcel's town (copied here for the facilities already registered)."""

from typing import Any

from django.db import migrations, models

import sewer_office.accounts.towns


def copy_towns(apps: Any, schema_editor: Any) -> None:
    establishment = apps.get_model("registry", "Establishment")
    prop = apps.get_model("registry", "Property")
    towns = models.Subquery(
        prop.objects.filter(buildings=models.OuterRef("building_id")).values("jurisdiction")[:1]
    )
    establishment.objects.update(jurisdiction=towns)


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0008_jurisdiction"),
    ]

    operations = [
        migrations.AddField(
            model_name="establishment",
            name="jurisdiction",
            field=models.CharField(
                db_index=True,
                default=sewer_office.accounts.towns.primary,
                editable=False,
                max_length=40,
            ),
        ),
        migrations.RunPython(copy_towns, migrations.RunPython.noop),
    ]
