"""The imports of records of the past (archive.RecordImport), written once."""

from __future__ import annotations

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RecordImport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(help_text="the file's or directory's name", max_length=300),
                ),
                ("sha256", models.CharField(max_length=64, unique=True)),
                (
                    "source",
                    models.TextField(
                        blank=True,
                        help_text="where the paper records are kept, for rows that do not say",
                    ),
                ),
                ("counts", models.JSONField(default=dict)),
                ("documents", models.JSONField(default=list)),
                ("imported_at", models.DateTimeField(default=django.utils.timezone.now)),
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
                "ordering": ("-imported_at", "-id"),
            },
        ),
    ]
