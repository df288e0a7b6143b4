"""The jurisdictions a staff member acts for, and the plant's pretreatment coordinator's role
(a group, created as the other roles were)."""

from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def create_coordinator(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.get_or_create(name="coordinator")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_signin_by_address_and_device"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="StaffJurisdiction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "jurisdiction",
                    models.CharField(
                        help_text="the law package's name, e.g. wappinger or town-of-poughkeepsie",
                        max_length=40,
                    ),
                ),
                ("granted_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="staff_jurisdictions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "jurisdiction acted for",
                "verbose_name_plural": "jurisdictions acted for",
                "ordering": ("user", "jurisdiction"),
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "jurisdiction"), name="accounts_staff_jurisdiction_once"
                    )
                ],
            },
        ),
        migrations.RunPython(create_coordinator, migrations.RunPython.noop),
    ]
