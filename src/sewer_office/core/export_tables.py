"""What an export holds (:mod:`.export_all`): which tables, which of their columns, and how
each value is written.

Every model of the office's apps is exported, with the tables of Django and its libraries
that the records need (:data:`CARRIED`); the secrets are left out, with the reason written into
the manifest and the data dictionary (:data:`LEFT_OUT`, :data:`COLUMNS_LEFT_OUT`); a library's
table nobody has judged is left out until someone does (:func:`unclassified`: a test fails
meanwhile). The values are typed faithfully (:func:`json_value`, :func:`csv_value`): decimals
as the exact strings stored, dates ISO, times ISO with their offset (UTC), JSON as JSON, a
foreign key as the target's primary key. The import (:mod:`.import_all`) and the data
dictionary (:mod:`.data_dictionary`) read the same lists, so the three cannot disagree; apart
from :mod:`.export_all` (which writes the directory) because they are the export's contract,
not its mechanics.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.apps import apps
from django.db import models
from django.utils.duration import duration_iso_string

#: Where the tables go in the export's directory: ``tables/<app>.<model>.csv`` and ``.json``.
TABLES = "tables"
#: The office's own apps: every model of theirs is exported (unless a secret, :data:`LEFT_OUT`).
OFFICE_APPS = "sewer_office."

#: Tables of Django and its libraries that the export carries, with what they hold.
CARRIED: dict[str, str] = {
    "auth.user": "The office's user accounts, staff and outside users (the portal's): name, "
    "e-mail, whether active, staff or superuser, when they joined and last signed in. Without "
    "their passwords: see the columns left out.",
    "auth.group": "The roles (superintendent, engineer, clerk, building inspector, highway "
    "superintendent, viewer, applicant): what a user may see and do follows from them.",
    "auth.user_groups": "Which user holds which role.",
    "auth.permission": "Django's permissions, which a role or a user may be given (the office "
    "decides by roles; the table is carried so that the links below resolve).",
    "auth.group_permissions": "The permissions given to a role.",
    "auth.user_user_permissions": "The permissions given to a user directly.",
    "contenttypes.contenttype": "The names of the kinds of record (app and model): a generic "
    "reference — an audit event's, an attachment's, a charge's `content_type_id` with its "
    "`object_id` — names its table through this one.",
    "admin.logentry": "The back office's log of the changes made there.",
}

#: Tables left out, each with why: secrets, or what only signs a browser or a program in.
LEFT_OUT: dict[str, str] = {
    "sessions.session": "The signed-in sessions: a session key lets a browser act as its user; "
    "worthless to another system and dangerous in a copy. Everyone signs in again.",
    "authtoken.token": "The API tokens: each is the password of a program. New tokens are "
    "issued after the move.",
    "otp_totp.totpdevice": "The second factor's authenticator keys (shared secrets): whoever "
    "holds one makes valid codes. Users enrol their authenticator again.",
    "otp_static.staticdevice": "The second factor's backup-code devices (their codes are "
    "secrets, below). Users make new backup codes.",
    "otp_static.statictoken": "The second factor's one-time backup codes: secrets.",
    "reports.signingcode": "The one-time codes e-mailed to sign a report (hashed, valid "
    "minutes): a secret of a moment; the signatures they made are exported.",
}

#: Columns left out of a carried table, with why.
COLUMNS_LEFT_OUT: dict[str, dict[str, str]] = {
    "auth.user": {
        "password": "The password hash: a secret (it can be attacked offline to find the "
        "password). Users come back with no usable password: an administrator gives each a "
        "new one (`sewer-use manage changepassword NAME`), which they change after signing in.",
    },
}

#: Tables an empty installation already fills (by its migrations): an import replaces their
#: rows with the export's, so that every id the records use means the same thing again.
INSTALLATION: frozenset[str] = frozenset(
    {"contenttypes.contenttype", "auth.permission", "auth.group", "auth.group_permissions"}
)


def label_of(model: type[models.Model]) -> str:
    """The table's name in the export: ``<app label>.<model name>`` (lower case)."""
    return f"{model._meta.app_label}.{model._meta.model_name}"


@dataclass(frozen=True)
class Table:
    """One table of the export: its model and the columns written (the local concrete fields
    less those left out)."""

    model: type[models.Model]
    columns: tuple[models.Field[Any, Any], ...]
    left_out: tuple[tuple[str, str], ...] = ()  # (column, why)

    @property
    def label(self) -> str:
        return label_of(self.model)

    @property
    def db_table(self) -> str:
        return str(self.model._meta.db_table)

    @property
    def names(self) -> list[str]:
        return [f.attname for f in self.columns]

    def path(self, suffix: str) -> str:
        return f"{TABLES}/{self.label}.{suffix}"


def _is_office(model: type[models.Model]) -> bool:
    config = apps.get_app_config(model._meta.app_label)
    return str(config.name).startswith(OFFICE_APPS)


def _models() -> list[type[models.Model]]:
    """Every model with its own table (no proxies, no unmanaged), by label."""
    found = [
        m
        for m in apps.get_models(include_auto_created=True)
        if not m._meta.proxy and m._meta.managed
    ]
    return sorted(found, key=label_of)


def unclassified() -> list[str]:
    """Models neither of the office, nor carried, nor left out: a new library's tables,
    which the export leaves out until someone decides (a test fails meanwhile)."""
    return [
        label_of(m)
        for m in _models()
        if not _is_office(m) and label_of(m) not in CARRIED and label_of(m) not in LEFT_OUT
    ]


def export_tables() -> list[Table]:
    """The tables an export holds, by label."""
    out = []
    for model in _models():
        label = label_of(model)
        if label in LEFT_OUT or not (_is_office(model) or label in CARRIED):
            continue
        dropped = COLUMNS_LEFT_OUT.get(label, {})
        columns = tuple(f for f in model._meta.local_concrete_fields if f.name not in dropped)
        out.append(Table(model, columns, tuple(dropped.items())))
    return out


def left_out_tables() -> list[tuple[str, str, str]]:
    """(table, database table, why) of every table not exported."""
    unjudged = set(unclassified())
    out = []
    for model in _models():
        label = label_of(model)
        if label in LEFT_OUT:
            out.append((label, str(model._meta.db_table), LEFT_OUT[label]))
        elif label in unjudged:
            why = "A library's table nobody has yet judged safe to export: left out."
            out.append((label, str(model._meta.db_table), why))
    return out


def left_out_listed() -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """What is not exported, as the manifest and the data dictionary list it: the tables
    (``table``, ``db_table``, ``why``) and the columns (``table``, ``column``, ``why``)."""
    tables = [{"table": label, "db_table": db, "why": why} for label, db, why in left_out_tables()]
    columns = [
        {"table": table, "column": column, "why": why}
        for table, dropped in sorted(COLUMNS_LEFT_OUT.items())
        for column, why in dropped.items()
    ]
    return tables, columns


# --- values -----------------------------------------------------------------------------------

#: How each kind of column is written (and read back by the import).
KINDS = (
    "integer",
    "boolean",
    "text",
    "decimal",
    "float",
    "date",
    "datetime",
    "time",
    "duration",
    "uuid",
    "json",
    "file",
    "bytes",
)


#: A column's kind by the class of its field, subclasses first (a date and time is a date).
_KIND_OF_FIELD: tuple[tuple[type[models.Field[Any, Any]], str], ...] = (
    (models.BinaryField, "bytes"),
    (models.FileField, "file"),
    (models.JSONField, "json"),
    (models.DecimalField, "decimal"),
    (models.FloatField, "float"),
    (models.BooleanField, "boolean"),
    (models.DateTimeField, "datetime"),
    (models.DateField, "date"),
    (models.TimeField, "time"),
    (models.DurationField, "duration"),
    (models.UUIDField, "uuid"),
    (models.IntegerField, "integer"),
    (models.AutoField, "integer"),
)


def kind_of(f: models.Field[Any, Any]) -> str:
    """The kind of a column, one of :data:`KINDS` (a foreign key: its target's)."""
    if f.is_relation and f.remote_field is not None:
        return kind_of(f.target_field)  # type: ignore[attr-defined]
    return next((kind for cls, kind in _KIND_OF_FIELD if isinstance(f, cls)), "text")


def decimal_text(value: Decimal) -> str:
    """A decimal as stored, without an exponent (``0.00000000``, not ``0E-8``)."""
    return format(value, "f")


def json_value(value: Any) -> Any:
    """A value read from the database as JSON: see the module (bytes are written elsewhere)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return duration_iso_string(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict | list):
        return _keys_sorted(value)
    return str(value)


def _keys_sorted(value: Any) -> Any:
    """A JSON value with its objects' keys in order: JSON leaves their order free, and
    PostgreSQL keeps its own, so an export reads the same whichever database it came from."""
    if isinstance(value, dict):
        return {k: _keys_sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_keys_sorted(v) for v in value]
    return value


def csv_value(value: Any, kind: str) -> str:
    """A JSON value (:func:`json_value`) as a CSV cell: empty for null, ``true``/``false``,
    a JSON column as its JSON text."""
    if value is None:
        return ""
    if kind == "json":
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
