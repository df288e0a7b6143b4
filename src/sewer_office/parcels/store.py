"""Updating many rows of one table at once, the counterpart of :func:`sewer_office.core.bulk.insert`.

A roll changes thousands of properties in one import; the ORM's ``bulk_update`` builds a
``CASE`` per column over every id, which grows with the square of the batch on some backends.
Here a polars frame (``id`` and the columns to set, named as the table's columns) goes to the
database: on PostgreSQL by ``COPY`` into a temporary table and one ``UPDATE ... FROM``; on
SQLite by ``executemany`` of one ``UPDATE ... WHERE id = ?``. Must run inside
``transaction.atomic()``, as the rest of an import.
"""

from __future__ import annotations

import io
from typing import Any

import polars as pl
from django.db import connection, models

from sewer_office.core.bulk import _for_postgres, _for_sqlite

#: Rows per ``executemany`` batch or ``COPY`` chunk.
BATCH = 50_000


def update(model: type[models.Model], frame: pl.DataFrame) -> int:
    """Set, for each row of ``frame``, its columns on the row of ``model``'s table with its
    ``id``; returns the number of rows given."""
    if frame.height == 0:
        return 0
    columns = [c for c in frame.columns if c != "id"]
    known = {f.column for f in model._meta.concrete_fields}
    unknown = sorted(set(columns) - known)
    if "id" not in frame.columns or unknown:
        raise ValueError(f"{model.__name__}: an update needs 'id' and known columns: {unknown}")
    table = connection.ops.quote_name(model._meta.db_table)
    q = connection.ops.quote_name
    with connection.cursor() as cursor, connection.wrap_database_errors:
        if connection.vendor == "postgresql":
            _update_postgres(cursor, table, columns, frame.select("id", *columns))
        else:
            sets = ", ".join(f"{q(c)} = ?" for c in columns)
            sql = f"UPDATE {table} SET {sets} WHERE id = ?"
            raw: Any = cursor.cursor if hasattr(cursor, "cursor") else cursor
            ordered = _for_sqlite(frame.select(*columns, "id"))
            for part in ordered.iter_slices(BATCH):
                raw.executemany(sql, part.iter_rows())
    return frame.height


def _update_postgres(cursor: Any, table: str, columns: list[str], frame: pl.DataFrame) -> None:
    q = connection.ops.quote_name
    names = ", ".join(q(c) for c in ["id", *columns])
    cursor.execute("DROP TABLE IF EXISTS sewer_use_bulk_update")
    # the temporary table has the target's column types (and none of its constraints)
    cursor.execute(
        f"CREATE TEMPORARY TABLE sewer_use_bulk_update ON COMMIT DROP AS "
        f"SELECT {names} FROM {table} WITH NO DATA"
    )
    sql = f"COPY sewer_use_bulk_update ({names}) FROM STDIN WITH (FORMAT csv)"
    with cursor.cursor.copy(sql) as copy:
        for part in _for_postgres(frame).iter_slices(BATCH):
            buf = io.BytesIO()
            part.write_csv(buf, include_header=False, quote_style="non_numeric")
            copy.write(buf.getvalue())
    sets = ", ".join(f"{q(c)} = u.{q(c)}" for c in columns)
    cursor.execute(
        f"UPDATE {table} AS t SET {sets} FROM sewer_use_bulk_update AS u WHERE t.id = u.id"
    )
    cursor.execute("DROP TABLE sewer_use_bulk_update")
