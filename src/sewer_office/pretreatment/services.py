"""Services of the pretreatment program: SIU designations, required reports, SNC in the office.

Every service checks who may act, validates, and writes its records and their audit events in
one transaction. Significant noncompliance is never decided here: the stored results, limits
and report due dates are read in bulk (a few queries, whatever the number of facilities),
handed to :func:`sewer_rules.federal.snc_columnar.determine_table` (the columnar counts, equal
to :func:`~sewer_rules.federal.snc_determination.determine` that the command line uses on files,
``tests/test_snc_columnar.py``), and its answer is stored per facility (:class:`~.models.SNCDetermination`); a facility
in SNC gets one violation in the enforcement app per period (kind ``significant_noncompliance``
of the response guide). Only a significant industrial user can be in SNC under (A), (B), (E),
(F), (G), day by day of its designations; any industrial user under (C), (D), (H)
(:mod:`.snc_scope`): the evidence outside that scope is set aside before the rules count, and
the determination says what did not count and why.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

import polars as pl
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role, is_staff_member
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.enforcement import services as enforcement
from sewer_office.enforcement.schedules import missed_milestones
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import record_finding
from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.monitoring.lab_import import params_in_force, permit_limits
from sewer_office.monitoring.models import DischargeLimit, LabResult
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment
from sewer_rules.citations import CitationError, read_cited
from sewer_rules.evaluation.engine import RULES
from sewer_rules.evaluation.prepare import prepare
from sewer_rules.federal import cfr403_siu, snc_inputs
from sewer_rules.federal.snc_columnar import determine_table
from sewer_rules.federal.snc_determination import (
    Determination,
    PeriodError,
    Report,
    SNCReport,
    Window,
    criterion,
    parse_period,
    six_month_windows,
)
from sewer_rules.federal.snc_scope import ANY_USER, Scope, split_reports, split_rows
from sewer_rules.findings import Status
from sewer_rules.monitoring.daily import DayTotal
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.units import convert

from . import baseline
from . import snc_scope as scoping
from .choices import BASIS_CITATIONS, REPORT_CITATIONS, DesignationBasis, DesignationStatus
from .models import Designation, ReportDue, ReportRequirement, SNCDetermination
from .status import awaiting_review, with_status

#: ``criterion`` is also the name of :func:`record_staff_criterion`'s parameter (the brief's).
_criterion_citation = criterion

#: The Control Authority's decisions (designation, report requirements, SNC runs).
DECIDERS = frozenset({SUPERINTENDENT, ENGINEER})
#: Who records that a report was received.
RECEIVERS = frozenset({SUPERINTENDENT, ENGINEER, CLERK})
SNC_KIND = "significant_noncompliance"
#: Section of the article a facility's SNC violates when no limit's authority is at hand:
#: the numeric limits and reports are conditions of its industrial discharge approval.
APPROVAL_SECTION = "§ 196-16 E"
FLOW_DAYS = 365
DUE_HORIZON_DAYS = 400


def may_decide(user: Any) -> bool:
    return has_role(user, *DECIDERS)


def is_staff(user: Any) -> bool:
    return is_staff_member(user)


def may_receive(user: Any) -> bool:
    return has_role(user, *RECEIVERS)


def _require(actor: Any, roles: frozenset[str], what: str, citation: str) -> None:
    if not has_role(actor, *roles):
        names = " and ".join(sorted(r.replace("_", " ") for r in roles))
        raise Forbidden(f"{what}: reserved to the {names} ({citation}).")


def _today(at: datetime | None = None) -> date:
    return timezone.localdate(at) if at is not None else timezone.localdate()


# --- SIU designation (40 CFR 403.3(v)) -------------------------------------------------------


def current_designation(establishment: Establishment) -> Designation | None:
    return (
        Designation.objects.filter(establishment=establishment, superseded_by__isnull=True)
        .order_by("-id")
        .first()
    )


def current_designations() -> QuerySet[Designation]:
    return Designation.objects.filter(superseded_by__isnull=True).select_related(
        "establishment__operator", "establishment__building__property"
    )


def _latest_approval(establishment: Establishment) -> IndustrialDischargeApproval | None:
    return (
        IndustrialDischargeApproval.objects.filter(establishment=establishment)
        .order_by("-id")
        .first()
    )


def mean_gpd(flow: DayTotal, unit: str) -> Decimal:
    """The mean of a flow meter's readings (their exact sum over their count), in gpd to the
    cent: the flow the designation and the annual report both state."""
    exact = Fraction(convert(Fraction(flow.total) / flow.count, unit, "gpd"))
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal("0.01"))


def process_flow(establishment: Establishment, on: date) -> tuple[Decimal | None, str]:
    """Average flow in gpd: the stored flow-meter readings of the year before ``on`` (their
    mean, exactly, in gpd), else the flow declared in the latest industrial approval."""
    first = on - timedelta(days=FLOW_DAYS - 1)
    for meter in Meter.objects.filter(
        sampling_point__establishment=establishment, parameter="flow"
    ).order_by("ident"):
        # the meter's daily volumes (kept by the readings upload), not its minute readings
        flow = days.period_totals([meter.pk], first, on).get(meter.pk)
        if flow is not None and flow.count:
            return (
                mean_gpd(flow, meter.unit),
                f"mean of {flow.count} readings of meter {meter.ident}, {first:%Y-%m-%d}..{on}",
            )
    approval = _latest_approval(establishment)
    if approval is not None and approval.flow_gpd is not None:
        return Decimal(approval.flow_gpd), f"declared in {approval}"
    return None, ""


def evaluate_siu(establishment: Establishment, on: date) -> cfr403_siu.SIUEvaluation:
    approval = _latest_approval(establishment)
    flow, source = process_flow(establishment, on)
    return cfr403_siu.evaluate(
        params_in_force(),
        on,
        categorical_category=approval.categorical_category if approval else "",
        flow_gpd=flow,
        flow_source=source,
    )


def _record_designation(
    actor: Any,
    establishment: Establishment,
    status: str,
    basis: str,
    ev: cfr403_siu.SIUEvaluation,
    reason: str,
    at: datetime | None,
) -> Designation:
    with transaction.atomic():
        previous = (
            # of=self: the reverse one-to-one is an outer join, which PostgreSQL cannot lock
            Designation.objects.select_for_update(of=("self",))
            .filter(establishment=establishment, superseded_by__isnull=True)
            .first()
        )
        citation = BASIS_CITATIONS[basis]
        d = Designation.objects.create(
            establishment=establishment,
            status=status,
            basis=basis,
            citation=citation,
            evaluation=ev.as_dict(),
            categorical_category=next(
                (c.text for c in ev.criteria if c.code == "categorical" and c.met), ""
            ),
            flow_gpd=ev.flow_gpd,
            flow_source=ev.flow_source[:120],
            reason=reason.strip(),
            decided_on=ev.on,
            decided_by=actor,
            decided_at=at or timezone.now(),
            supersedes=previous,
        )
        audit.record(
            actor=actor,
            action=f"siu_{basis}",
            obj=d,
            before=audit.snapshot(previous) if previous else None,
            after=audit.snapshot(d),
            reason=reason.strip(),
            citation=citation,
            state_from=previous.status if previous else "",
            state_to=status,
            at=at,
        )
    return d


def designate(
    actor: Any,
    establishment: Establishment,
    *,
    basis: str = DesignationBasis.EVALUATED,
    reason: str = "",
    on: date | None = None,
    at: datetime | None = None,
) -> Designation:
    """Record whether ``establishment`` is an SIU: evaluated on 403.3(v)(1), designated by the
    Control Authority with a reason, or found not significant under 403.3(v)(2) with the
    finding. A new designation supersedes the one in force (never edited)."""
    _require(actor, DECIDERS, "Designating significant industrial users", "40 CFR 403.3(v)")
    day = on or _today(at)
    if day > _today(at):
        raise InvalidInput({"on": ["A designation cannot be dated in the future."]})
    try:
        ev = evaluate_siu(establishment, day)
    except ParameterError as e:
        raise Blocked(str(e)) from None
    if basis == DesignationBasis.EVALUATED:
        status = DesignationStatus.SIU if ev.significant else DesignationStatus.NOT_SIU
    elif basis == DesignationBasis.DESIGNATED:
        if not reason.strip():
            raise InvalidInput(
                {"reason": ["State the reasonable potential for adverse effect (403.3(v)(1)(ii))."]}
            )
        status = DesignationStatus.SIU
    elif basis == DesignationBasis.DE_DESIGNATED:
        if not reason.strip():
            raise InvalidInput(
                {"reason": ["State the finding of no reasonable potential (403.3(v)(2))."]}
            )
        if any(c.code == "categorical" and c.met for c in ev.criteria):
            raise Blocked(
                "A categorical industrial user stays significant: 40 CFR 403.3(v)(2) lets the "
                "Control Authority set aside only the flow and capacity tests of (v)(1)(ii)."
            )
        status = DesignationStatus.NOT_SIU
    else:
        raise InvalidInput({"basis": [f"unknown basis {basis!r}"]})
    return _record_designation(actor, establishment, status, basis, ev, reason, at)


# --- required reports (40 CFR 403.12) ---------------------------------------------------------


def _add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months (the 31st becomes the month's last day)."""
    year, month0 = divmod(day.year * 12 + day.month - 1 + months, 12)
    nxt = date(year + (month0 == 11), (month0 + 1) % 12 + 1, 1)
    return date(year, month0 + 1, min(day.day, (nxt - timedelta(days=1)).day))


def due_dates(req: ReportRequirement, through: date) -> list[date]:
    """The requirement's due dates up to ``through`` (and its end)."""
    last = min(through, req.ends_on) if req.ends_on else through
    if req.every_months == 0:
        return [req.first_due] if req.first_due <= last else []
    out: list[date] = []
    k = 0
    while True:
        d = _add_months(req.first_due, k * req.every_months)
        if d > last:
            return out
        out.append(d)
        k += 1


def _write_dues(reqs: Iterable[ReportRequirement], through: date) -> int:
    reqs = list(reqs)
    have = set(
        ReportDue.objects.filter(requirement__in=reqs).values_list("requirement_id", "due_on")
    )
    new = [
        ReportDue(requirement=r, establishment_id=r.establishment_id, kind=r.kind, due_on=d)
        for r in reqs
        for d in due_dates(r, through)
        if (r.pk, d) not in have
    ]
    ReportDue.objects.bulk_create(new, batch_size=1000)
    return len(new)


def add_requirement(
    actor: Any,
    establishment: Establishment,
    *,
    kind: str,
    first_due: date,
    every_months: int = 6,
    ends_on: date | None = None,
    at: datetime | None = None,
) -> ReportRequirement:
    """A report the SIU must send (403.12(b), (d), (e), (h)); its due dates are generated."""
    _require(actor, DECIDERS, "Setting required reports", "40 CFR 403.12")
    errors: dict[str, list[str]] = {}
    if kind not in REPORT_CITATIONS:
        errors["kind"] = [
            f"'{kind}' is not a kind of report (known: {', '.join(REPORT_CITATIONS)})"
        ]
    if every_months not in (0, 1, 3, 6, 12):
        errors["every_months"] = ["Every 0 (once), 1, 3, 6 or 12 months."]
    if ends_on is not None and ends_on < first_due:
        errors["ends_on"] = ["The requirement cannot end before its first due date."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        req = audit.create_recorded(
            ReportRequirement,
            {
                "establishment": establishment,
                "kind": kind,
                "every_months": every_months,
                "first_due": first_due,
                "ends_on": ends_on,
                "created_by": actor,
                "created_at": at or timezone.now(),
            },
            actor=actor,
            action="require_report",
            citation=REPORT_CITATIONS[kind],
            at=at,
        )
        _write_dues([req], _today(at) + timedelta(days=DUE_HORIZON_DAYS))
    return req


def extend_due_dates(day: date) -> int:
    """Due dates of every requirement up to ``day`` + the horizon (run daily)."""
    reqs = ReportRequirement.objects.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
    return _write_dues(reqs, day + timedelta(days=DUE_HORIZON_DAYS))


def record_received(
    actor: Any,
    due: ReportDue,
    received_on: date,
    note: str = "",
    at: datetime | None = None,
    checklist: baseline.Filing | None = None,
) -> ReportDue:
    """The day a required report was received (recorded once); a baseline report's with its
    checklist of 40 CFR 403.12(b), and its finding if incomplete (:mod:`.baseline`)."""
    _require(actor, RECEIVERS, "Recording a received report", "40 CFR 403.12")
    if received_on > _today(at):
        raise InvalidInput({"received_on": ["A report cannot be received in the future."]})
    entries = baseline.read(due, checklist)
    with files_of_transaction(), transaction.atomic():
        locked = ReportDue.objects.select_for_update().get(pk=due.pk)
        if locked.received_on is not None:
            raise Blocked(f"This report was already recorded as received on {locked.received_on}.")
        before = audit.snapshot(locked)
        locked.received_on, locked.received_by, locked.received_note = received_on, actor, note
        locked.save()
        audit.record(
            actor=actor,
            action="report_received",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            citation=locked.citation,
            state_from="due",
            state_to="received",
            at=at,
        )
        if checklist is not None:
            baseline.write_checklist(actor, locked, entries, checklist, received_on, at)
    return locked


def late_dues(day: date, limit_days: int = 0) -> QuerySet[ReportDue]:
    """Reports not received more than ``limit_days`` after their due date, as of ``day``;
    a report signed and waiting for the office's review is submitted, not late."""
    late = ReportDue.objects.filter(
        received_on__isnull=True, due_on__lt=day - timedelta(days=limit_days)
    )
    return late.exclude(pk__in=awaiting_review(late).values("pk")).select_related("establishment")


def flag_late_reports(day: date) -> int:
    """A REPORT_LATE finding for each required report not received by its due date, as of
    ``day`` (once per due date: the finding's source is the due date). Run daily by
    ``sewer-use flag-overdue``; 45 days after the due date the report is also SNC (F)."""
    extend_due_dates(day)
    late = list(late_dues(day))
    if not late:
        return 0
    ct = ContentType.objects.get_for_model(ReportDue)
    done = set(
        Finding.objects.filter(
            kind=FindingKind.REPORT_LATE,
            source_type=ct,
            source_id__in=[str(d.pk) for d in late],
        ).values_list("source_id", flat=True)
    )
    count = 0
    with transaction.atomic():
        for due in late:
            if str(due.pk) in done:
                continue
            record_finding(
                source=due,
                establishment=due.establishment,
                kind=FindingKind.REPORT_LATE,
                status=Status.REVIEW,
                citation=due.citation,
                message=(
                    f"{due.get_kind_display()} ({due.citation}) due {due.due_on:%Y-%m-%d} not "
                    f"received on {day:%Y-%m-%d}; more than 45 days after its due date it is "
                    "significant noncompliance, 40 CFR 403.8(f)(2)(viii)(F)."
                ),
                observed_at=timezone.make_aware(
                    datetime.combine(due.due_on + timedelta(days=1), time())
                ),
            )
            count += 1
    return count


# --- significant noncompliance in the office --------------------------------------------------


@dataclass
class SNCRun:
    """What one computation stored: the period, the determinations, the violations opened."""

    period: Window
    rolling: bool
    determinations: list[SNCDetermination] = field(default_factory=list)
    violations_opened: int = 0
    measurements: int = 0

    @property
    def in_snc(self) -> list[SNCDetermination]:
        return [d for d in self.determinations if d.snc]


def _facility_key(est_id: int, code: str) -> str:
    return code or f"EST-{est_id}"


def read_period(text: str, rolling: bool | None, params: ParameterSet) -> tuple[Window, bool]:
    try:
        period = parse_period(text)
        chosen = (
            bool(params.value("snc.rolling_window", period.end)) if rolling is None else rolling
        )
        six_month_windows(period, chosen)
    except (PeriodError, ParameterError) as e:
        raise InvalidInput({"period": [str(e)]}) from None
    return period, chosen


def _signed_day(due: ReportDue) -> date | None:
    """The town's day a report awaiting review was signed (:func:`.status.with_status`)."""
    signed = getattr(due, "pending_signed_at", None)
    return timezone.localdate(signed) if signed is not None else None


def snc_inputs_for(
    period: Window, rolling: bool, establishment_ids: Sequence[int] | None, params: ParameterSet
) -> tuple[dict[str, int], list[Any], pl.DataFrame, list[Report], dict[int, int]]:
    """Facilities, limits, measurements and reports of ``period``, read in bulk.

    Returns the facility key → establishment id map, the limits and the prepared result rows
    of the rules (:func:`~sewer_rules.federal.snc_columnar.determine_table` counts them),
    the reports (F), and the map from a measurement's row to its stored result id.
    """
    windows = six_month_windows(period, rolling)
    first, last = windows[0].start, windows[-1].end
    limit_qs = DischargeLimit.objects.filter(effective_from__lte=last).filter(
        Q(effective_to__isnull=True) | Q(effective_to__gte=first)
    )
    due_qs = ReportDue.objects.filter(due_on__gte=period.start, due_on__lte=period.end)
    if establishment_ids is not None:
        limit_qs = limit_qs.filter(establishment_id__in=establishment_ids)
        due_qs = due_qs.filter(establishment_id__in=establishment_ids)
    ids = sorted(
        set(limit_qs.values_list("establishment_id", flat=True))
        | set(due_qs.values_list("establishment_id", flat=True))
    )
    codes = dict(Establishment.objects.filter(pk__in=ids).values_list("id", "code"))
    keys = {_facility_key(i, codes.get(i, "")): i for i in ids}
    table = permit_limits(ids)
    limits = snc_inputs.limits(table) if table is not None else []
    measurements = pl.DataFrame()
    row_ids: dict[int, int] = {}
    if limits:
        tz = ZoneInfo(params.timezone)
        analytes = sorted({lim.analyte for lim in limits})
        qs = LabResult.objects.filter(
            establishment_id__in=sorted({keys[lim.facility] for lim in limits}),
            parameter__in=analytes,
            sampled_at__gte=datetime.combine(first, time(), tzinfo=tz),
            sampled_at__lt=datetime.combine(last + timedelta(days=1), time(), tzinfo=tz),
        ).exclude(state="superseded")
        raw = results_table(qs, {i: _facility_key(i, codes.get(i, "")) for i in ids})
        if raw.height:
            names = sorted({r.parameter for r in RULES})
            prepared = prepare(raw, params.timezone, params.breakpoints(names)[0])
            if prepared.errors.height:
                bad = [
                    f"result #{raw.get_column('id')[row - 2]}: {fld}: {msg}"
                    for row, fld, msg in prepared.errors.head(10).iter_rows()
                ]
                raise Blocked("Stored results the rules cannot read:\n" + "\n".join(bad))
            measurements = prepared.rows
            row_ids = dict(zip(raw.get_column("row"), raw.get_column("id"), strict=True))
    labels = dict(REPORT_CITATIONS)
    # A report signed and waiting for the office's review was submitted on the day it was
    # signed (the day an acceptance records as received): not late for SNC unless rejected.
    reports = [
        Report(
            _facility_key(d.establishment_id, codes.get(d.establishment_id, "")),
            f"{d.kind} #{d.pk}",
            d.due_on,
            d.received_on or _signed_day(d),
        )
        for d in with_status(due_qs)
        if d.kind in labels
    ]
    return keys, limits, measurements, reports, row_ids


RESULT_COLUMNS = (
    ("id", "id"),
    ("establishment_id", "establishment"),
    ("event__sample_id", "sample_id"),
    ("sampled_at", "sampled_at"),
    ("event__sample_type", "sample_type"),
    ("parameter", "parameter"),
    ("value_text", "value"),
    ("unit", "unit"),
    ("qualifier", "qualifier"),
    ("reporting_limit", "reporting_limit"),
)


def results_table(qs: QuerySet[LabResult], keys: dict[int, str]) -> pl.DataFrame:
    """Stored results as the text table the engine reads (as ``stored_table``), fetched with
    one query straight from the database cursor: no model objects, no per-value conversion
    (SQLite returns UTC times as text, PostgreSQL as aware datetimes; both become ISO text)."""
    sql, sql_params = (
        qs.values_list(*(f for f, _ in RESULT_COLUMNS)).order_by("id").query.sql_with_params()
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, sql_params)
        rows = cursor.fetchall()
    names = [n for _, n in RESULT_COLUMNS]
    frame = pl.DataFrame(rows, schema=names, orient="row", infer_schema_length=None)
    if frame.height == 0:
        return frame
    when = pl.col("sampled_at")
    if frame.schema["sampled_at"] == pl.String:
        when = when + "+00:00"
    else:
        when = when.dt.convert_time_zone("UTC").dt.strftime("%Y-%m-%dT%H:%M:%S%.f%z")
    return frame.with_columns(
        when.alias("sampled_at"),
        pl.col("establishment").replace_strict(keys, return_dtype=pl.String).alias("facility"),
        pl.col(pl.String).cast(pl.String),
        pl.int_range(2, frame.height + 2, dtype=pl.Int64).alias("row"),
    ).drop("establishment")


def _series(
    d: Determination,
    row_ids: dict[int, int],
    siu_days: list[list[str]] | None = None,
    scope_note: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One limit series of the rules' determination as stored: the fields of its ``as_dict``
    with the deciding window's measurements named by stored result (``[result ids, exceeds,
    at or above TRC]``; the values are those of the results, which are never edited), the
    days the user was an SIU over the windows (``siu_days``: what the count was limited to)
    and, when results of the parameter were set aside, why (``scope``)."""
    w = d.deciding
    lim = d.limit
    evaluated = ["A"] if d.trc is None else ["A", "B"]
    extra: dict[str, Any] = {} if siu_days is None else {"siu_days": siu_days}
    if scope_note is not None:
        extra["scope"] = scope_note
    return {
        "parameter": lim.analyte,
        "limit_type": lim.limit_type,
        "limit": str(lim.value),
        "unit": lim.unit,
        "limit_as_written": lim.text or None,
        "limit_authority": lim.citation or None,
        "trc": None if d.trc is None else str(d.trc),
        "window": w.window.as_dict(),
        "measurements": w.measurements,
        "exceeding": w.exceeding,
        "trc_exceeding": w.trc_exceeding,
        "snc": d.snc,
        "criteria": d.criteria,
        "citations": [str(criterion(c)) for c in (d.criteria or evaluated)],
        "windows": [x.as_dict() for x in d.windows],
        "counted": [
            [[row_ids.get(r, r) for r in c.measurement.rows], c.exceeds, c.at_or_above_trc]
            for c in w.counted
        ],
        **extra,
    }


def milestone_criteria(
    establishment_ids: Sequence[int], period: Window
) -> dict[int, list[dict[str, str]]]:
    """Criterion (E) per facility: compliance-schedule milestones missed by more than 90 days
    in the period (:func:`sewer_office.enforcement.schedules.missed_milestones`, one query for
    every facility)."""
    wanted = set(establishment_ids)
    out: dict[int, list[dict[str, str]]] = defaultdict(list)
    for m in missed_milestones(None, period.start, period.end):
        est = m.schedule.establishment_id
        if est in wanted:
            out[est].append(
                {
                    "criterion": "E",
                    "citation": str(criterion("E")),
                    "on": m.due_on.isoformat(),
                    "text": (
                        f"{m.schedule.number}: milestone “{m.description}” due {m.due_on} "
                        + (f"completed {m.completed_on}" if m.completed_on else "not completed")
                        + ", more than 90 days late"
                    ),
                }
            )
    return out


#: The provision a late report breaks (the approval's reporting condition), and a milestone
#: missed by more than 90 days (the order imposing the compliance schedule).
_REPORT_DUTY = "40 CFR 403.12"
_SCHEDULE_DUTY = "40 CFR 403.8(f)(1)(iv)"


def _snc_grounds(det: SNCDetermination) -> list[str]:
    """The provisions broken that put the facility in significant noncompliance, in order
    and once each: the authority of each limit exceeded (criteria A, B; the approval's
    condition or the article's limit), the reporting duty of a report late (F), the order of a
    milestone missed (E). A limit whose authority is not a citation is left out here (its text
    stays in the finding's message)."""
    grounds: list[str] = []
    for d in det.determinations:
        if d["snc"] and d.get("limit_authority"):
            try:
                grounds.append(str(read_cited(str(d["limit_authority"]))[0]))
            except CitationError:
                continue
    if any(r["snc"] for r in det.reports):
        grounds.append(_REPORT_DUTY)
    if any(s["criterion"] == "E" for s in scoping.applying(det.staff_criteria)):
        grounds.append(_SCHEDULE_DUTY)
    return list(dict.fromkeys(grounds))


def _open_snc_violation(actor: Any, det: SNCDetermination, at: datetime | None) -> Any:
    """The SNC finding of ``det`` and the violation opened from it (the guide's kind
    ``significant_noncompliance``), citing 40 CFR 403.8(f)(2)(viii) and the first provision
    broken; the finding's message names every provision broken."""
    letters = ", ".join(f"({c})" for c in det.criteria)
    counted = [
        f"{d['parameter']} {d['limit_type']} {d['limit']} {d['unit']}: {d['exceeding']} of "
        f"{d['measurements']} exceeding"
        + (f", {d['trc_exceeding']} at or above TRC" if d["trc_exceeding"] is not None else "")
        for d in det.determinations
        if d["snc"]
    ]
    late = [
        f"{r['report']} due {r['due']}: {r['days_late']} days late" for r in det.reports if r["snc"]
    ]
    late += [f"({s['criterion']}) {s['text']}" for s in scoping.applying(det.staff_criteria)]
    grounds = _snc_grounds(det)
    finding = record_finding(
        source=det,
        establishment=det.establishment,
        kind=FindingKind.SNC,
        status=Status.PROHIBITED,
        citation="; ".join(["40 CFR 403.8(f)(2)(viii)", *grounds[:1]]),
        message=(
            f"Significant noncompliance {det.period_start}..{det.period_end}: 40 CFR "
            f"403.8(f)(2)(viii) {letters}. "
            + "; ".join(counted + late)
            + (f". Provisions broken: {', '.join(grounds)}." if grounds else "")
        ),
        observed_at=min(
            timezone.make_aware(datetime.combine(det.period_end, time(23, 59))),
            at or timezone.now(),
        ),
        parameters_version=det.parameters_version,
    )
    return enforcement.open_from_finding(actor, finding, at=at)


def _open_violation_once(
    actor: Any, det: SNCDetermination, violation_id: int | None, at: datetime | None
) -> bool:
    """Link ``det`` to the violation of its facility × period, opening it when ``det`` is in
    SNC and none was opened yet (one violation per facility and period). True when opened."""
    if not det.snc or violation_id is not None:
        return False
    det.violation = _open_snc_violation(actor, det, at)
    det.save(update_fields=["violation"])
    return True


#: The criteria of 40 CFR 403.8(f)(2)(viii) the Control Authority determines and staff record
#: (the rules cannot compute them from stored results; (E) comes from compliance schedules).
STAFF_CRITERIA: dict[str, str] = {
    "C": "caused, alone or with other discharges, interference or pass through, including "
    "endangering the health of POTW personnel or the general public",
    "D": "caused imminent endangerment to the public or the environment, or resulted in the "
    "exercise of the Control Authority's emergency authority",
    "G": "failure to accurately report noncompliance",
    "H": "any other violation that will adversely affect the operation or implementation of "
    "the local pretreatment program",
}


def _carried_staff_criteria(prev: SNCDetermination | None) -> list[dict[str, str]]:
    """The staff criteria (C), (D), (G), (H) of the determination a re-computation supersedes
    ((E) is read again from the compliance schedules)."""
    if prev is None:
        return []
    return [s for s in prev.staff_criteria if s.get("criterion") in STAFF_CRITERIA]


def record_staff_criterion(
    determination: SNCDetermination,
    criterion: str,
    facts: str,
    on: date | None,
    actor: Any,
    *,
    at: datetime | None = None,
) -> SNCDetermination:
    """Record that the facility of ``determination`` met criterion (C), (D), (G) or (H) of
    40 CFR 403.8(f)(2)(viii) on ``on`` (a day of the period), as the Control Authority found
    from ``facts``. A new determination supersedes the one in force (never edited), in SNC,
    with the criterion, its citation and the facts; the facility's violation of the period is
    opened if it was not in SNC before."""
    _require(
        actor, DECIDERS, "Recording a criterion of significant noncompliance",
        "40 CFR 403.8(f)(2)(viii)",
    )  # fmt: skip
    letter = (criterion or "").strip().upper()
    text = (facts or "").strip()
    errors: dict[str, list[str]] = {}
    if letter not in STAFF_CRITERIA:
        errors["criterion"] = [
            f"'{criterion}' is not a criterion recorded by staff (known: "
            f"{', '.join(STAFF_CRITERIA)} of 40 CFR 403.8(f)(2)(viii))."
        ]
    if not text:
        errors["facts"] = ["State the facts the Control Authority's determination rests on."]
    if on is None:
        errors["on"] = ["The day of the violation is required."]
    elif not determination.period_start <= on <= determination.period_end:
        errors["on"] = [
            f"{on} is outside the period {determination.period_start}..{determination.period_end}."
        ]
    elif on > _today(at):
        errors["on"] = ["The day cannot be in the future."]
    if errors:
        raise InvalidInput(errors)
    assert on is not None
    if letter not in ANY_USER:  # (G): "a Significant Industrial User ... is in SNC if"
        history = scoping.history_of(determination.establishment_id)
        if not history.was_siu(on):
            raise InvalidInput(
                {
                    "criterion": [
                        f"Criterion ({letter}) applies to significant industrial users only "
                        f"(40 CFR 403.8(f)(2)(viii)); {determination.establishment.name} was "
                        f"not one on {on}: {history.why_not(on)}. (C), (D) and (H) apply to "
                        "any industrial user."
                    ]
                }
            )
    citation = str(_criterion_citation(letter))
    with transaction.atomic():
        prev = (
            SNCDetermination.objects.select_for_update()
            .select_related("establishment")
            .get(pk=determination.pk)
        )
        if SNCDetermination.objects.filter(supersedes=prev).exists():
            raise Blocked(
                f"Determination #{prev.pk} has been superseded: record the criterion on the "
                "one in force."
            )
        letters = sorted({*prev.criteria, letter})
        staff = [
            *prev.staff_criteria,
            {
                "criterion": letter,
                "citation": citation,
                "text": text,
                "on": on.isoformat(),
                "by": getattr(actor, "username", ""),
            },
        ]
        violation_id = prev.violation_id or (
            SNCDetermination.objects.filter(
                establishment_id=prev.establishment_id,
                period_start=prev.period_start,
                period_end=prev.period_end,
                violation__isnull=False,
            )
            .values_list("violation_id", flat=True)
            .first()
        )
        det = SNCDetermination.objects.create(
            establishment=prev.establishment,
            period_start=prev.period_start,
            period_end=prev.period_end,
            rolling=prev.rolling,
            snc=True,
            criteria=letters,
            citations=[str(_criterion_citation(c)) for c in letters],
            determinations=prev.determinations,
            reports=prev.reports,
            staff_criteria=staff,
            measurements=prev.measurements,
            parameters_version=prev.parameters_version,
            violation_id=violation_id,
            computed_by=actor,
            computed_at=at or timezone.now(),
            supersedes=prev,
        )
        _open_violation_once(actor, det, violation_id, at)
        audit.record(
            actor=actor,
            action="record_snc_criterion",
            obj=det,
            before={"id": prev.pk, "criteria": prev.criteria, "snc": prev.snc},
            after={"criteria": letters, "snc": True, "violation": det.violation_id},
            reason=text,
            citation=citation,
            state_from="snc" if prev.snc else "compliant",
            state_to="snc",
            at=at,
        )
    return det


def compute_snc(
    actor: Any,
    period_text: str,
    *,
    rolling: bool | None = None,
    establishment_ids: Sequence[int] | None = None,
    as_of: date | None = None,
    at: datetime | None = None,
) -> SNCRun:
    """Determine SNC for every facility with limits or report due dates in the period (or those
    named), store one :class:`SNCDetermination` per facility (superseding the previous one of
    the same period) and open one violation per facility × period in SNC.

    (A), (B), (E), (F), (G) count only what happened on a day the user was an SIU by its
    designations; the rest is set aside, and each determination says what and why
    (:mod:`.snc_scope`). A user never designated is judged under (C), (D), (H) only."""
    _require(actor, DECIDERS, "Determining significant noncompliance", "40 CFR 403.8(f)(2)(viii)")
    params = params_in_force()
    period, chosen = read_period(period_text, rolling, params)
    keys, limits, measurements, reports, row_ids = snc_inputs_for(
        period, chosen, establishment_ids, params
    )
    # 403.8(f)(2)(viii)'s scope: (A), (B), (F) judged on the days each user was an SIU only
    scope = scoping.scope_of(keys)
    counted, set_aside = split_rows(measurements, scope)
    judged, unjudged = split_reports(reports, scope)
    judged_on = as_of or min(_today(at), period.end)
    try:
        result: SNCReport = determine_table(
            counted,
            limits,
            period,
            params,
            rolling=chosen,
            reports=judged,
            as_of=judged_on,
        )
        late_days = int(params.value("snc.report_late_days", period.end))
    except (PeriodError, ParameterError) as e:
        raise Blocked(str(e)) from None
    per = _per_facility(result, scope, set_aside, row_ids)
    for r in unjudged:
        per[r.facility]["reports"].append(scoping.set_aside_report(r, judged_on, late_days, scope))
    for entry in per.values():  # judged and set aside, by due date as the rules order them
        entry["reports"].sort(key=lambda r: (r["due"], r["report"]))
    run = SNCRun(period, chosen, measurements=measurements.height)
    milestones = milestone_criteria(list(keys.values()), period)
    estabs = Establishment.objects.in_bulk(list(keys.values()))
    version = f"{params.jurisdiction}"
    with transaction.atomic():
        previous = {
            p.establishment_id: p
            for p in SNCDetermination.objects.select_for_update(of=("self",)).filter(
                establishment_id__in=list(keys.values()),
                period_start=period.start,
                period_end=period.end,
                rolling=chosen,
                superseded_by__isnull=True,
            )
        }
        linked = dict(
            SNCDetermination.objects.filter(
                establishment_id__in=list(keys.values()),
                period_start=period.start,
                period_end=period.end,
                violation__isnull=False,
            ).values_list("establishment_id", "violation_id")
        )
        for key, est_id in sorted(keys.items()):
            entry = per.get(key, {"determinations": [], "reports": [], "measurements": 0})
            prev = previous.get(est_id)
            staff = scoping.judge_staff(
                key, milestones.get(est_id, []) + _carried_staff_criteria(prev), scope
            )
            letters = sorted(
                {c for d in entry["determinations"] for c in d["criteria"]}
                | {c for r in entry["reports"] for c in r["criteria"]}
                | {s["criterion"] for s in scoping.applying(staff)}
            )
            snc = bool(letters)
            violation_id = linked.get(est_id)
            det = SNCDetermination.objects.create(
                establishment_id=est_id,
                period_start=period.start,
                period_end=period.end,
                rolling=chosen,
                snc=snc,
                criteria=letters,
                citations=[str(criterion(c)) for c in letters],
                determinations=entry["determinations"],
                reports=entry["reports"],
                staff_criteria=staff,
                measurements=entry["measurements"],
                parameters_version=version,
                violation_id=violation_id,
                computed_by=actor,
                computed_at=at or timezone.now(),
                supersedes=prev,
            )
            det.establishment = estabs[est_id]
            if _open_violation_once(actor, det, violation_id, at):
                violation_id = det.violation_id
                run.violations_opened += 1
            audit.record(
                actor=actor,
                action="determine_snc",
                obj=det,
                before=None if prev is None else {"id": prev.pk, "criteria": prev.criteria},
                after={"criteria": letters, "snc": snc, "violation": violation_id},
                citation="40 CFR 403.8(f)(2)(viii)",
                state_from="" if prev is None else ("snc" if prev.snc else "compliant"),
                state_to="snc" if snc else "compliant",
                at=at,
            )
            run.determinations.append(det)
    return run


def _per_facility(
    result: SNCReport, scope: Scope, set_aside: pl.DataFrame, row_ids: dict[int, int]
) -> defaultdict[str, dict[str, Any]]:
    """The rules' determinations and reports by facility as stored, each limit series with
    the days its user was an SIU and what of its parameter's results was set aside."""
    per: defaultdict[str, dict[str, Any]] = defaultdict(
        lambda: {"determinations": [], "reports": [], "measurements": 0}
    )
    left: dict[tuple[str, str], list[date]] = defaultdict(list)
    if set_aside.height:
        for facility, analyte, day in set_aside.select("facility", "analyte", "day").iter_rows():
            left[(facility or "", analyte)].append(day)
    windows = six_month_windows(result.period, result.rolling)
    first, last = windows[0].start, windows[-1].end  # the days the series were counted over
    for d in result.determinations:
        lim, entry = d.limit, per[d.limit.facility]
        spans = scoping.siu_days(scope.of(lim.facility), first, last)
        note = scoping.series_scope(
            lim.facility, left.get((lim.facility, lim.analyte), []), lim.valid_from,
            lim.valid_to, scope,
        )  # fmt: skip
        entry["determinations"].append(_series(d, row_ids, spans, note))
        entry["measurements"] += sum(w.measurements for w in d.windows)
    for r in result.reports:
        per[r.report.facility]["reports"].append(r.as_dict())
    return per


def visible_determinations(user: Any) -> QuerySet[SNCDetermination]:
    return visible(
        SNCDetermination.objects.filter(superseded_by__isnull=True).select_related(
            "establishment__operator", "establishment__building__property", "violation"
        ),
        user,
    )


# --- the yearly list (40 CFR 403.8(f)(2)(viii)) -----------------------------------------------


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
    in_scope = scoping.criteria_in_scope(found, params_in_force()) if found else {}
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
