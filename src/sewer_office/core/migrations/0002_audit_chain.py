"""The hash chain over audit events: two columns, and the links of the events already stored
(oldest first), computed as :mod:`sewer_office.core.chain` computes them for new events."""

from typing import Any

from django.db import migrations, models
from django.utils import timezone

from sewer_office.core.chain import GENESIS, HASHED_FIELDS, event_hash


def link_existing(apps: Any, schema_editor: Any) -> None:
    event_model = apps.get_model("core", "AuditEvent")
    rows = event_model.objects.using(schema_editor.connection.alias).order_by("id")
    prev = GENESIS
    batch = []
    for event in rows.iterator(chunk_size=2000):
        values = {name: getattr(event, name) for name in HASHED_FIELDS}
        if timezone.is_naive(values["at"]):
            values["at"] = timezone.make_aware(values["at"])
        event.prev_hash = prev
        event.digest = prev = event_hash(values, prev)
        batch.append(event)
        if len(batch) >= 2000:
            event_model.objects.bulk_update(batch, ["prev_hash", "digest"])
            batch = []
    if batch:
        event_model.objects.bulk_update(batch, ["prev_hash", "digest"])


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="prev_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="auditevent",
            name="digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RunPython(link_existing, migrations.RunPython.noop),
    ]
