"""Read-side queries of the monitoring app, shared by pages, panels and the API.

Each is bounded (a page of rows, a window of time) so that a facility page stays fast however
long the facility's history: a facility with 2 million results in the database renders with a
handful of indexed queries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Max, QuerySet
from django.utils import timezone

from sewer_engines.evaluation.engine import RULES
from sewer_office.accounts.access import compiled_for, visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.towns import keeps_article
from sewer_office.core.firsts import ids_of, statement_of
from sewer_office.core.statuses import SEVERITY
from sewer_office.core.town_law import town_of
from sewer_office.findings.models import Finding
from sewer_rules.analytes import BY_NAME, resolve
from sewer_rules.units import convert

from .charts import LimitLine, render_chart
from .choices import ResultState
from .in_force import params_in_force
from .models import DischargeLimit, LabResult, SamplingPoint

RECENT_RESULTS = 25
OPEN_FINDINGS = 25
CHART_DAYS = 400
CHART_POINTS = 2000


#: The newest results first (what a results list and the panels show).
_NEWEST = ("-sampled_at", "id")
_SHOWN_WITH = ("establishment", "event", "event__sampling_point")


def _current_results(user: Actor) -> QuerySet[LabResult]:
    """Results ``user`` may see, corrections shown and what they replaced not."""
    return visible(LabResult.objects.exclude(state=ResultState.SUPERSEDED), user)


def recent_results(est: Any, user: Actor, limit: int = RECENT_RESULTS) -> list[LabResult]:
    """The facility's latest ``limit`` results (corrections shown, what they replaced not);
    :func:`with_citations` gives them their citations, for one facility or several at once."""
    qs = _current_results(user).filter(establishment=est).select_related(*_SHOWN_WITH)
    return list(qs.order_by(*_NEWEST)[:limit])


def recent_results_of(ests: list[Any], user: Actor, limit: int) -> dict[int, list[LabResult]]:
    """:func:`recent_results` of each of ``ests`` (establishment id → its rows), in two queries
    whatever their number: the ids of each one's latest in one statement
    (:func:`sewer_office.core.firsts.first_ids`), then the rows."""

    def build() -> tuple[str, tuple[Any, ...]]:
        base = _current_results(user)
        return statement_of([base.filter(establishment=e).order_by(*_NEWEST)[:limit] for e in ests])

    # the statement depends on the user's persons and the facilities only: compiled once
    key = ("recent results", tuple(e.pk for e in ests), limit)
    ids = ids_of(LabResult.objects.db, compiled_for(user, key, build)) if ests else []
    out: dict[int, list[LabResult]] = {e.pk: [] for e in ests}
    rows = LabResult.objects.filter(pk__in=ids).select_related(*_SHOWN_WITH).order_by(*_NEWEST)
    for r in rows:
        out[r.establishment_id].append(r)
    return out


def with_citations(rows: list[LabResult]) -> list[LabResult]:
    """``rows`` with ``citations``: the (status, citation) of each one's current findings,
    the most severe first, so that every list of results shows why a status is what it is."""
    cites: dict[int, list[tuple[str, str]]] = {}
    for rid, status, citation in Finding.objects.filter(
        result_id__in=[r.pk for r in rows], current=True
    ).values_list("result_id", "status", "citation"):
        cites.setdefault(rid, []).append((status, citation))
    for r in rows:
        # for the template: not a field of the model
        r.citations = sorted(  # type: ignore[attr-defined]
            set(cites.get(r.pk, [])), key=lambda sc: (SEVERITY.get(sc[0], 99), sc[1])
        )
    return rows


def parameters_of(est: Any) -> list[str]:
    """The parameters measured at the facility in the chart window."""
    since = timezone.now() - timedelta(days=CHART_DAYS)
    return sorted(
        set(
            LabResult.objects.filter(establishment=est, sampled_at__gte=since)
            .order_by()
            .values_list("parameter", flat=True)
            .distinct()
        )
    )


def _plot_value(text: str, unit: str, canonical: str) -> float | None:
    try:
        number = Decimal(text.strip().lstrip("<").strip())
    except (InvalidOperation, ValueError):
        return None
    if unit == canonical:
        return float(number)
    try:
        return float(convert(number, unit, canonical))
    except Exception:
        return None


def limit_lines(est: Any, analyte: str, on: date) -> list[LimitLine]:
    """The ordinance's limits (under the facility's town's values) and the facility's permit
    limits for ``analyte`` on ``on``; a facility of a town whose law is its own: its permit
    limits alone (the article's are not its law)."""
    info = BY_NAME[analyte]
    town = town_of(est)
    params = params_in_force(town)
    lines = []
    for rule in RULES if keeps_article(town) else ():
        if rule.analyte != analyte:
            continue
        pv = params.get(rule.parameter, on)
        if pv.value is None:
            continue
        value = float(convert(pv.value, pv.unit, info.canonical_unit))
        lines.append(LimitLine(value, f"{pv.value} {pv.unit} {rule.bound} ({rule.citation})"))
    for lim in DischargeLimit.objects.filter(
        establishment=est, effective_from__lte=on
    ).select_related("approval"):
        if lim.effective_to and lim.effective_to < on:
            continue
        if resolve(lim.parameter).name != analyte:
            continue
        value = float(convert(Decimal(lim.value), lim.unit, info.canonical_unit))
        label = f"{lim.value} {lim.unit} {lim.get_limit_type_display().lower()} ({lim.permit_id})"
        lines.append(LimitLine(value, label))
    return lines


def chart(est: Any, analyte: str) -> str:
    """The SVG of ``analyte`` at ``est`` over the chart window (current results only)."""
    info = BY_NAME.get(analyte)
    if info is None:
        return render_chart(analyte, "", [], [])
    since = timezone.now() - timedelta(days=CHART_DAYS)
    rows = list(
        LabResult.objects.filter(establishment=est, parameter=analyte, sampled_at__gte=since)
        .exclude(state=ResultState.SUPERSEDED)
        .order_by("-sampled_at")
        .values_list("sampled_at", "value_text", "unit", "status")[:CHART_POINTS]
    )
    points = []
    for t, text, unit, status in rows:
        v = _plot_value(text, unit, info.canonical_unit)
        if v is not None:
            points.append((timezone.localtime(t), v, status))
    return render_chart(
        info.label, info.canonical_unit, points, limit_lines(est, analyte, timezone.localdate())
    )


@dataclass(frozen=True)
class SamplingDue:
    """A sampling point whose programme's next sampling falls soon (§ 196-19 D(7)): when it
    was last sampled (None: never), the day it is due, and whether that day has passed."""

    point: SamplingPoint
    last: datetime | None
    due: date
    overdue: bool


def sampling_due(user: Actor, within_days: int = 7) -> list[SamplingDue]:
    """Sampling points with a programme whose next sampling falls within ``within_days``."""
    today = timezone.localdate()
    out: list[SamplingDue] = []
    points = (
        visible(
            SamplingPoint.objects.filter(active=True, sampling_interval_days__isnull=False),
            user,
        )
        .select_related("establishment")
        .annotate(last_sampled=Max("events__collected_at"))  # one query, not one per point
    )
    for sp in points:
        last = sp.last_sampled
        due = (
            timezone.localtime(last).date() + timedelta(days=sp.sampling_interval_days or 0)
            if last
            else today
        )
        if due <= today + timedelta(days=within_days):
            out.append(SamplingDue(sp, last, due, due < today))
    return sorted(out, key=lambda d: d.due)
