"""The yearly list of industrial users in SNC (40 CFR 403.8(f)(2)(viii)) and the annual
pretreatment report (40 CFR 403.12(i)), as data, CSV and PDF (fpdf2, like the letters).

Each is built from the stored records in a handful of aggregate queries; the CSV cells that a
spreadsheet would read as a formula are escaped (``core.exports.escape``, as every list's export).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from sewer_office.core import letters
from sewer_office.core.exports import escape
from sewer_office.core.letters import LetterKind
from sewer_office.enforcement import services as enforcement
from sewer_office.enforcement.models import Cost, Notice, Referral, Violation
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.lab_import import params_in_force
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment

from .models import Designation, ReportDue, SNCDetermination
from .services import ListedUser, newspaper_text, snc_list


def to_csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(header)
    for row in rows:
        w.writerow([escape("" if c is None else str(c)) for c in row])
    return out.getvalue().encode("utf-8-sig")


@dataclass(frozen=True)
class Year:
    """A publication's "record": the calendar year it covers (the editor previews on one)."""

    pk: int

    def __str__(self) -> str:
        return str(self.pk)


def _years() -> list[Year]:
    """The years a publication may be previewed on, newest first: this year and the five
    before."""
    this = timezone.localdate().year
    return [Year(y) for y in range(this, this - 6, -1)]


def _published(year: Year) -> datetime:
    """The moment written into the PDF: the first day after the year (the same data make the
    same bytes, whenever printed)."""
    return datetime(year.pk + 1, 1, 1, tzinfo=ZoneInfo(params_in_force().timezone))


# --- the yearly SNC list ---------------------------------------------------------------------

SNC_HEADER = ("facility", "code", "address", "operator", "periods", "criteria", "citations")


def snc_rows(listed: Sequence[ListedUser]) -> list[list[object]]:
    return [
        [
            u.establishment.name,
            u.establishment.code,
            u.establishment.building.property.address,
            u.establishment.operator.name,
            "; ".join(u.periods),
            " ".join(u.criteria),
            "; ".join(u.citations),
        ]
        for u in listed
    ]


def snc_list_csv(year: int) -> bytes:
    return to_csv(SNC_HEADER, snc_rows(snc_list(year)))


SNC_LIST = "pretreatment.snc_list"

SNC_BODY = """\
## {{ title }}
~ {{ publication }}

{{ notice }}
"""


def snc_context(year: Year) -> dict[str, str]:
    listed = snc_list(year.pk)
    return {
        "year": str(year.pk),
        "title": f"Industrial users in significant noncompliance during {year.pk}",
        "publication": "40 CFR 403.8(f)(2)(viii): text for publication in a newspaper of "
        "general circulation in the area served by the treatment works.",
        "notice": newspaper_text(year.pk, listed, params_in_force().name),
    }


letters.register(
    LetterKind(
        key=SNC_LIST,
        name="List of industrial users in significant noncompliance (yearly publication)",
        fields={
            "year": "The calendar year covered",
            "title": "The list's title with its year",
            "publication": "Where the list is published and the rule that requires it",
            "notice": "The public notice: the rule, then each user with its criteria and "
            "citations (several lines)",
        },
        required=("title", "notice"),
        default_body=SNC_BODY,
        context=snc_context,
        records=_years,
        title=lambda y: f"SNC list {y.pk}",
        filename=lambda y: f"snc-list-{y.pk}.pdf",
        created=_published,
    )
)


def snc_list_pdf(year: int) -> bytes:
    """The yearly list, a publication (rendered as the templates stand, not kept)."""
    return letters.render(SNC_LIST, Year(year))


# --- the annual pretreatment report (403.12(i)) -----------------------------------------------


@dataclass
class FacilityLine:
    establishment: Establishment
    designation: str = ""
    designation_changes: list[str] = field(default_factory=list)
    snc: list[str] = field(default_factory=list)
    reports_due: int = 0
    reports_late: int = 0
    inspections: int = 0
    samplings: int = 0
    notices: Counter[str] = field(default_factory=Counter)
    referrals: Counter[str] = field(default_factory=Counter)
    fines: Decimal = Decimal("0")
    fines_unstated: int = 0
    costs: Decimal = Decimal("0")

    @property
    def compliance(self) -> str:
        if self.snc:
            return "significant noncompliance (" + "; ".join(self.snc) + ")"
        return "no significant noncompliance determined"


@dataclass
class AnnualReport:
    year: int
    facilities: list[FacilityLine]
    added: list[str]

    @property
    def totals(self) -> dict[str, object]:
        fs = self.facilities
        return {
            "industrial users": len(fs),
            "significant industrial users": sum(f.designation == "siu" for f in fs),
            "in significant noncompliance": sum(bool(f.snc) for f in fs),
            "inspections": sum(f.inspections for f in fs),
            "samplings": sum(f.samplings for f in fs),
            "notices and orders": sum(sum(f.notices.values()) for f in fs),
            "referrals": sum(sum(f.referrals.values()) for f in fs),
            "fines accrued (subject to conviction)": sum((f.fines for f in fs), Decimal("0")),
            "costs recorded (§ 196-22 C)": sum((f.costs for f in fs), Decimal("0")),
        }


def annual_report(year: int) -> AnnualReport:
    """The industrial user inventory of ``year`` with its changes, SIU compliance status,
    inspections and samplings done, enforcement actions and penalties (403.12(i))."""
    first, last = date(year, 1, 1), date(year, 12, 31)
    tz = ZoneInfo(params_in_force().timezone)
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
    # designation in force at year's end, and the changes during the year
    for d in Designation.objects.filter(establishment_id__in=ids, decided_on__lte=last).order_by(
        "decided_on", "id"
    ):
        line = lines[d.establishment_id]
        line.designation = d.status
        if d.decided_on >= first:
            line.designation_changes.append(
                f"{d.decided_on}: {d.get_status_display()} ({d.citation})"
            )
    for snc in SNCDetermination.objects.filter(
        establishment_id__in=ids,
        superseded_by__isnull=True,
        snc=True,
        period_start__lte=last,
        period_end__gte=first,
    ).order_by("period_start"):
        lines[snc.establishment_id].snc.append(f"{snc.period_label} " + ", ".join(snc.criteria))
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
    for est, n in (
        SamplingEvent.objects.filter(
            establishment_id__in=ids, collected_at__gte=start, collected_at__lt=end
        )
        .values("establishment_id")
        .annotate(n=Count("id"))
        .values_list("establishment_id", "n")
    ):
        lines[est].samplings = n
    for est, label, n in (
        Notice.objects.filter(
            violation__establishment_id__in=ids, issued_on__gte=first, issued_on__lte=last
        )
        .values("violation__establishment_id", "response_label")
        .annotate(n=Count("id"))
        .values_list("violation__establishment_id", "response_label", "n")
    ):
        lines[est].notices[label] += n
    for est, kind, n in (
        Referral.objects.filter(
            violation__establishment_id__in=ids, referred_on__gte=first, referred_on__lte=last
        )
        .values("violation__establishment_id", "kind")
        .annotate(n=Count("id"))
        .values_list("violation__establishment_id", "kind", "n")
    ):
        lines[est].referrals[kind] += n
    for est, total in (
        Cost.objects.filter(
            violation__establishment_id__in=ids, incurred_on__gte=first, incurred_on__lte=last
        )
        .values("violation__establishment_id")
        .annotate(t=Sum("amount"))
        .values_list("violation__establishment_id", "t")
    ):
        lines[est].costs = total or Decimal("0")
    for v in Violation.objects.filter(
        establishment_id__in=ids, notices__served_on__lte=last
    ).distinct():
        f = enforcement.fines(v, last)
        if v.establishment_id is None:
            continue
        if f.total is not None:
            lines[v.establishment_id].fines += f.total
        elif f.computation is not None and f.computation.days > 0:
            lines[v.establishment_id].fines_unstated += 1
    added = [
        f"{e.name} (first designated {d})"
        for e, d in (
            (lines[est].establishment, day)
            for est, day in _first_designations(ids).items()
            if first <= day <= last
        )
    ]
    return AnnualReport(year, list(lines.values()), added)


def _late_filter(last: date) -> Any:
    return Q(received_on__isnull=True, due_on__lt=last - timedelta(days=45)) | Q(
        received_on__gt=F("due_on") + timedelta(days=45)
    )


def _first_designations(ids: list[int]) -> dict[int, date]:
    out: dict[int, date] = {}
    for est, day in (
        Designation.objects.filter(establishment_id__in=ids, status="siu")
        .order_by("decided_on")
        .values_list("establishment_id", "decided_on")
    ):
        out.setdefault(est, day)
    return out


ANNUAL_HEADER = (
    "facility",
    "code",
    "operator",
    "siu_status",
    "designation_changes",
    "compliance_status",
    "reports_due",
    "reports_late_over_45_days",
    "inspections",
    "samplings",
    "notices_and_orders",
    "referrals",
    "fines_accrued_subject_to_conviction",
    "costs_recorded",
)


def annual_rows(report: AnnualReport) -> list[list[object]]:
    return [
        [
            f.establishment.name,
            f.establishment.code,
            f.establishment.operator.name,
            f.designation or "not designated",
            "; ".join(f.designation_changes),
            f.compliance,
            f.reports_due,
            f.reports_late,
            f.inspections,
            f.samplings,
            "; ".join(f"{k}: {n}" for k, n in sorted(f.notices.items())),
            "; ".join(f"{k}: {n}" for k, n in sorted(f.referrals.items())),
            f"{f.fines:.2f}" + (f" (+{f.fines_unstated} unstated)" if f.fines_unstated else ""),
            f"{f.costs:.2f}",
        ]
        for f in report.facilities
    ]


def annual_csv(year: int) -> bytes:
    return to_csv(ANNUAL_HEADER, annual_rows(annual_report(year)))


ANNUAL = "pretreatment.annual_report"

ANNUAL_BODY = """\
## {{ title }}

# Summary
{{ summary }}

# Changes in the industrial user inventory
{{ inventory_changes }}

# Industrial users
{{ users }}
"""

#: The annual report's columns as a reader names them (the CSV keeps its machine headers).
ANNUAL_LABELS = (
    "Code",
    "Operator",
    "Status",
    "Designation changes",
    "Compliance",
    "Reports due",
    "Reports more than 45 days late",
    "Inspections",
    "Samplings",
    "Notices and orders",
    "Referrals",
    "Fines accrued (subject to conviction), USD",
    "Costs recorded (§ 196-22 C), USD",
)


def _designation_label(code: str) -> str:
    from .choices import DesignationStatus

    labels = dict(DesignationStatus.choices)
    return str(labels.get(code, code))


def annual_context(year: Year) -> dict[str, str]:
    report = annual_report(year.pk)
    summary = [
        f"| {k[:1].upper() + k[1:]} | " + (f"{v:,.2f}" if isinstance(v, Decimal) else str(v))
        for k, v in report.totals.items()
    ]
    changes = [
        f"{f.establishment.name}: {c}" for f in report.facilities for c in f.designation_changes
    ]
    users: list[str] = []
    for row in annual_rows(report):
        head, *rest = row
        rest[2] = _designation_label(str(rest[2])) if rest[2] != "not designated" else rest[2]
        users.append(str(head))
        users.append(
            "~ "
            + "; ".join(f"{h}: {v}" for h, v in zip(ANNUAL_LABELS, rest, strict=True) if v != "")
        )
    return {
        "year": str(year.pk),
        "title": f"Annual pretreatment report {year.pk} (40 CFR 403.12(i))",
        "summary": letters.lines(*summary),
        "inventory_changes": letters.lines(*report.added, *changes) or "No user newly designated.",
        "users": letters.lines(*users) or "No industrial user.",
    }


letters.register(
    LetterKind(
        key=ANNUAL,
        name="Annual pretreatment report (yearly publication)",
        fields={
            "year": "The calendar year covered",
            "title": "The report's title with its year and rule (40 CFR 403.12(i))",
            "summary": "The year's totals (table rows)",
            "inventory_changes": "Users newly designated and designation changes (lines)",
            "users": "Each industrial user with its status, compliance, inspections, samplings, "
            "enforcement and penalties (lines)",
        },
        required=("title", "summary", "inventory_changes", "users"),
        default_body=ANNUAL_BODY,
        context=annual_context,
        records=_years,
        title=lambda y: f"Annual pretreatment report {y.pk}",
        filename=lambda y: f"pretreatment-{y.pk}.pdf",
        created=_published,
    )
)


def annual_pdf(year: int) -> bytes:
    """The annual report, a publication (rendered as the templates stand, not kept)."""
    return letters.render(ANNUAL, Year(year))
