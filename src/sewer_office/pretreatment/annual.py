"""The figures of the annual pretreatment report (40 CFR 403.12(i)), gathered once for a period.

One gathering feeds every form of the report: the page, the PDF and the CSV
(:mod:`.reports`) and the ICIS-NPDES XML sent to EPA (:mod:`.icis`), so they cannot disagree.
Each figure is read from the stored records in a handful of aggregate queries over every user
at once (never one query per user):

- the inventory: every industrial establishment, and every establishment ever designated;
- designation at the period's end and its changes in the period; significant noncompliance
  from the determinations in force whose period overlaps the report's (criteria, periods,
  the parameters of the limit series in SNC, the staff's facts of (C) and (D));
- required reports due in the period and those more than 45 days late;
- inspections completed in the period; samples collected in it, by who took them (the Town,
  the user, not recorded);
- enforcement: notices and orders in force issued in the period (a notice superseded to
  correct it counts once, as its correction) and referrals made in it, by response of the
  guide; fines accrued (subject to conviction); the Town's costs; the fines the court
  assessed (judgments in the period) and the money collected on them (in the period);
- the control mechanism: the industrial approval in force in the period (else the latest
  approved before its end), its ICIS-NPDES identifier, its declared process flow, the
  self-monitoring samples its requirements called for in the period;
- the average daily flow: the mean of the first flow meter (by its identifier) with readings
  in the period, else the flow declared in the approval, with the basis said.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Count, F, Q, Sum

from sewer_office.accounts.towns import primary
from sewer_office.enforcement import liability
from sewer_office.enforcement.choices import RESPONSE_REFERRALS
from sewer_office.enforcement.models import Collection, Cost, Judgment, Notice, Referral, Violation
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.choices import Sampler
from sewer_office.monitoring.in_force import params_in_force
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment
from sewer_rules.icis_report import listing_months

from .annual_mechanisms import flows, mechanisms
from .models import Designation, ReportDue, SNCDetermination
from .snc_scope import criteria_in_scope, histories

#: The response of the guide each kind of referral is, for a referral recorded without one.
REFERRAL_RESPONSES = {kind: code for code, kind in RESPONSE_REFERRALS.items()}
ZERO = Decimal("0.00")


def whole_gpd(flow: Decimal | None) -> int | None:
    """A flow in whole gallons per day, rounded half up: ICIS-NPDES takes whole numbers, and
    the PDF and CSV show the same figure."""
    return None if flow is None else int(flow.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass
class FacilityLine:
    establishment: Establishment
    designation: str = ""
    designation_changes: list[str] = field(default_factory=list)
    #: The stretches of the period on which the user was a significant industrial user.
    siu_spans: list[tuple[date, date]] = field(default_factory=list)
    #: Whether a determination of SNC in force covers part of the period (in SNC or not).
    snc_determined: bool = False
    snc: list[str] = field(default_factory=list)
    snc_criteria: set[str] = field(default_factory=set)
    snc_spans: list[tuple[date, date]] = field(default_factory=list)
    #: Analytes of the limit series in SNC (criteria A, B).
    snc_parameters: set[str] = field(default_factory=set)
    #: The staff's facts of criteria (C) and (D).
    snc_facts: list[str] = field(default_factory=list)
    reports_due: int = 0
    reports_late: int = 0
    inspections: int = 0
    samplings_town: int = 0
    samplings_user: int = 0
    samplings_unrecorded: int = 0
    notices: Counter[str] = field(default_factory=Counter)
    referrals: Counter[str] = field(default_factory=Counter)
    #: Notices, orders and referrals by response code of the guide (the ICIS action types).
    actions: Counter[str] = field(default_factory=Counter)
    fines: Decimal = Decimal("0")
    fines_unstated: int = 0
    costs: Decimal = Decimal("0")
    penalties_assessed: Decimal = ZERO
    penalties_collected: Decimal = ZERO
    flow_gpd: Decimal | None = None
    flow_basis: str = ""
    process_flow_gpd: Decimal | None = None
    approval: IndustrialDischargeApproval | None = None
    icis_permit_id: str = ""
    self_monitoring_required: int | None = None

    @property
    def siu_in_period(self) -> bool:
        """Whether the user was an SIU on a day of the period: the users EPA's report lists."""
        return bool(self.siu_spans)

    @property
    def samplings(self) -> int:
        return self.samplings_town + self.samplings_user + self.samplings_unrecorded

    @property
    def compliance(self) -> str:
        if self.snc:
            return "significant noncompliance (" + "; ".join(self.snc) + ")"
        return "no significant noncompliance determined"

    def months_in_snc(self, first: date, last: date) -> tuple[tuple[int, int], ...]:
        return listing_months(self.snc_spans, first, last)


@dataclass
class AnnualReport:
    first: date
    last: date
    facilities: list[FacilityLine]
    added: list[str]

    @property
    def year(self) -> int:
        return self.first.year

    @property
    def label(self) -> str:
        whole = (self.first, self.last) == (date(self.year, 1, 1), date(self.year, 12, 31))
        return str(self.year) if whole else f"{self.first}..{self.last}"

    @property
    def totals(self) -> dict[str, object]:
        fs = self.facilities
        return {
            "industrial users": len(fs),
            "significant industrial users": sum(f.designation == "siu" for f in fs),
            "in significant noncompliance": sum(bool(f.snc) for f in fs),
            "inspections": sum(f.inspections for f in fs),
            "samplings": sum(f.samplings for f in fs),
            "samplings by the Town": sum(f.samplings_town for f in fs),
            "samplings by the users": sum(f.samplings_user for f in fs),
            "notices and orders": sum(sum(f.notices.values()) for f in fs),
            "referrals": sum(sum(f.referrals.values()) for f in fs),
            "fines accrued (subject to conviction)": sum((f.fines for f in fs), Decimal("0")),
            "fines assessed by the court": sum((f.penalties_assessed for f in fs), ZERO),
            "fines collected": sum((f.penalties_collected for f in fs), ZERO),
            "costs recorded (§ 196-22 C)": sum((f.costs for f in fs), Decimal("0")),
        }


def gather(first: date, last: date) -> AnnualReport:
    """The report of ``first``..``last`` (inclusive): the inventory and every figure."""
    # the plant's annual report covers every member town: the primary town's time zone
    tz = ZoneInfo(params_in_force(primary()).timezone)
    start = datetime.combine(first, time(), tzinfo=tz)
    end = datetime.combine(last + timedelta(days=1), time(), tzinfo=tz)
    designated = set(
        Designation.objects.filter(decided_on__lte=last).values_list("establishment_id", flat=True)
    )
    users = Establishment.objects.filter(
        Q(kind=EstablishmentKind.INDUSTRIAL) | Q(pk__in=designated)
    )
    lines = {
        e.pk: FacilityLine(e)
        for e in users.select_related("operator", "building__property").order_by("name")
    }
    ids = list(lines)
    _designations(lines, ids, first, last)
    _snc(lines, ids, first, last)
    _activity(lines, ids, first, last, start, end)
    _enforcement(lines, ids, first, last)
    mechanisms(lines, ids, first, last)
    flows(lines, ids, first, last)
    added = [
        f"{lines[est].establishment.name} (first designated {day})"
        for est, day in _first_designations(ids).items()
        if first <= day <= last
    ]
    return AnnualReport(first, last, list(lines.values()), added)


def _designations(lines: dict[int, FacilityLine], ids: list[int], first: date, last: date) -> None:
    """The designation in force at the period's end, the changes during it, and the days of
    the period the user was an SIU (its history as :mod:`.snc_scope` reads it)."""
    for est, history in histories(ids).items():
        lines[est].siu_spans = history.siu_spans(first, last)
    for d in Designation.objects.filter(establishment_id__in=ids, decided_on__lte=last).order_by(
        "decided_on", "id"
    ):
        line = lines[d.establishment_id]
        line.designation = d.status
        if d.decided_on >= first:
            line.designation_changes.append(
                f"{d.decided_on}: {d.get_status_display()} ({d.citation})"
            )


def _snc(lines: dict[int, FacilityLine], ids: list[int], first: date, last: date) -> None:
    """The determinations in force whose period overlaps the report's: that the user was
    determined at all, and those in SNC."""
    found = list(
        SNCDetermination.objects.filter(
            establishment_id__in=ids,
            superseded_by__isnull=True,
            period_start__lte=last,
            period_end__gte=first,
        ).order_by("period_start", "id")
    )
    # the criteria that hold within 403.8(f)(2)(viii)'s scope, as the designations now stand:
    # the same reading as the yearly list (snc_list.snc_list)
    in_scope = criteria_in_scope([d for d in found if d.snc], params_in_force(primary()))
    for snc in found:
        line = lines[snc.establishment_id]
        line.snc_determined = True
        letters = in_scope.get(snc.pk, [])
        if not letters:
            continue
        line.snc.append(f"{snc.period_label} " + ", ".join(letters))
        line.snc_criteria.update(letters)
        line.snc_spans.append((snc.period_start, snc.period_end))
        line.snc_parameters.update(
            str(s["parameter"]) for s in snc.determinations if s.get("snc") and s.get("parameter")
        )
        line.snc_facts += [
            f"({s['criterion']}) {s.get('on', '')}: {s.get('text', '')}"
            for s in snc.staff_criteria
            if s.get("criterion") in ("C", "D") and s.get("applies", True)
        ]


def _activity(
    lines: dict[int, FacilityLine],
    ids: list[int],
    first: date,
    last: date,
    start: datetime,
    end: datetime,
) -> None:
    """Reports due and late, inspections completed, samples collected by who took them."""
    for est, n, late in (
        ReportDue.objects.filter(establishment_id__in=ids, due_on__gte=first, due_on__lte=last)
        .values("establishment_id")
        .annotate(n=Count("id"), late=Count("id", filter=_late_filter(last)))
        .values_list("establishment_id", "n", "late")
    ):
        lines[est].reports_due, lines[est].reports_late = n, late
    for est, n in (
        Inspection.objects.filter(
            establishment_id__in=ids,
            state="completed",
            completed_at__gte=start,
            completed_at__lt=end,
        )
        .values("establishment_id")
        .annotate(n=Count("id"))
        .values_list("establishment_id", "n")
    ):
        lines[est].inspections = n
    for est, sampler, n in (
        SamplingEvent.objects.filter(
            establishment_id__in=ids, collected_at__gte=start, collected_at__lt=end
        )
        .values("establishment_id", "sampler")
        .annotate(n=Count("id"))
        .values_list("establishment_id", "sampler", "n")
    ):
        line = lines[est]
        if sampler == Sampler.CONTROL_AUTHORITY:
            line.samplings_town += n
        elif sampler == Sampler.INDUSTRIAL_USER:
            line.samplings_user += n
        else:
            line.samplings_unrecorded += n


def _late_filter(last: date) -> Any:
    return Q(received_on__isnull=True, due_on__lt=last - timedelta(days=45)) | Q(
        received_on__gt=F("due_on") + timedelta(days=45)
    )


def _totals(
    model: Any, facility: str, day: str, amount: str, ids: list[int], first: date, last: date
) -> dict[int, Decimal]:
    """The sum of ``amount`` of ``model``'s rows dated in ``first``..``last``, per facility
    (``facility`` is the path to its establishment), in one query."""
    return {
        est: Decimal(total or 0)
        for est, total in model.objects.filter(
            **{f"{facility}__in": ids, f"{day}__gte": first, f"{day}__lte": last}
        )
        .values(facility)
        .annotate(t=Sum(amount))
        .values_list(facility, "t")
    }


def _enforcement(lines: dict[int, FacilityLine], ids: list[int], first: date, last: date) -> None:
    """Notices, referrals, costs, fines accrued, and the court's fines assessed and collected."""
    for est, label, code, n in (
        Notice.objects.filter(
            violation__establishment_id__in=ids,
            issued_on__gte=first,
            issued_on__lte=last,
            superseded_by__isnull=True,
        )
        .values("violation__establishment_id", "response_label", "response")
        .annotate(n=Count("id"))
        .values_list("violation__establishment_id", "response_label", "response", "n")
    ):
        lines[est].notices[label] += n
        lines[est].actions[code] += n
    for est, kind, code, n in (
        Referral.objects.filter(
            violation__establishment_id__in=ids, referred_on__gte=first, referred_on__lte=last
        )
        .values("violation__establishment_id", "kind", "response")
        .annotate(n=Count("id"))
        .values_list("violation__establishment_id", "kind", "response", "n")
    ):
        lines[est].referrals[kind] += n
        lines[est].actions[code or REFERRAL_RESPONSES.get(kind, kind)] += n
    costs = _totals(Cost, "violation__establishment_id", "incurred_on", "amount", ids, first, last)
    assessed = _totals(
        Judgment, "violation__establishment_id", "judgment_on", "fine_amount", ids, first, last
    )
    collected = _totals(
        Collection, "judgment__violation__establishment_id", "collected_on", "amount", ids,
        first, last,
    )  # fmt: skip
    for est, total in costs.items():
        lines[est].costs = total
    for est, total in assessed.items():
        lines[est].penalties_assessed = total.quantize(ZERO)
    for est, total in collected.items():
        lines[est].penalties_collected = total.quantize(ZERO)
    # what each fine reads, fetched for every violation at once (no query per violation)
    counted = Violation.objects.filter(
        establishment_id__in=ids, notices__served_on__lte=last
    ).distinct()
    for v, read in liability.with_records(counted):
        f = liability.fines(v, last, read)
        if v.establishment_id is None:
            continue
        if f.total is not None:
            lines[v.establishment_id].fines += f.total
        elif f.computation is not None and f.computation.days > 0:
            lines[v.establishment_id].fines_unstated += 1


def _first_designations(ids: list[int]) -> dict[int, date]:
    out: dict[int, date] = {}
    for est, day in (
        Designation.objects.filter(establishment_id__in=ids, status="siu")
        .order_by("decided_on")
        .values_list("establishment_id", "decided_on")
    ):
        out.setdefault(est, day)
    return out
