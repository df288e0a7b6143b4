"""Bulk insertion of many rows at once: PostgreSQL ``COPY``, SQLite ``executemany``.

Imports of laboratory files store hundreds of thousands of rows in one transaction; the ORM's
``bulk_create`` builds a model instance per row, which dominates the time. Here a polars frame
whose columns are the table's column names goes straight to the database. Ids are assigned by
the caller from :func:`reserve_ids` (so that child rows can refer to parents in the same
import), under a lock that serialises concurrent imports into the same table.

Must run inside ``transaction.atomic()``: the rows, like the rest of an import, are stored
together or not at all.
"""

from __future__ import annotations

import io
import json
from typing import Any, cast

import polars as pl
from django.db import connection, models
from django.db.models import NOT_PROVIDED
from django.utils import timezone

#: How a datetime column is written: naive UTC text, the form Django's SQLite backend stores.
_SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S"


def reserve_ids(model: type[models.Model], count: int) -> int:
    """The first of ``count`` consecutive new ids for ``model``'s table (lock held to commit)."""
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        (last,) = cursor.fetchone()
    return int(last) + 1


def _default(field: models.Field[Any, Any]) -> Any:
    if field.default is not NOT_PROVIDED:
        value = field.default() if callable(field.default) else field.default
        # a JSON column's default is stored as its text (both drivers take text for it)
        return json.dumps(value) if isinstance(field, models.JSONField) else value
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return timezone.now()
    if field.null:
        return None
    if isinstance(field, models.CharField | models.TextField):
        return ""
    raise ValueError(f"{field.model.__name__}.{field.name}: no value and no default")


def complete(model: type[models.Model], frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with every concrete column of ``model``, missing ones at their defaults."""
    pk = model._meta.pk
    fields = [
        f
        for f in model._meta.concrete_fields
        # without ids in the frame, the database numbers the rows itself
        if not (f is pk and f.column not in frame.columns)
    ]
    missing = [f for f in fields if f.column not in frame.columns]
    extra = set(frame.columns) - {f.column for f in fields}
    if extra:
        raise ValueError(f"{model.__name__}: unknown columns {sorted(extra)}")
    # a concrete field always has its column (the stubs allow None for the others)
    defaults = [pl.lit(_default(f)).alias(cast(str, f.column)) for f in missing]
    return frame.with_columns(defaults).select([f.column for f in fields])


def _for_sqlite(frame: pl.DataFrame) -> pl.DataFrame:
    exprs = []
    for name, dtype in frame.schema.items():
        if isinstance(dtype, pl.Datetime):
            col = pl.col(name)
            if dtype.time_zone is not None:
                col = col.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
            # As Django writes them: fractional seconds only when there are any.
            exprs.append(
                pl.when(col.dt.microsecond() == 0)
                .then(col.dt.strftime(_SQLITE_DATETIME))
                .otherwise(col.dt.strftime(_SQLITE_DATETIME + "%.6f"))
                .alias(name)
            )
        elif dtype == pl.Date:
            exprs.append(pl.col(name).dt.strftime("%Y-%m-%d").alias(name))
    return frame.with_columns(exprs) if exprs else frame


def _for_postgres(frame: pl.DataFrame) -> pl.DataFrame:
    exprs = []
    for name, dtype in frame.schema.items():
        if isinstance(dtype, pl.Datetime):
            col = pl.col(name)
            if dtype.time_zone is not None:
                col = col.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
            exprs.append((col.dt.strftime("%Y-%m-%d %H:%M:%S%.6f") + "+00").alias(name))
    return frame.with_columns(exprs) if exprs else frame


def insert(model: type[models.Model], frame: pl.DataFrame, batch: int = 200_000) -> int:
    """Insert ``frame`` (columns = db columns; ids included, or left to the database) into
    ``model``'s table.

    The driver's own cursor does the work (``COPY``, ``executemany``): its errors are raised
    as Django's (``IntegrityError``, ``DataError``...), as any query's, so that a caller's
    ``except IntegrityError`` sees a unique constraint refusing a row.
    """
    frame = complete(model, frame)
    if frame.height == 0:
        return 0
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in frame.columns)
    with connection.cursor() as cursor, connection.wrap_database_errors:
        if connection.vendor == "postgresql":
            _copy(cursor, table, names, _for_postgres(frame), batch)
            _reset_sequence(cursor, model)
        else:
            marks = ", ".join("?" for _ in frame.columns)
            sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"
            # the driver's own cursor (sqlite3), whose executemany takes an iterator of rows
            raw: Any = cursor.cursor if hasattr(cursor, "cursor") else cursor
            for part in _for_sqlite(frame).iter_slices(batch):
                raw.executemany(sql, part.iter_rows())
    return frame.height


def _copy(cursor: Any, table: str, names: str, frame: pl.DataFrame, batch: int) -> None:
    # Text columns are quoted (an empty string stays empty); nulls are unquoted and empty.
    sql = f"COPY {table} ({names}) FROM STDIN WITH (FORMAT csv)"
    with cursor.cursor.copy(sql) as copy:
        for part in frame.iter_slices(batch):
            buf = io.BytesIO()
            part.write_csv(buf, include_header=False, quote_style="non_numeric")
            copy.write(buf.getvalue())


def _reset_sequence(cursor: Any, model: type[models.Model]) -> None:
    table = model._meta.db_table
    cursor.execute(
        "SELECT setval(pg_get_serial_sequence(%s, 'id'), "
        f"(SELECT COALESCE(MAX(id), 1) FROM {connection.ops.quote_name(table)}))",
        [table],
    )
