"""The monitoring app's panels: on the facility page, sampling points, recent results with
status and citations, a chart per parameter with its limits, and the facility's open findings
(of every kind: results, slugs, pump-outs, inspections); on the dashboard, new findings to
review and sampling due."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sewer_office.accounts.access import compiled_for, visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import (
    APPLICANT,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
    is_staff_member,
)
from sewer_office.core.firsts import ids_of, statement_of
from sewer_office.core.panels import Panel
from sewer_office.findings.choices import ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import (
    by_severity,
    capped_label,
    capped_statement,
    counted,
    open_findings,
    severity_queue,
)
from sewer_office.registry.models import Establishment

from . import queries
from .models import (
    DischargeLimit,
    LabImport,
    LabMapping,
    LabResult,
    SamplingEvent,
    SamplingPoint,
)
from .services import MAPPERS, SAMPLERS

DASHBOARD_ROWS = 8
RECENT_SAMPLES = 10
#: The dashboard counts new findings up to this many, then shows "1,000+": a count bounded by
#: the partial index, whose cost does not grow with the ledger (the full list is one click away).
COUNT_CAP = 1000


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    user = request.user
    findings = open_findings(user).filter(establishment=establishment)
    return Panel(
        title="Sampling and results",
        template="monitoring/_facility_panel.html",
        context={
            "est": establishment,
            "points": visible(SamplingPoint.objects.filter(establishment=establishment), user),
            "limits": visible(
                DischargeLimit.objects.filter(establishment=establishment).select_related(
                    "approval"
                ),
                user,
            ),
            "results": queries.with_citations(queries.recent_results(establishment, user)),
            "events": list(
                visible(
                    SamplingEvent.objects.filter(establishment=establishment).select_related(
                        "sampling_point"
                    ),
                    user,
                ).order_by("-collected_at", "-id")[:RECENT_SAMPLES]
            ),
            "may_sample": has_role(user, *SAMPLERS),
            "parameters": queries.parameters_of(establishment),
            "findings": list(findings[: queries.OPEN_FINDINGS]),
            "may_add_point": has_role(user, SUPERINTENDENT, ENGINEER),
            "may_report": has_role(user, SUPERINTENDENT, ENGINEER, APPLICANT),
        },
        order=10,
    )


#: The outside user's home: at most this many facilities, results and findings each.
HOME_FACILITIES = 5
HOME_ROWS = 5
#: A facility's count of open findings on the outside user's home stops here ("1,000+").
HOME_COUNT_CAP = 1000
#: How far ahead the outside user's home looks for sampling due.
HOME_DUE_DAYS = 31


@dataclass(frozen=True)
class HomeFacility:
    """One facility on the outside user's home: its sampling due, latest results, worst open
    findings, and how many findings are open (``count_label`` says "1,000+" past the cap)."""

    est: Establishment
    due: list[queries.SamplingDue]
    results: list[LabResult]
    findings: list[Finding]
    findings_count: int
    findings_count_label: str


def home_panel(user: Actor) -> Panel | None:
    """An outside user's facilities at a glance: sampling due, latest results with their
    status and citations, open findings. Bounded: a fixed number of queries per facility and
    at most :data:`HOME_FACILITIES` facilities (the user's own, the count of the rest shown)."""
    facilities = visible(Establishment.objects.all(), user).order_by("name", "id")
    shown = list(facilities[:HOME_FACILITIES])
    if not shown:
        return None
    due = queries.sampling_due(user, within_days=HOME_DUE_DAYS)
    # Each read below names one facility at a time (establishment = X), never the list of
    # shown facilities as well: the two conditions on one column make PostgreSQL expect a
    # single row, and it then sorts a facility's every open finding (4 ms a facility at two
    # million results) instead of reading the first rows of its severity index (0.3 ms).
    mine = open_findings(user)
    # one query for every facility's count (each stopping at HOME_COUNT_CAP: a facility's
    # long history costs no more than a new one's), one for every shown result's citations
    ids = [e.pk for e in shown]
    counts = counted(
        Finding.objects.db,
        compiled_for(
            user,
            ("facility counts", tuple(ids), HOME_COUNT_CAP),
            lambda: capped_statement(mine, ids, HOME_COUNT_CAP, "establishment_id"),
        ),
        ids,
    )
    results = queries.recent_results_of(shown, user, HOME_ROWS)
    queries.with_citations([r for rs in results.values() for r in rs])
    # each facility's worst open findings: their ids in one statement (compiled once for the
    # same persons and facilities), then the rows
    with_findings = tuple(e.pk for e in shown if counts.get(e.pk))
    worst_ids = ids_of(
        Finding.objects.db,
        compiled_for(
            user,
            ("worst findings", with_findings, HOME_ROWS),
            lambda: statement_of(
                [by_severity(mine.filter(establishment_id=pk))[:HOME_ROWS] for pk in with_findings]
            ),
        ),
    )
    worst: dict[int | None, list[Finding]] = {}
    for f in by_severity(mine.filter(pk__in=worst_ids)):  # no ids: Django runs no query
        worst.setdefault(f.establishment_id, []).append(f)
    rows = [
        HomeFacility(
            est=est,
            due=[d for d in due if d.point.establishment_id == est.pk][:HOME_ROWS],
            results=results[est.pk],
            findings=worst.get(est.pk, []),
            findings_count=min(counts.get(est.pk, 0), HOME_COUNT_CAP),
            findings_count_label=capped_label(counts.get(est.pk, 0), HOME_COUNT_CAP),
        )
        for est in shown
    ]
    return Panel(
        title="My facility at a glance",
        template="monitoring/_home_panel.html",
        context={
            "facilities": rows,
            "more": facilities.count() - len(shown),
            "days": HOME_DUE_DAYS,
        },
        order=1,
    )


def dashboard_panel(request: Any) -> Panel | None:
    user = request.user
    if not is_staff_member(user):
        return home_panel(user)
    new = open_findings(user).filter(review=ReviewState.NEW)
    rows, counts = severity_queue(new, DASHBOARD_ROWS, COUNT_CAP)
    new_count = sum(n for _code, n, _label in counts)
    return Panel(
        title="Findings and sampling",
        template="monitoring/_dashboard_panel.html",
        context={
            "new_count": new_count,
            "new_count_label": (
                f"{new_count:,}+"
                if any(lbl.endswith("+") for _c, _n, lbl in counts)
                else f"{new_count:,}"
            ),
            "counts": counts,
            "new": rows,
            "due": queries.sampling_due(user)[:DASHBOARD_ROWS],
        },
        order=10,
    )


def imports_panel(request: Any) -> Panel | None:
    """On the imports page: the laboratories' files — the import, the last one made, and the
    mappings kept for the laboratories that send their own layout."""
    if not has_role(request.user, *MAPPERS):
        return None
    return Panel(
        title="Laboratory files",
        template="monitoring/_imports_panel.html",
        context={
            "last": LabImport.objects.order_by("-imported_at", "-id").first(),
            "mappings": LabMapping.objects.count(),
        },
        order=30,
    )
