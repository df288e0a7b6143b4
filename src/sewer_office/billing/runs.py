"""Billing runs: every facility's surcharge for a period, computed as a draft, reviewed by the
clerk, then issued (one invoice per facility with a charge, all in one transaction) or
discarded with a reason.

Which facilities a run lists (one :class:`~sewer_office.billing.models.RunLine` each): every
establishment that has composite results of BOD, suspended solids or grease in the period, or
an industrial discharge approval in force (approved, with or without conditions) — those are
the dischargers of industrial or abnormal-strength waste § 196-19 E(1)(d) reaches. A line
states the amount, "no excess over normal strength", "cannot be computed" (no flow data, or a
pollutant never sampled) or "rate not configured"; only lines with an amount > 0 are invoiced.

The data are read in bulk — one query per kind of data (results, meters, readings, approvals),
not one per facility — and the computation is the pure rule
:func:`sewer_rules.billing.facility_surcharge.facility_surcharge`. :func:`compute_lines_per_facility`
is the per-facility ORM loop the benchmark compares against (same rule, same answers).

A run is all-or-nothing and idempotent: one run per period that is not discarded (the
database constraint ``billing_one_run_per_period``; a second is refused with a message); a
correction after issue is a credit note plus a new invoice.
"""

from __future__ import annotations

import calendar
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput, TransitionNotAllowed
from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.monitoring.choices import ResultState
from sewer_office.monitoring.models import LabResult
from sewer_office.permits.models.industrial import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment
from sewer_rules.billing.facility_surcharge import (
    ANALYTES,
    CHARGED,
    FacilitySurcharge,
    MeterFlow,
    facility_surcharge,
    mean,
)
from sewer_rules.monitoring.daily import NOTHING

from .charges import create_charge, require_biller
from .choices import SOURCE_CITATIONS, ChargeSource, RunState
from .invoices import due_date, issue_invoice
from .models import BillingRun, Charge, RunLine
from .rules import params

_PERIOD = re.compile(r"^(\d{4})(?:-(Q[1-4]|\d{2}))?$")
APPROVED = ("approved", "approved_with_conditions")
FLOW = "flow"
_ANALYTE_KEY = {v: k for k, v in ANALYTES.items()}


def parse_period(text: str) -> tuple[date, date]:
    """``2026-Q1`` (a quarter), ``2026-01`` (a month) or ``2026`` (a year): first and last day."""
    m = _PERIOD.match(text.strip())
    if not m:
        raise InvalidInput(
            {"period": [f"{text!r} is not a period: write 2026-Q1, 2026-01 or 2026."]}
        )
    year, part = int(m.group(1)), m.group(2)
    if part is None:
        return date(year, 1, 1), date(year, 12, 31)
    if part.startswith("Q"):
        q = int(part[1])
        first_month = 3 * q - 2
        last_month = first_month + 2
        return date(year, first_month, 1), date(
            year, last_month, calendar.monthrange(year, last_month)[1]
        )
    month = int(part)
    if not 1 <= month <= 12:
        raise InvalidInput({"period": [f"{text!r}: no month {month}."]})
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _bounds(start: date, end: date) -> tuple[datetime, datetime]:
    tz = ZoneInfo(settings.TIME_ZONE)
    return (
        datetime.combine(start, time.min, tzinfo=tz),
        datetime.combine(end + timedelta(days=1), time.min, tzinfo=tz),
    )


@dataclass
class Line:
    """A computed line before it is stored."""

    establishment_id: int
    person_id: int
    name: str
    result: FacilitySurcharge

    def computation(self) -> dict[str, Any]:
        return {**self.result.as_dict(), "citation": SOURCE_CITATIONS[ChargeSource.SURCHARGE]}


# --- reading the data in bulk -----------------------------------------------------------------


def compute_lines(start: date, end: date) -> list[Line]:
    """Every facility's line for ``start``..``end``, from a handful of bulk queries."""
    lo, hi = _bounds(start, end)
    values: dict[int, dict[str, list[Decimal]]] = defaultdict(lambda: defaultdict(list))
    rows = (
        LabResult.objects.filter(
            sampled_at__gte=lo,
            sampled_at__lt=hi,
            parameter__in=list(ANALYTES.values()),
            event__sample_type="composite",
        )
        .exclude(state=ResultState.SUPERSEDED)
        .values_list("establishment_id", "parameter", "value_text")
    )
    for est_id, parameter, text in rows.iterator(chunk_size=20000):
        values[est_id][_ANALYTE_KEY[parameter]].append(Decimal(text))

    declared: dict[int, Decimal] = {}
    approvals = (
        IndustrialDischargeApproval.objects.filter(state__in=APPROVED)
        .filter(decided_on__lte=end)
        .exclude(expires_on__lt=start)
        .order_by("establishment_id", "decided_on", "id")
        .values_list("establishment_id", "flow_gpd")
    )
    approved_ids: set[int] = set()
    for est_id, gpd in approvals:
        approved_ids.add(est_id)
        if gpd is not None:
            declared[est_id] = gpd  # the latest decided wins

    meters: dict[int, tuple[int, str, str]] = {}
    for meter_id, ident, unit, est_id in (
        Meter.objects.filter(parameter=FLOW)
        .order_by("sampling_point__establishment_id", "id")
        .values_list("id", "ident", "unit", "sampling_point__establishment_id")
    ):
        meters.setdefault(est_id, (meter_id, ident, unit))
    # the meters' daily volumes (kept by the readings upload), never the minute readings
    sums = days.period_totals([m[0] for m in meters.values()], start, end)

    ids = set(values) | approved_ids
    ests = Establishment.objects.filter(pk__in=ids).values_list("id", "operator_id", "name")
    p = params()
    lines: list[Line] = []
    for est_id, person_id, name in sorted(ests, key=lambda r: (r[2], r[0])):
        meter = None
        if est_id in meters:
            meter_id, ident, unit = meters[est_id]
            flow = sums.get(meter_id, NOTHING)
            meter = MeterFlow(ident, unit, flow.count, flow.total)
        lines.append(
            Line(
                est_id,
                person_id,
                name,
                _compute(start, end, p, values.get(est_id), meter, declared.get(est_id)),
            )
        )
    return lines


def _compute(
    start: date,
    end: date,
    p: Any,
    vals: dict[str, list[Decimal]] | None,
    meter: MeterFlow | None,
    declared: Decimal | None,
) -> FacilitySurcharge:
    vals = vals or {}
    return facility_surcharge(
        start,
        end,
        p,
        averages={k: mean(vals.get(k, [])) for k in ANALYTES},
        counts={k: len(vals.get(k, [])) for k in ANALYTES},
        meter=meter,
        declared_flow_gpd=declared,
    )


def compute_lines_per_facility(start: date, end: date) -> list[Line]:
    """The same lines by a per-facility ORM loop (the benchmark's baseline)."""
    lo, hi = _bounds(start, end)
    p = params()
    lines: list[Line] = []
    for est in Establishment.objects.order_by("name", "id"):
        results = LabResult.objects.filter(
            establishment=est,
            sampled_at__gte=lo,
            sampled_at__lt=hi,
            parameter__in=list(ANALYTES.values()),
            event__sample_type="composite",
        ).exclude(state=ResultState.SUPERSEDED)
        vals: dict[str, list[Decimal]] = defaultdict(list)
        for r in results:
            vals[_ANALYTE_KEY[r.parameter]].append(Decimal(r.value_text))
        approval = (
            IndustrialDischargeApproval.objects.filter(
                establishment=est, state__in=APPROVED, decided_on__lte=end
            )
            .exclude(expires_on__lt=start)
            .order_by("-decided_on", "-id")
            .first()
        )
        if not vals and approval is None:
            continue
        meter_obj = (
            Meter.objects.filter(sampling_point__establishment=est, parameter=FLOW)
            .order_by("id")
            .first()
        )
        meter = None
        if meter_obj is not None:
            flow = days.period_totals([meter_obj.pk], start, end).get(meter_obj.pk, NOTHING)
            meter = MeterFlow(meter_obj.ident, meter_obj.unit, flow.count, flow.total)
        declared = approval.flow_gpd if approval is not None else None
        lines.append(
            Line(est.pk, est.operator_id, est.name, _compute(start, end, p, vals, meter, declared))
        )
    return lines


# --- the run's life: draft, issue, discard ---------------------------------------------------


def _refuse_existing(period: str) -> None:
    existing = BillingRun.objects.exclude(state=RunState.DISCARDED).filter(period=period).first()
    if existing is not None:
        raise Blocked(
            f"A billing run for {period} already exists (run {existing.pk}, "
            f"{existing.get_state_display().lower()}): a period is billed once. Discard the "
            "draft to compute it again; after issue, correct with a credit note and a new invoice."
        )


def create_run(period: str, actor: Any) -> BillingRun:
    """Compute the draft run of ``period`` with its lines (all-or-nothing)."""
    require_biller(actor)
    start, end = parse_period(period)
    _refuse_existing(period)
    lines = compute_lines(start, end)
    total = sum(
        (ln.result.amount or Decimal(0) for ln in lines if ln.result.status == CHARGED), Decimal(0)
    )
    try:
        with transaction.atomic():
            run = BillingRun.objects.create(
                period=period,
                start=start,
                end=end,
                jurisdiction=params().version,
                total=total,
                created_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
            RunLine.objects.bulk_create(
                (
                    RunLine(
                        run=run,
                        establishment_id=ln.establishment_id,
                        person_id=ln.person_id,
                        status=ln.result.status,
                        flow_source=ln.result.flow_source,
                        amount=ln.result.amount,
                        message=ln.result.message,
                        computation=ln.computation(),
                    )
                    for ln in lines
                ),
                batch_size=500,
            )
            audit.record(
                actor=actor,
                action="billing.run_computed",
                obj=run,
                after=audit.snapshot(run),
                citation=SOURCE_CITATIONS[ChargeSource.SURCHARGE],
                state_to=RunState.DRAFT,
            )
    except IntegrityError:
        _refuse_existing(period)
        raise
    return run


def issue_run(run: BillingRun, actor: Any, issued_on: date | None = None) -> BillingRun:
    """Issue one invoice per facility with a charge > 0, all in one transaction."""
    require_biller(actor)
    day = issued_on or timezone.localdate()
    due_date(day)  # refuse before writing anything when no due date is configured
    with transaction.atomic():
        locked = BillingRun.objects.select_for_update().get(pk=run.pk)
        if locked.state != RunState.DRAFT:
            raise TransitionNotAllowed(
                f"Run {locked.period} is {locked.get_state_display().lower()}: only a draft is "
                "issued."
            )
        lines = list(
            locked.lines.filter(status=CHARGED, amount__gt=0)
            .select_related("establishment", "person")
            .order_by("establishment__name", "id")
        )
        for ln in lines:
            assert ln.amount is not None
            charge: Charge = create_charge(
                source=ChargeSource.SURCHARGE,
                source_key=f"surcharge:{ln.establishment_id}:{locked.period}",
                person=ln.person,
                amount=ln.amount,
                description=f"Extra-strength surcharge {locked.period}, {ln.establishment.name} "
                f"({ln.get_flow_source_display().lower()})",
                assessed_on=locked.start,
                parameters=_parameters(ln.computation),
                steps=_steps(ln.computation),
                actor=actor,
                establishment=ln.establishment,
                period=(locked.start, locked.end),
                extra={"line": ln.computation},
                run=locked,
            )
            issue_invoice(
                ln.person,
                [charge],
                actor,
                day,
                run=locked,
                establishment=ln.establishment,
                check_actor=False,
            )
        before = audit.snapshot(locked)
        locked.state = RunState.ISSUED
        locked.issued_by = actor if getattr(actor, "is_authenticated", False) else None
        locked.issued_at = timezone.now()
        locked.save(update_fields=["state", "issued_by", "issued_at", "updated_at"])
        audit.record(
            actor=actor,
            action="billing.run_issued",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            citation=SOURCE_CITATIONS[ChargeSource.SURCHARGE],
            state_from=RunState.DRAFT,
            state_to=RunState.ISSUED,
        )
    return locked


def discard_run(run: BillingRun, actor: Any, reason: str) -> BillingRun:
    """Discard a draft run, with the reason (the period may then be computed again)."""
    require_biller(actor)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the run is discarded."]})
    with transaction.atomic():
        locked = BillingRun.objects.select_for_update().get(pk=run.pk)
        if locked.state != RunState.DRAFT:
            raise TransitionNotAllowed(
                f"Run {locked.period} is {locked.get_state_display().lower()}: only a draft is "
                "discarded."
            )
        before = audit.snapshot(locked)
        locked.state = RunState.DISCARDED
        locked.discard_reason = reason.strip()
        locked.save(update_fields=["state", "discard_reason", "updated_at"])
        audit.record(
            actor=actor,
            action="billing.run_discarded",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            state_from=RunState.DRAFT,
            state_to=RunState.DISCARDED,
        )
    return locked


def _parameters(computation: dict[str, Any]) -> list[dict[str, Any]]:
    """The dated parameters a line's surcharge used, once each."""
    seen: dict[tuple[Any, Any], dict[str, Any]] = {}
    sc = computation.get("surcharge") or {}
    for part in sc.get("parts", []):
        seen.setdefault(
            (part["pounds_factor"]["name"], part["pounds_factor"]["effective"]),
            part["pounds_factor"],
        )
        for pol in part["pollutants"]:
            for key in ("normal", "rate"):
                pv = pol[key]
                seen.setdefault((pv["name"], pv["effective"]), pv)
    return list(seen.values())


def _steps(computation: dict[str, Any]) -> list[str]:
    """A line's computation in words: flow, averages, each part's pounds and charge."""
    steps = [f"flow: {computation.get('flow_basis', '')}"]
    avgs = computation.get("averages_mg_l", {})
    counts = computation.get("result_counts", {})
    steps.append(
        "average composite concentrations: "
        + ", ".join(f"{k} {v} mg/l ({counts.get(k, 0)} results)" for k, v in avgs.items())
    )
    sc = computation.get("surcharge") or {}
    for part in sc.get("parts", []):
        for pol in part["pollutants"]:
            steps.append(
                f"{part['first_day']}–{part['last_day']} ({part['days']} d, {part['volume_mg']} "
                f"MG): {pol['pollutant']} excess {pol['excess_mg_l']} mg/l × {part['volume_mg']} "
                f"MG × {part['pounds_factor']['value']} = {pol['pounds']} lb × USD "
                f"{pol['rate_usd_per_lb']}/lb = USD {pol['charge_usd']}"
            )
    steps.append(f"total, rounded to cents half-up once: USD {sc.get('total_usd')}")
    return steps
