"""Template context for every page: the user's roles, the jurisdiction in use, and the menu.

The menu (:data:`MENU`) is one table: each entry's label, page, the staff roles it is shown
to, and — for an outside user (an owner, an industrial user's representative) — the records
it leads to. An outside user sees an entry only when some such record is theirs (their
facility's results, their invoices…): a menu that leads to an empty list is a dead end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import connection
from django.http import HttpRequest
from django.urls import reverse

from sewer_office.accounts.access import compiled_for, visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import sees_every_jurisdiction, towns_of
from sewer_office.accounts.roles import (
    APPLICANT,
    BUILDING_INSPECTOR,
    CLERK,
    COORDINATOR,
    ENGINEER,
    HIGHWAY,
    STAFF_ROLES,
    SUPERINTENDENT,
    VIEWER,
    is_staff_member,
    role_label,
    roles_of,
)
from sewer_office.accounts.towns import installed, primary, several, values_of

EVERY_STAFF = frozenset(STAFF_ROLES)
#: The office's program staff (the sewer program, its money and its enforcement).
PROGRAM = frozenset({SUPERINTENDENT, ENGINEER, CLERK, VIEWER})
#: Who works in the field (inspections, traps, facilities).
FIELD = PROGRAM | {BUILDING_INSPECTOR}
#: The plant's pretreatment coordinator: the industrial users, their results, reports and
#: enforcement, and the program's plant-wide work, in every member town.
PLANT = frozenset({COORDINATOR})


@dataclass(frozen=True)
class MenuItem:
    """One entry of the main menu: shown to ``staff`` roles, and to an outside user when
    ``outside`` is True (always) or names a model ("app.Model") of which a record is theirs."""

    label: str
    url_name: str
    staff: frozenset[str]
    outside: bool | str = False


MENU: tuple[MenuItem, ...] = (
    MenuItem("Dashboard", "dashboard", EVERY_STAFF, True),
    # an outside user applies for a permit here even before it has any
    MenuItem("Permits & approvals", "permits:index", EVERY_STAFF, True),
    MenuItem("Properties", "registry:properties", EVERY_STAFF, "registry.Property"),
    MenuItem("Establishments", "registry:establishments", FIELD | PLANT, "registry.Establishment"),
    MenuItem("Results", "monitoring:results", FIELD | PLANT, "monitoring.LabResult"),
    MenuItem("Meters", "meters:list", PROGRAM, "meters.Meter"),
    MenuItem("Grease traps", "grease:list", FIELD, "grease.GreaseInterceptor"),
    MenuItem("Inspections", "inspections:list", FIELD, "inspections.Inspection"),
    MenuItem("Enforcement", "enforcement:list", PROGRAM | PLANT, "enforcement.Violation"),
    MenuItem(
        "Schedules", "enforcement:schedules", PROGRAM | PLANT, "enforcement.ComplianceSchedule"
    ),
    MenuItem("Pretreatment", "pretreatment:index", PROGRAM | PLANT),
    MenuItem("Reports", "reports:list", PROGRAM | PLANT, "pretreatment.ReportDue"),
    MenuItem("Billing", "billing:payments", PROGRAM, "billing.Invoice"),
    MenuItem("Letters", "letters:list", PROGRAM),
    MenuItem("Imports", "imports", frozenset({SUPERINTENDENT, ENGINEER, CLERK})),
    MenuItem("Persons", "registry:persons", PROGRAM | {BUILDING_INSPECTOR}),
    MenuItem("Service areas", "registry:areas", EVERY_STAFF),
    MenuItem("Sewer network", "registry:network", EVERY_STAFF | {HIGHWAY}),
    MenuItem("The law", "law", EVERY_STAFF, True),
    MenuItem("API", "api-docs", EVERY_STAFF, True),
)


@dataclass(frozen=True)
class _Tests:
    """The menu's statement: one ``EXISTS`` column for each model of ``labels``."""

    labels: tuple[str, ...]
    sql: str
    params: tuple[Any, ...]


def _theirs(labels: list[str], user: Actor | None) -> set[str]:
    """Which of the models ``labels`` ("app.Model") hold a record ``user`` may see: one
    statement of ``EXISTS`` subqueries (one round trip, whatever the menu's length), its text
    compiled once per process for the same persons and roles (:func:`compiled_for`)."""
    tests = compiled_for(user, ("menu", tuple(labels)), lambda: _tests(labels, user))
    if not tests.labels:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(tests.sql, tests.params)
        row = cursor.fetchone()
    return {label for label, there in zip(tests.labels, row, strict=True) if there}


def _tests(labels: list[str], user: Actor | None) -> _Tests:
    tested: list[str] = []
    parts: list[str] = []
    params: list[Any] = []
    for label in labels:
        try:
            model = apps.get_model(label)
        except LookupError:
            continue
        qs = visible(model._default_manager.all(), user)
        if qs.query.is_empty():  # visible() saw nothing to look for: no query
            continue
        sql, part_params = qs.order_by().values("pk").query.sql_with_params()
        tested.append(label)
        parts.append(f"EXISTS ({sql})")
        params += part_params
    return _Tests(tuple(tested), "SELECT " + ", ".join(parts), tuple(params))


def shows(item: MenuItem, user: Actor | None, roles: frozenset[str], theirs: set[str]) -> bool:
    """Whether ``item`` is in the menu of ``user`` (``theirs``: the models of which some record
    is the outside user's, from :func:`_theirs`)."""
    if roles & item.staff:
        return True
    if is_staff_member(user) or APPLICANT not in roles:
        return False
    if isinstance(item.outside, bool):
        return item.outside
    return item.outside in theirs


def menu_of(user: Actor | None) -> list[tuple[str, str]]:
    """The (label, url) entries of the user's main menu, in the table's order."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    roles = roles_of(user)
    outside = APPLICANT in roles and not is_staff_member(user)
    labels = [i.outside for i in MENU if isinstance(i.outside, str) and not roles & i.staff]
    theirs = _theirs(labels, user) if outside else set()
    return [(i.label, reverse(i.url_name)) for i in MENU if shows(i, user, roles, theirs)]


class _Lazy:
    """The menu, computed when a page shows it (not for a JSON response or a redirect)."""

    def __init__(self, user: Actor | None) -> None:
        self.user = user
        self._items: list[tuple[str, str]] | None = None

    def __iter__(self) -> Any:
        if self._items is None:
            self._items = menu_of(self.user)
        return iter(self._items)


def acting_for(user: Actor | None) -> str:
    """In an office of several towns, the towns a staff member acts for, named as the header
    shows them ("Town of Poughkeepsie"; "every member town"); empty in a one-town office."""
    if not several() or not is_staff_member(user):
        return ""
    if sees_every_jurisdiction(user):
        return "every member town"
    towns = towns_of(user)
    return ", ".join(values_of(t).name for t in towns) if towns else "no town yet"


def office(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    roles = sorted(roles_of(user))
    # the title names the town a staff member of one town acts for; else the installation's
    towns = towns_of(user) if several() and is_staff_member(user) else ()
    params = values_of(towns[0] if len(towns) == 1 else primary())
    return {
        "acting_for": acting_for(user),
        "member_towns": [values_of(t).name for t in installed()] if several() else [],
        "user_roles": roles,
        "user_role_labels": [role_label(r) for r in roles],
        "is_staff_member": is_staff_member(user),
        "is_applicant": APPLICANT in roles,
        "jurisdiction_name": params.name,
        "jurisdiction_notice": params.notice,
        "site_menu": _Lazy(user),
    }
