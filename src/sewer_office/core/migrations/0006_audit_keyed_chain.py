"""The keyed audit chain: each event's sequence number (1, 2, 3... with no gap) and the id of
the key that signed it (blank for the events already stored: they keep their plain SHA-256,
form ``v1``, and verify as before; :mod:`sewer_office.core.chain`).

The events already stored get their sequence numbers in id order, in one statement. Audit
events refuse every change below the application on PostgreSQL (the triggers of
:mod:`sewer_office.core.protection`): the numbering is done with them suspended.
"""

from typing import Any

from django.db import migrations, models

from sewer_office.core import protection


def number_existing(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    table = connection.ops.quote_name(apps.get_model("core", "AuditEvent")._meta.db_table)
    # UPDATE ... FROM: PostgreSQL, and SQLite since 3.33
    sql = (
        f"UPDATE {table} SET seq = numbered.n FROM "
        f"(SELECT id, ROW_NUMBER() OVER (ORDER BY id) AS n FROM {table}) AS numbered "
        f"WHERE {table}.id = numbered.id"
    )
    with protection.suspended(connection, "core.AuditEvent"), connection.cursor() as cursor:
        cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("core", "0005_attachment_checked_type")]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="seq",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="auditevent",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.RunPython(number_existing, migrations.RunPython.noop),
    ]
