"""Every permit and approval in one list: the counts per kind and the records of all kinds.

Each kind has its own table; the list of all of them is the union of each kind's visible
records, filtered by each kind's own filterset (search, open only, filing dates, property),
so that the one list and a kind's list answer the same filter the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, TypedDict

from django import forms
from django.db.models import CharField, Count, Q, QuerySet, Value

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.links import link

from .kinds import KINDS, Kind

#: The filters the list of all permits shares with every kind's list.
SHARED_FILTERS = ("q", "open", "property", "filed_after", "filed_before")


class PermitFilters(TypedDict, total=False):
    """The filters of the list of every permit (``AllPermitsForm``'s cleaned data, the fields
    left blank left out): ``kind`` picks one kind, the others (:data:`SHARED_FILTERS`) go to
    every kind's filter set."""

    q: str
    kind: str
    open: str
    property: str
    filed_after: date
    filed_before: date


COLUMNS = ("pk", "number", "filed_on", "state", "applicant__name", "property__address")


@dataclass(frozen=True)
class KindCount:
    kind: Kind
    total: int
    open: int
    may_file: bool


def applies(user: Actor, k: Kind) -> bool:
    """Whether an outside user has what filing ``k`` needs: a record to choose for each of
    the form's required choices (a homeowner without a facility files no industrial
    approval). Staff file for anyone: always."""
    if is_staff_member(user):
        return True
    form = k.form(user=user)
    for field in form.fields.values():
        if (
            isinstance(field, forms.ModelChoiceField)
            and field.required
            and (field.queryset is None or not field.queryset.exists())
        ):
            return False
    return True


def kind_counts(user: Actor, may_file: Any) -> list[KindCount]:
    """Each kind with how many records the user may see, how many open, and whether the user
    may file one. An outside user is offered only the kinds that apply to them: those they
    have records of or could file."""
    out = []
    for k in KINDS.values():
        row = visible(k.model.objects.all(), user).aggregate(
            total=Count("id"), open=Count("id", filter=Q(state__in=k.workflow.open_states))
        )
        can_file = may_file(user, k) and applies(user, k)
        if is_staff_member(user) or row["total"] or can_file:
            out.append(KindCount(k, row["total"], row["open"], can_file))
    return out


def _one_kind(k: Kind, user: Actor, data: PermitFilters) -> QuerySet[Any]:
    base = visible(k.model.objects.all(), user)
    given: Mapping[str, object] = data
    shared = {name: given[name] for name in SHARED_FILTERS if given.get(name) not in (None, "")}
    fs = k.filterset(shared or None, queryset=base)
    qs: QuerySet[Any] = fs.qs if fs.is_bound and fs.is_valid() else base
    rows: QuerySet[Any] = (
        qs.order_by()
        .annotate(kind_slug=Value(k.slug, output_field=CharField()))
        .values(*COLUMNS, "kind_slug")
    )
    return rows


def all_permits(user: Actor, data: PermitFilters) -> QuerySet[Any]:
    """The records of every kind (or of ``data["kind"]``) as rows of :data:`COLUMNS` and
    ``kind_slug``, newest filing first; a queryset, so that a page of it is one query."""
    kind = data.get("kind", "")
    chosen = [KINDS[kind]] if kind in KINDS else list(KINDS.values())
    parts = [_one_kind(k, user, data) for k in chosen]
    qs = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    return qs.order_by("-filed_on", "-number")


def labelled(rows: Any) -> list[dict[str, Any]]:
    """Rows of :func:`all_permits` with their kind, state label, open flag and link."""
    out = []
    for row in rows:
        k = KINDS[row["kind_slug"]]
        state = k.workflow.state(row["state"])
        out.append(
            {
                **row,
                "kind": k,
                "state_label": state.label,
                "is_open": not state.terminal,
                "url": link("permits:detail", args=[k.slug, row["pk"]]),
            }
        )
    return out
