"""The office's own system checks: the jurisdiction it runs, and (``sewer-use manage check
--deploy``) the database role it connects as.

:func:`check_jurisdiction` runs with every management command: the office's rules (permits,
limits, slugs, the § 196-22 clock) are Wappinger's Article VII, so a jurisdiction whose
package keeps a law of its own (the Town of Poughkeepsie's) is refused before anything is
judged by another town's article — the primary one (``SEWER_USE_JURISDICTION``) or any member
town of ``SEWER_USE_JURISDICTIONS``.

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

#: The office is set to a jurisdiction whose law it does not compute.
FOREIGN_LAW = "sewer_use.E004"
#: A member town the office would judge by the primary town's parameters, or none at all.
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
    """An error for each jurisdiction of the installation whose package keeps a law of its own.

    A bare ``parameters.yaml`` (Wappinger's article with other values) passes: its loader
    reports its own errors where it is read."""
    names = installed()
    out = [error for name in names if (error := _foreign(name, names[0])) is not None]
    if out:
        return out
    return [error for name in names if (error := _other_values(name, names[0])) is not None]


def _other_values(name: str, primary: str) -> checks.CheckMessage | None:
    """An error when member town ``name`` does not keep the primary's dated values.

    The office reads the primary town's parameters for every record (a fee, a fine's daily
    amount, the clock's rollover): a member town under Wappinger's article with values of its
    own would be charged and clocked by another town's resolutions. Until each record's rules
    read its own town's values, the member towns must keep the same ones."""
    if name == primary:
        return None
    try:
        theirs, ours = load_jurisdiction(name), load_jurisdiction(primary)
    except ParameterError as e:
        return checks.Error(
            f"SEWER_USE_JURISDICTIONS names {name!r}, which is no jurisdiction: {e}",
            hint="Name the member towns by their packages (sewer-use jurisdiction list).",
            id=MEMBER_VALUES,
        )
    if (theirs.parameters, theirs.timezone, theirs.holidays) == (
        ours.parameters,
        ours.timezone,
        ours.holidays,
    ):
        return None
    differ = sorted(
        k
        for k in {*theirs.parameters, *ours.parameters}
        if theirs.parameters.get(k) != ours.parameters.get(k)
    )
    return checks.Error(
        f"SEWER_USE_JURISDICTIONS names {name!r}, whose dated values differ from {primary!r}'s "
        f"({', '.join(differ[:5])}{'…' if len(differ) > 5 else ''}): the office reads "
        f"{primary!r}'s values for every record, so {name!r}'s would be charged and clocked "
        "by another town's resolutions",
        hint="Serve towns with other values from installations of their own until the office "
        "reads each record's town's values (docs/jurisdictions.md).",
        id=MEMBER_VALUES,
    )


def _foreign(name: str, primary: str) -> checks.CheckMessage | None:
    try:
        law = load_law(name)
    except LawPackageError:
        return None
    if law.rules_registry:
        return None
    setting = "SEWER_USE_JURISDICTION" if name == primary else "SEWER_USE_JURISDICTIONS"
    return checks.Error(
        f"{setting} names {name!r}: {law.name}'s law is a package of its own, and "
        "the office computes Town Code Chapter 196, Article VII (Wappinger's article); "
        "it would judge that town's records by another town's law",
        hint=(
            "Run the office with wappinger or demo. Under its own law, "
            f"`sewer-use fines --jurisdiction {name}` and `sewer-use sections "
            f"--jurisdiction {name}` answer (docs/jurisdictions.md)."
        ),
        id=FOREIGN_LAW,
    )


def register() -> None:
    """Register the checks (from the core app's ``ready``)."""
    checks.register(check_jurisdiction)
    checks.register(check_runtime_role, checks.Tags.security, checks.Tags.database, deploy=True)
