"""Per-object access: which records a user may see.

Staff see everything of the jurisdictions they act for (every record, in an installation of
one town; :mod:`.jurisdictions`). An outside user represents one or more persons of the registry
(``Person.representatives``); they see a record when one of those persons is its applicant or
owns its property. Every list, detail page, file download and API endpoint filters through
:func:`visible`, so an applicant cannot reach another's record by guessing its URL (the
record simply does not exist for them: 404).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any, TypeVar

from django.db import models
from django.db.models import Lookup, Q
from django.db.models.expressions import RawSQL

from .actors import Actor, person_or_none
from .jurisdictions import jurisdictions_of, within
from .roles import is_office_user, is_staff_member, roles_of
from .second_factor import unverified_where_required

M = TypeVar("M", bound=models.Model)


def person_ids(user: Actor | None) -> list[int]:
    """Ids of the persons ``user`` acts for (cached on the user object)."""
    person = person_or_none(user)
    if person is None:
        return []
    cached: list[int] | None = getattr(person, "_sewer_person_ids", None)
    if cached is None:
        # Through the reverse accessor of ``registry.Person.representatives``: accounts sits
        # below the registry and names none of its models.
        linked = person.represented_persons
        cached = _same_persons(
            linked.model._default_manager, set(linked.values_list("id", flat=True))
        )
        setattr(person, "_sewer_person_ids", cached)  # noqa: B010 (a cache, not a field of User)
    return cached


def _same_persons(persons: Any, ids: set[int]) -> list[int]:
    """``ids`` with the persons the office merged them with: the one each was merged into (to
    the end of the chain) and every duplicate merged into any of them. A merge says they are
    one person, so an account linked to either sees the records of both."""
    found = set(ids)
    frontier = set(ids)
    while frontier:  # one query a step; merges are short chains (loops are refused)
        pairs = persons.filter(
            Q(pk__in=frontier, merged_into__isnull=False) | Q(merged_into__in=frontier)
        ).values_list("pk", "merged_into_id")
        frontier = {i for pair in pairs for i in pair if i is not None} - found
        found |= frontier
    return sorted(found)


def visible(qs: models.QuerySet[M], user: Actor | None) -> models.QuerySet[M]:
    """``qs`` narrowed to what ``user`` may see.

    The model declares ``ACCESS_PATHS``: lookups from the record to a person (e.g.
    ``("applicant", "property__owner")``); a record is visible to an outside user when any
    path leads to a person they represent. A session that still owes the code its role
    requires (``SEWER_USE_SECOND_FACTOR=required``) sees nothing.
    """
    if unverified_where_required(user):
        return qs.none()
    if is_staff_member(user):
        return _in_jurisdictions(qs, user)
    if not is_office_user(user):
        return qs.none()
    if getattr(qs.model, "PUBLIC_TO_OFFICE_USERS", False):
        return qs
    ids = person_ids(user)
    if not ids:
        return qs.none()
    paths: tuple[str, ...] = getattr(qs.model, "ACCESS_PATHS", ())
    if not paths:
        return qs.none()
    # Every path follows foreign keys only (no many-valued joins): no DISTINCT needed.
    qs = qs.filter(_reaching(qs.model, paths, ids))
    # A model may hide some of its records from outside users whatever the path (an
    # inspection before it is completed: unscheduled inspections are never announced).
    outside_only = getattr(qs.model, "OUTSIDE_FILTER", None)
    return qs.filter(outside_only) if outside_only is not None else qs


def _in_jurisdictions(qs: models.QuerySet[M], user: Actor | None) -> models.QuerySet[M]:
    """``qs`` narrowed to the jurisdictions a staff member acts for (unchanged for those who
    see every one: the installation's only town, the coordinator, a superuser)."""
    codes = jurisdictions_of(user)
    if codes is None:
        return qs
    cond = within(qs.model, codes)
    return qs if cond is None else qs.filter(cond)


def _reaching(model: type[models.Model], paths: tuple[str, ...], ids: list[int]) -> Q:
    """The records of ``model`` from which one of ``paths`` leads to one of ``ids``.

    Each first hop is an ``IN`` over the related model's own records that reach ``ids`` (built
    the same way), not a join: an OR of conditions on joined tables reads every row of both
    (a building sewer permit's "applicant or property owner" read every permit and every
    property), where an OR of a column and an uncorrelated subquery is an index lookup and a
    hashed set read once. Each subquery is SQL compiled once per process (:func:`_subquery`,
    used as :class:`RawSQL`): a page that narrows twenty lists for an outside user no longer
    has Django resolve and compile the same nest of subqueries twenty times, and the database
    still evaluates the subquery in every statement that uses it (nothing is read ahead, so a
    record written during the request is seen as before)."""
    hops: dict[str, list[str]] = {}
    cond = Q()
    for path in paths:
        first, _, rest = path.partition("__")
        if rest:
            hops.setdefault(first, []).append(rest)
        else:
            cond |= Q(**{f"{first}__in": ids})
    for first, rests in hops.items():
        related = model._meta.get_field(first).related_model
        assert isinstance(related, type)  # a foreign key: ACCESS_PATHS follow no generic relation
        sql, params = _subquery(related, tuple(rests), tuple(ids))
        raw = RawSQL(sql, params, output_field=models.BigIntegerField())
        cond |= Q(**{f"{first}__{AnyOf.lookup_name}": raw})
    return cond


@models.ForeignKey.register_lookup
class AnyOf(Lookup[Any]):
    """``fk__any_of=RawSQL(subquery)``: the foreign key is one of the ids the subquery gives.

    On PostgreSQL written ``fk = ANY(ARRAY(subquery))``: the subquery runs once, before the
    scan, as an array the planner can look up in the foreign key's index — so "applicant is
    mine OR the property is one of mine" becomes two index lookups joined (a BitmapOr) instead
    of a scan of the whole table testing a hashed subplan row by row (a town's 16,000 building
    permits: 8 ms → 0.5 ms). Elsewhere (SQLite) the plain ``IN (subquery)``, which it plans
    the same way."""

    lookup_name = "any_of"

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        params = (*lhs_params, *rhs_params)
        if connection.vendor == "postgresql":
            return f"{lhs} = ANY(ARRAY{rhs})", params
        return f"{lhs} IN {rhs}", params


@lru_cache(maxsize=4096)
def _subquery(
    model: type[models.Model], paths: tuple[str, ...], ids: tuple[int, ...]
) -> tuple[str, tuple[Any, ...]]:
    """The SQL of "the ids of ``model``'s records that ``paths`` lead from to ``ids``", compiled
    once per process: it depends on the schema and the persons only, never on the data (the
    database evaluates it in every statement), so the same text serves every request."""
    inner = model._base_manager.filter(_reaching(model, paths, list(ids))).values("pk")
    sql, params = inner.query.sql_with_params()
    return sql, tuple(params)


#: Statements compiled once per process for what a user may see (:func:`compiled_for`).
_STATEMENTS: dict[Hashable, Any] = {}
STATEMENTS_KEPT = 4096
S = TypeVar("S")


def compiled_for(user: Actor | None, key: Hashable, build: Callable[[], S]) -> S:
    """What ``build`` compiles for ``user`` — the SQL of a statement made of :func:`visible`
    querysets (the menu's EXISTS tests, the permits' counts) — compiled once per process.

    :func:`visible` depends on the user only through the persons they act for, their roles
    (and whether they are staff, which a superuser is without one) and whether they still owe
    a second factor; with ``key`` (what else the statement is
    built from, e.g. the states counted) those make the cache's key, so the same text serves
    every request of the same persons, and a merge of persons or a change of roles builds a
    new one. ``build`` must return SQL and parameters only, never rows: the database
    evaluates the statement every time, so nothing is read ahead."""
    full = (
        tuple(person_ids(user)),
        roles_of(user),
        is_staff_member(user),  # a superuser is staff without a role
        jurisdictions_of(user),
        unverified_where_required(user),
        key,
    )
    if full not in _STATEMENTS:
        if len(_STATEMENTS) >= STATEMENTS_KEPT:
            _STATEMENTS.clear()
        _STATEMENTS[full] = build()
    found: S = _STATEMENTS[full]
    return found


def sees_every_record(user: Actor | None) -> bool:
    """Whether nothing narrows what ``user`` sees: staff of the installation's only town, the
    plant's coordinator, a superuser. A page may then skip :func:`visible`'s work; a staff
    member of one member town among several may not."""
    return (
        is_staff_member(user)
        and jurisdictions_of(user) is None
        and not unverified_where_required(user)
    )


def can_see(user: Actor | None, obj: models.Model) -> bool:
    return visible(type(obj)._default_manager.filter(pk=obj.pk), user).exists()
