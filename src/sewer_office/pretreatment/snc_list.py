"""The yearly list of industrial users in significant noncompliance, and its notice for the
newspaper (40 CFR 403.8(f)(2)(viii): published at least once a year), read from the stored
determinations (:mod:`.snc`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sewer_office.accounts.towns import primary
from sewer_office.monitoring.in_force import params_in_force
from sewer_office.registry.models import Establishment
from sewer_rules.federal.snc_criteria import criterion

from . import snc_scope as scoping
from .models import SNCDetermination


@dataclass(frozen=True)
class ListedUser:
    establishment: Establishment
    periods: list[str]
    criteria: list[str]
    citations: list[str]


def snc_list(year: int) -> list[ListedUser]:
    """Industrial users in SNC at any time during ``year`` (determinations in force whose
    period overlaps it), one line each, with every period and criterion.

    Each determination's criteria are re-checked against the SIU designations as they stand
    (:func:`.snc_scope.criteria_in_scope`): one stored before the scope was applied, or before
    a designation was corrected, names a user only for the criteria that apply to it."""
    first, last = date(year, 1, 1), date(year, 12, 31)
    found = list(
        SNCDetermination.objects.filter(
            superseded_by__isnull=True, snc=True, period_start__lte=last, period_end__gte=first
        )
        .select_related("establishment__operator", "establishment__building__property")
        .order_by("period_start", "id")
    )
    in_scope = scoping.criteria_in_scope(found, params_in_force(primary())) if found else {}
    rows: dict[int, list[SNCDetermination]] = defaultdict(list)
    for d in found:
        if in_scope[d.pk]:
            rows[d.establishment_id].append(d)
    out = []
    for ds in rows.values():
        letters = sorted({c for d in ds for c in in_scope[d.pk]})
        out.append(
            ListedUser(
                ds[0].establishment,
                sorted({d.period_label for d in ds}),
                letters,
                [str(criterion(c)) for c in letters],
            )
        )
    return sorted(out, key=lambda u: u.establishment.name)


def newspaper_text(year: int, listed: Sequence[ListedUser], town: str) -> str:
    """The notice to publish in a newspaper of general circulation (403.8(f)(2)(viii))."""
    head = (
        f"PUBLIC NOTICE — {town}. Pursuant to 40 CFR 403.8(f)(2)(viii), the Control Authority "
        f"publishes the list of industrial users which, at any time during the 12 months of "
        f"{year}, were in significant noncompliance with applicable pretreatment standards and "
        f"requirements."
    )
    if not listed:
        return head + f" No industrial user was in significant noncompliance during {year}."
    lines = [
        f"{u.establishment.name}, {u.establishment.building.property.address} — "
        + "; ".join(
            f"criterion {c} ({cit})" for c, cit in zip(u.criteria, u.citations, strict=True)
        )
        for u in listed
    ]
    return head + "\n" + "\n".join(lines)
