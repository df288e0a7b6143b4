"""Create the office's roles as groups (idempotent)."""

from __future__ import annotations

from typing import Any

from django.db import migrations

ROLES = (
    "superintendent",
    "engineer",
    "building_inspector",
    "clerk",
    "highway_superintendent",
    "viewer",
    "applicant",
)


def create_roles(apps: Any, schema_editor: Any) -> None:
    group = apps.get_model("auth", "Group")
    for name in ROLES:
        group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
