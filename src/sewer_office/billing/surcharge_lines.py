"""A billing run's lines: each facility's surcharge for the period, from stored data.

Which facilities a run lists (one :class:`~sewer_office.billing.models.RunLine` each):

- every facility with a § 196-19 E(1)(d) decision of the Superintendent or a § 196-19 J
  agreement in force on some day of the period — billed for those days only, on those days'
  values (:func:`sewer_rules.billing.period_bill.bill_facility`);
- every facility of abnormal strength in the period (§ 196-15 NORMAL SEWAGE, daily average)
  without either: listed as "abnormal strength, no surcharge decision" for the Superintendent,
  never billed.

Each facility's line is computed under its town's values (normal strength, rates, the pounds
factor) and its day boundaries in its town's time zone; a facility of a town whose law is its
own is not listed (its surcharges, if any, are not Article VII's). Strength is the daily
average of the results (any sample type is read; the rule keeps composites for BOD and
suspended solids, grabs for grease or oil); the day of a result is its sampling day in its
town's time. The flow is a span's meter days (the daily volumes the readings
upload keeps), else the flow declared in the facility's latest industrial discharge approval
in force. The data are read in bulk — one query per kind of data — and
:func:`compute_lines_per_facility` is the per-facility loop the benchmark compares against
(same rule, same answers).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from sewer_engines.monitoring.daily import NOTHING, DayTotal, exact_sum
from sewer_office.accounts.towns import keeps_article
from sewer_office.meters import days
from sewer_office.meters.models import Meter, MeterDay
from sewer_office.monitoring.choices import ResultState
from sewer_office.monitoring.models import LabResult
from sewer_office.permits.models.industrial import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment
from sewer_rules.billing.authority import Basis, Span
from sewer_rules.billing.facility_surcharge import MeterFlow
from sewer_rules.billing.period_bill import NOT_LISTED, FacilityBill, bill_facility
from sewer_rules.billing.strength import POLLUTANT_ANALYTES, Result
from sewer_rules.parameters import ParameterSet

from .choices import SOURCE_CITATIONS, ChargeSource
from .rules import params
from .surcharge_basis import bases_by_facility

APPROVED = ("approved", "approved_with_conditions")
FLOW = "flow"


def _bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """Every instant that falls on a day of ``start``..``end`` in some town's time (a town's day
    lies within a day of UTC's): each result is then placed on its facility's town's day."""
    return (
        datetime.combine(start - timedelta(days=1), time.min, tzinfo=UTC),
        datetime.combine(end + timedelta(days=2), time.min, tzinfo=UTC),
    )


class _Towns:
    """Each facility's town's values and time zone, read once per town; ``None`` for a town
    whose law is its own (no Article VII surcharge is computed for its facilities)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[ParameterSet, ZoneInfo] | None] = {}

    def of(self, town: str) -> tuple[ParameterSet, ZoneInfo] | None:
        if town not in self._seen:
            values = params(town) if keeps_article(town) else None
            self._seen[town] = None if values is None else (values, ZoneInfo(values.timezone))
        return self._seen[town]


@dataclass
class Line:
    """A computed line before it is stored, with the town whose values it was computed under."""

    establishment_id: int
    person_id: int
    name: str
    result: FacilityBill
    town: str

    def computation(self) -> dict[str, Any]:
        return {
            **self.result.as_dict(),
            "citation": SOURCE_CITATIONS[ChargeSource.SURCHARGE],
            "town": self.town,
            "jurisdiction": params(self.town).version,
        }


class _Flows:
    """Meter flow per span: every meter's daily volumes of the period read once (one query, on
    the first span that needs a meter), each span's flow summed from its own days — one read
    whatever the number of distinct span dates. The sum is exact, as
    :func:`sewer_office.meters.days.period_totals` computes it."""

    def __init__(self, meters: dict[int, tuple[int, str, str]], start: date, end: date) -> None:
        self.meters = meters
        self.start, self.end = start, end
        self._days: dict[int, list[tuple[date, int, str]]] | None = None

    def _meter_days(self) -> dict[int, list[tuple[date, int, str]]]:
        if self._days is None:
            found: dict[int, list[tuple[date, int, str]]] = defaultdict(list)
            rows = MeterDay.objects.filter(
                meter_id__in=[m[0] for m in self.meters.values()],
                day__gte=self.start,
                day__lte=self.end,
            ).values_list("meter_id", "day", "count", "total")
            for meter_id, day, count, text in rows.iterator(chunk_size=10_000):
                found[meter_id].append((day, count, text))
            self._days = found
        return self._days

    def for_facility(self, est_id: int) -> Any:
        def meter_for(span: Span) -> MeterFlow | None:
            if est_id not in self.meters:
                return None
            meter_id, ident, unit = self.meters[est_id]
            mine = [
                (count, text)
                for day, count, text in self._meter_days().get(meter_id, ())
                if span.first_day <= day <= span.last_day
            ]
            flow = (
                DayTotal(sum(n for n, _ in mine), exact_sum(t for _, t in mine))
                if mine
                else NOTHING
            )
            return MeterFlow(ident, unit, flow.count, flow.total)

        return meter_for


#: A result as read: when it was sampled, the analyte, the sample type, the value and its unit.
Row = tuple[datetime, str, str, str, str]


def _results(tz: ZoneInfo, rows: list[Row], start: date, end: date) -> list[Result]:
    """The results sampled on a day of ``start``..``end`` in the time of ``tz``."""
    out = [Result(at.astimezone(tz).date(), a, k, v, u) for at, a, k, v, u in rows]
    return [r for r in out if start <= r.day <= end]


def compute_lines(start: date, end: date) -> list[Line]:
    """Every listed facility's line for ``start``..``end``, from a handful of bulk queries."""
    lo, hi = _bounds(start, end)
    results: dict[int, list[Row]] = defaultdict(list)
    rows = (
        LabResult.objects.filter(
            sampled_at__gte=lo, sampled_at__lt=hi, parameter__in=list(POLLUTANT_ANALYTES.values())
        )
        .exclude(state=ResultState.SUPERSEDED)
        .values_list(
            "establishment_id",
            "sampled_at",
            "parameter",
            "event__sample_type",
            "value_text",
            "unit",
        )
    )
    for est_id, at, parameter, kind, text, unit in rows.iterator(chunk_size=20000):
        results[est_id].append((at, parameter, kind, text, unit))

    bases = bases_by_facility(start, end)
    declared: dict[int, Decimal] = {}
    approvals = (
        IndustrialDischargeApproval.objects.filter(state__in=APPROVED, decided_on__lte=end)
        .exclude(expires_on__lt=start)
        .exclude(flow_gpd__isnull=True)
        .order_by("establishment_id", "decided_on", "id")
        .values_list("establishment_id", "flow_gpd")
    )
    for est_id, gpd in approvals:
        if gpd is not None:
            declared[est_id] = gpd  # the latest decided wins

    meters: dict[int, tuple[int, str, str]] = {}
    for meter_id, ident, unit, est_id in (
        Meter.objects.filter(parameter=FLOW)
        .order_by("sampling_point__establishment_id", "id")
        .values_list("id", "ident", "unit", "sampling_point__establishment_id")
    ):
        meters.setdefault(est_id, (meter_id, ident, unit))
    flows = _Flows(meters, start, end)

    ids = set(results) | set(bases)
    ests = Establishment.objects.filter(pk__in=ids).values_list(
        "id", "operator_id", "name", "jurisdiction"
    )
    towns = _Towns()
    lines: list[Line] = []
    for est_id, person_id, name, town in sorted(ests, key=lambda r: (r[2], r[0])):
        found = towns.of(town)
        if found is None:
            continue
        p, tz = found
        bill = bill_facility(
            start,
            end,
            p,
            results=_results(tz, results.get(est_id, []), start, end),
            bases=bases.get(est_id, []),
            meter_for=flows.for_facility(est_id),
            declared_flow_gpd=declared.get(est_id),
        )
        if bill.status != NOT_LISTED:
            lines.append(Line(est_id, person_id, name, bill, town))
    return lines


def compute_lines_per_facility(start: date, end: date) -> list[Line]:
    """The same lines by a per-facility ORM loop (the benchmark's baseline)."""
    lo, hi = _bounds(start, end)
    towns = _Towns()
    bases = bases_by_facility(start, end)
    lines: list[Line] = []
    for est in Establishment.objects.order_by("name", "id"):
        values = towns.of(est.jurisdiction)
        if values is None:
            continue
        p, tz = values
        found = LabResult.objects.filter(
            establishment=est,
            sampled_at__gte=lo,
            sampled_at__lt=hi,
            parameter__in=list(POLLUTANT_ANALYTES.values()),
        ).exclude(state=ResultState.SUPERSEDED)
        rows = _results(
            tz,
            [
                (r.sampled_at, r.parameter, r.event.sample_type, r.value_text, r.unit)
                for r in found.select_related("event")
            ],
            start,
            end,
        )
        mine: list[Basis] = bases.get(est.pk, [])
        if not rows and not mine:
            continue
        approval = (
            IndustrialDischargeApproval.objects.filter(
                establishment=est, state__in=APPROVED, decided_on__lte=end, flow_gpd__isnull=False
            )
            .exclude(expires_on__lt=start)
            .order_by("-decided_on", "-id")
            .first()
        )
        meter_obj = (
            Meter.objects.filter(sampling_point__establishment=est, parameter=FLOW)
            .order_by("id")
            .first()
        )

        def meter_for(span: Span, meter_obj: Meter | None = meter_obj) -> MeterFlow | None:
            if meter_obj is None:
                return None
            totals = days.period_totals([meter_obj.pk], span.first_day, span.last_day)
            flow = totals.get(meter_obj.pk, NOTHING)
            return MeterFlow(meter_obj.ident, meter_obj.unit, flow.count, flow.total)

        bill = bill_facility(
            start,
            end,
            p,
            results=rows,
            bases=mine,
            meter_for=meter_for,
            declared_flow_gpd=None if approval is None else approval.flow_gpd,
        )
        if bill.status != NOT_LISTED:
            lines.append(Line(est.pk, est.operator_id, est.name, bill, est.jurisdiction))
    return lines
