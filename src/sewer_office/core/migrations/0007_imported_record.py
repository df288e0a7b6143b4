"""Where a record made outside the office came from (records of the past, imported): one
provenance row per imported permit, approval, inspection or violation, written once."""

from __future__ import annotations

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("core", "0006_audit_keyed_chain"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ImportedRecord",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("object_id", models.CharField(max_length=64)),
                ("original_number", models.CharField(blank=True, db_index=True, max_length=100)),
                ("made_on", models.DateField(blank=True, null=True)),
                ("source", models.TextField()),
                ("batch_name", models.CharField(max_length=300)),
                ("batch_sha256", models.CharField(db_index=True, max_length=64)),
                ("file", models.CharField(max_length=100)),
                ("row", models.PositiveIntegerField()),
                ("as_written", models.JSONField(default=dict)),
                ("imported_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "content_type",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="contenttypes.contenttype",
                    ),
                ),
                (
                    "imported_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("imported_at", "id"),
                "constraints": [
                    models.UniqueConstraint(
                        fields=("content_type", "object_id"), name="imported_record_once"
                    )
                ],
            },
        ),
    ]
