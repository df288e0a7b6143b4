"""Deployment checks of the office (``sewer-use manage check --deploy``).

The triggers that guard the records of legal weight bind every role but the tables' owner (and
a superuser), who can disable them: a production office that connects as the owner has guards
it can lift itself. :func:`check_runtime_role` says so, naming the role and a table it owns
(docs/database-roles.md: an owner role migrates, a runtime role that owns nothing serves).

It queries the database, unlike most deploy checks: it looks at the aliases ``--database``
names, or ``default``. A database it cannot reach gives no warning — ``/readyz`` reports that,
and ``check --deploy`` is also run where the production database is not (a build machine).
"""

from __future__ import annotations

from typing import Any

from django.core import checks
from django.db import DatabaseError, connections

from .db_roles import exposure, exposure_message

#: The connected role owns tables of the office.
OWNS_TABLES = "sewer_use.W001"
#: The connected role is a superuser.
SUPERUSER = "sewer_use.W002"

_HINT = (
    "Migrate as an owner role and serve as a runtime role that owns nothing "
    "(deploy/postgresql-roles.sql, SEWER_USE_OWNER_DATABASE_URL, docs/database-roles.md)."
)


def check_runtime_role(
    app_configs: Any = None, databases: Any = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """A warning for each database the office connects to as a role that could lift the
    guards of its records (it owns tables, or is a superuser)."""
    out: list[checks.CheckMessage] = []
    for alias in databases or ["default"]:
        connection = connections[alias]
        try:
            found = exposure(connection)
        except DatabaseError:
            continue  # unreachable here: /readyz reports it where the office runs
        if found is None:
            continue
        message = exposure_message(found)
        if found.owned:
            out.append(checks.Warning(message, hint=_HINT, id=OWNS_TABLES, obj=alias))
        if found.superuser:
            out.append(
                checks.Warning(
                    f"the office connects to PostgreSQL as {found.role!r}, a superuser: no "
                    "grant binds it, and SET session_replication_role = replica silences "
                    "every trigger",
                    hint=_HINT,
                    id=SUPERUSER,
                    obj=alias,
                )
            )
    return out


def register() -> None:
    """Register the checks (from the core app's ``ready``)."""
    checks.register(check_runtime_role, checks.Tags.security, checks.Tags.database, deploy=True)
