"""The roles of the office, as Django groups, and the actors the article names.

Staff roles (§ 196-15 ENGINEER and SUPERINTENDENT; the Building Inspector of § 196-17 C; the
Town clerk who takes applications and fees; the Highway Superintendent of § 196-18 K; viewers
such as the Town Board) see every record of the jurisdictions they act for
(:mod:`sewer_office.accounts.jurisdictions`); the plant's pretreatment coordinator (the
Control Authority's person, 40 CFR 403.3(f)) sees every member town's and runs the program's
plant-wide work. Outside users (``applicant``: owners, agents,
developers, industrial users' representatives) see and act only on the records of the persons
they represent (:mod:`sewer_office.accounts.access`).
"""

from __future__ import annotations

from .actors import Actor, person_or_none

SUPERINTENDENT = "superintendent"
ENGINEER = "engineer"
BUILDING_INSPECTOR = "building_inspector"
CLERK = "clerk"
HIGHWAY = "highway_superintendent"
VIEWER = "viewer"
COORDINATOR = "coordinator"
APPLICANT = "applicant"

STAFF_ROLES: tuple[str, ...] = (
    SUPERINTENDENT,
    ENGINEER,
    BUILDING_INSPECTOR,
    CLERK,
    HIGHWAY,
    VIEWER,
    COORDINATOR,
)
ALL_ROLES: tuple[str, ...] = (*STAFF_ROLES, APPLICANT)

LABELS: dict[str, str] = {
    SUPERINTENDENT: "Superintendent",
    ENGINEER: "Engineer",
    BUILDING_INSPECTOR: "Building Inspector",
    CLERK: "Clerk",
    HIGHWAY: "Highway Superintendent",
    VIEWER: "Viewer",
    COORDINATOR: "Pretreatment Coordinator (plant)",
    APPLICANT: "Applicant",
}

_CACHE = "_sewer_roles"


def role_label(role: str) -> str:
    return LABELS.get(role, role)


def roles_of(user: Actor | None) -> frozenset[str]:
    """The office roles of ``user`` (its group names), cached on the user object."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, _CACHE, None)
    if cached is None:
        names = user.groups.values_list("name", flat=True)
        cached = frozenset(n for n in names if n in LABELS)
        setattr(user, _CACHE, cached)
    return cached


def forget_roles(user: Actor | None) -> None:
    """Drop the cached roles (after changing a user's groups)."""
    if hasattr(user, _CACHE):
        delattr(user, _CACHE)


def is_staff_member(user: Actor | None) -> bool:
    """Whether ``user`` sees every record: any staff role, or a Django superuser (back office)."""
    person = person_or_none(user)
    if person is None:
        return False
    return bool(roles_of(person) & set(STAFF_ROLES)) or bool(person.is_superuser)


def is_office_user(user: Actor | None) -> bool:
    """Whether ``user`` may use the office at all (a role, or back-office superuser)."""
    return is_staff_member(user) or APPLICANT in roles_of(user)


def has_role(user: Actor | None, *roles: str) -> bool:
    return bool(roles_of(user) & set(roles))
