"""PostgreSQL only: the triggers that refuse UPDATE and DELETE of the records of legal weight
(:mod:`sewer_office.core.protection`; the tables listed there that exist by now — the others
are protected by the ``post_migrate`` sync once their apps are migrated)."""

from typing import Any

from django.db import migrations

from sewer_office.core import protection


def install(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        protection.sync(schema_editor.connection)


def uninstall(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        protection.remove(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("core", "0002_audit_chain")]

    operations = [migrations.RunPython(install, uninstall)]
