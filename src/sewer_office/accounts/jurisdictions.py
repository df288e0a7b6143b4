"""Which towns' records a user sees, in an installation that serves several.

A plant's pretreatment program serves several member towns, each under its own law; one
installation of the office can hold them all (``SEWER_USE_JURISDICTIONS``). Every property
belongs to the jurisdiction whose law governs it (``registry.Property.jurisdiction``), and the
records reach it by their ``JURISDICTION_PATHS``. A staff member acts for the jurisdictions
they were granted (:class:`~sewer_office.accounts.models.StaffJurisdiction`): a Wappinger
clerk sees and acts for Wappinger only. The plant's pretreatment coordinator (the Control
Authority's role) and a back-office superuser see every member town.

An installation of one town has nothing to narrow: every staff member sees every record, as
before, and no grant is needed.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import models
from django.db.models import Q

from .actors import Actor, person_or_none
from .roles import COORDINATOR, is_staff_member, roles_of
from .towns import installed, primary, several

_CACHE = "_sewer_jurisdictions"


def jurisdictions_of(user: Actor | None) -> frozenset[str] | None:
    """The jurisdictions whose records ``user`` sees as staff, or ``None`` for every one.

    ``None`` in a one-town installation, for a superuser, for the plant's coordinator and for
    an account granted every member town; otherwise the user's grants (none: nothing, rather
    than everything)."""
    if not several():
        return None
    person = person_or_none(user)
    if person is None:
        return frozenset()
    if person.is_superuser or COORDINATOR in roles_of(person):
        return None
    cached: frozenset[str] | None = getattr(person, _CACHE, None)
    if cached is None:
        # Through the reverse accessor of ``StaffJurisdiction.user``.
        granted = person.staff_jurisdictions.values_list("jurisdiction", flat=True)
        cached = frozenset(granted) & frozenset(installed())
        setattr(person, _CACHE, cached)
    return None if cached == frozenset(installed()) else cached


def forget_jurisdictions(user: Actor | None) -> None:
    """Drop the cached grants (after granting or withdrawing one)."""
    if hasattr(user, _CACHE):
        delattr(user, _CACHE)


def towns_seen(user: Actor | None) -> frozenset[str] | None:
    """The towns whose records ``user`` reads: a staff member's towns (``None``: every one); an
    outside user reads the records of the persons they represent, of every town (``None``)."""
    return jurisdictions_of(user) if is_staff_member(user) else None


def sees_every_jurisdiction(user: Actor | None) -> bool:
    return jurisdictions_of(user) is None


def acts_for(user: Actor | None, town: str) -> bool:
    """Whether ``user`` acts for ``town`` (every town: see :func:`jurisdictions_of`)."""
    codes = jurisdictions_of(user)
    return codes is None or town in codes


def towns_of(user: Actor | None) -> tuple[str, ...]:
    """The installation's towns ``user`` acts for, in the installation's order."""
    return tuple(town for town in installed() if acts_for(user, town))


def jurisdiction_paths(model: type[models.Model]) -> tuple[str, ...]:
    """The lookups from a record of ``model`` to the jurisdiction it belongs to.

    Declared as ``JURISDICTION_PATHS`` (``("jurisdiction",)`` for a record that keeps its
    town: a parcel, a facility, a permit, a violation...), or read from ``ACCESS_PATHS``: each
    path is followed to the first record on it that keeps its town (a finding's
    ``establishment__building__property__owner`` → ``establishment__jurisdiction``, a notice's
    ``violation__property__owner`` → ``violation__jurisdiction``); a path to a person alone
    says nothing (a person may own in two towns). A model whose records belong to no one town
    says why in ``JURISDICTION_SHARED``."""
    declared: Sequence[str] | None = getattr(model, "JURISDICTION_PATHS", None)
    if declared is not None:
        return tuple(declared)
    out: list[str] = []
    for path in getattr(model, "ACCESS_PATHS", ()):
        hops: list[str] = []
        current: type[models.Model] | None = model
        for hop in path.split("__"):
            if current is None:
                break
            current = _related(current, hop)
            hops.append(hop)
            if current is not None and keeps_its_town(current):
                out.append("__".join([*hops, "jurisdiction"]))
                break
    return tuple(dict.fromkeys(out))


def keeps_its_town(model: type[models.Model]) -> bool:
    """Whether ``model``'s records keep their town in a column of their own."""
    return tuple(getattr(model, "JURISDICTION_PATHS", ()) or ()) == ("jurisdiction",)


def _related(model: type[models.Model], name: str) -> type[models.Model] | None:
    """The model a relation ``name`` of ``model`` leads to (None: not a relation)."""
    related = model._meta.get_field(name).related_model
    return related if isinstance(related, type) and issubclass(related, models.Model) else None


def shared_reason(model: type[models.Model]) -> str:
    """Why ``model``'s records belong to no one town ("" when they do)."""
    return str(getattr(model, "JURISDICTION_SHARED", ""))


def within(model: type[models.Model], codes: frozenset[str]) -> Q | None:
    """The records of ``model`` that belong to one of ``codes`` (``None``: every record, the
    model being shared by the member towns)."""
    if shared_reason(model):
        return None
    paths = jurisdiction_paths(model)
    if not paths:
        return Q(pk__in=[])
    # One condition per path, OR-ed only when there are several: an OR makes Django join
    # with LEFT OUTER JOINs, which keep PostgreSQL from starting at the town's parcels (an
    # index) and reaching the records from them.
    cond = Q(**{f"{paths[0]}__in": sorted(codes)})
    for path in paths[1:]:
        cond |= Q(**{f"{path}__in": sorted(codes)})
    return cond


def jurisdiction_of(record: object) -> str:
    """The member town ``record`` belongs to: the first of its model's paths that reaches a
    town (a violation of a facility through the facility, one of a parcel through the parcel),
    else the primary town (a record of no one town: a person, an invoice). In an office of one
    town, that town, with no relation read."""
    if not several():
        return primary()
    model = type(record)
    # a record that keeps its parcel's town, being written: the town it will keep
    if isinstance(record, models.Model) and record._state.adding and (town := parcel_town(record)):
        return town
    paths = jurisdiction_paths(model) if issubclass(model, models.Model) else ()
    return _first_town(record, paths) or primary()


def parcel_town(record: object) -> str:
    """The town of the first parcel or facility its model's ``TOWN_SOURCES`` reach from
    ``record`` ("" when none does): the town a record that keeps its town is written with."""
    sources: tuple[str, ...] = getattr(type(record), "TOWN_SOURCES", ())
    return _first_town(record, [f"{source}__jurisdiction" for source in sources])


def _first_town(record: object, paths: Sequence[str]) -> str:
    """The town the first of ``paths`` that leads somewhere reaches from ``record``, hop by
    hop through its loaded relations ("" when none does)."""
    for path in paths:
        value: object = record
        for hop in path.split("__"):
            value = getattr(value, hop, None)
            if value is None:
                break
        if isinstance(value, str) and value:
            return value
    return ""


def foreign_to(actor: Actor | None, record: object) -> str | None:
    """The town of ``record`` when ``actor`` is a staff member who does not act for it (the
    services refuse them, as the pages and the API never show them the record); ``None``
    otherwise: one town, a daily job, a person acting on their own records (their access is
    by ownership), or a record of no one town."""
    if not several() or actor is None or not is_staff_member(actor):
        return None
    model = type(record)
    if not issubclass(model, models.Model) or not jurisdiction_paths(model):
        return None
    town = jurisdiction_of(record)
    return town if kept_from(actor, town) else None


def kept_from(actor: Actor | None, town: str) -> bool:
    """Whether ``actor`` is a staff member of an office of several towns who does not act for
    ``town`` (a daily job, an outside user or a one-town office is never kept from it here)."""
    if not several() or actor is None or not is_staff_member(actor):
        return False
    return not acts_for(actor, town)
