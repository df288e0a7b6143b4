"""The office's own system checks: the jurisdictions it runs, and (``sewer-use manage check
--deploy``) the database role it connects as.

:func:`check_jurisdiction` runs with every management command. Each record is computed under
its own town's law and values (:mod:`sewer_office.core.town_law`), so a member town of
``SEWER_USE_JURISDICTIONS`` may keep a law of its own (the Town of Poughkeepsie's) and values
of its own. The primary town (``SEWER_USE_JURISDICTION``) is the plant's: its values hold the
program's plant-wide numbers (the SNC criteria) and its guide the enforcement response plan,
and the office's pages of the law show its article, so it must be a jurisdiction of Town Code
Chapter 196, Article VII (Wappinger's, the demo's, or the article with other values). A member
named that is no jurisdiction is refused too.

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

from sewer_office.accounts.towns import installed
from sewer_rules.law_package import LawPackageError, load_law
from sewer_rules.parameters import ParameterError, load_jurisdiction

from .db_roles import exposure, exposure_message

#: The primary town's law is not Article VII (the plant's program is computed under it).
FOREIGN_LAW = "sewer_use.E004"
#: A member town that is no jurisdiction.
MEMBER_VALUES = "sewer_use.E005"
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


def check_jurisdiction(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """An error for a primary town whose law is not the article, and for a member town that is
    no jurisdiction."""
    names = installed()
    out = [error for name in names[1:] if (error := _no_jurisdiction(name)) is not None]
    if (error := _foreign(names[0])) is not None:
        out.insert(0, error)
    return out


def _no_jurisdiction(name: str) -> checks.CheckMessage | None:
    try:
        load_jurisdiction(name)
    except ParameterError as e:
        return checks.Error(
            f"SEWER_USE_JURISDICTIONS names {name!r}, which is no jurisdiction: {e}",
            hint="Name the member towns by their packages (sewer-use jurisdiction list).",
            id=MEMBER_VALUES,
        )
    return None


def _foreign(name: str) -> checks.CheckMessage | None:
    try:
        law = load_law(name)
    except LawPackageError:
        return None
    if law.rules_registry:
        return None
    return checks.Error(
        f"SEWER_USE_JURISDICTION names {name!r}: {law.name}'s law is a package of its own. The "
        "primary town's values hold the plant's program (the SNC criteria) and its guide the "
        "enforcement response plan, which the office computes under Town Code Chapter 196, "
        "Article VII",
        hint=(
            "Run the office with an Article VII town as primary (wappinger or demo) and name "
            f"{name} among the member towns: SEWER_USE_JURISDICTIONS=wappinger,{name} "
            "(docs/jurisdictions.md)."
        ),
        id=FOREIGN_LAW,
    )


def register() -> None:
    """Register the checks (from the core app's ``ready``)."""
    checks.register(check_jurisdiction)
    checks.register(check_runtime_role, checks.Tags.security, checks.Tags.database, deploy=True)
