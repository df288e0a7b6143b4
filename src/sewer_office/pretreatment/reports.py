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
from fpdf import FPDF

from sewer_office.core.exports import escape
from sewer_office.enforcement import services as enforcement
from sewer_office.enforcement.models import Cost, Notice, Referral, Violation
from sewer_office.inspections.models import Inspection
from sewer_office.inspections.report import _latin
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


def _pdf(title: str, blocks: Sequence[tuple[str, str]]) -> bytes:
    pdf = FPDF(format="Letter")
    pdf.set_creation_date(datetime(2000, 1, 1, tzinfo=ZoneInfo("UTC")))
    pdf.set_title(_latin(title))
    pdf.add_page()
    pdf.set_margins(20, 18, 20)
    width = pdf.w - pdf.l_margin - pdf.r_margin
    styles = {"title": ("B", 13), "heading": ("B", 11), "text": ("", 10), "small": ("", 8.5)}
    for style, text in blocks:
        if style == "gap":
            pdf.ln(4)
            continue
        font, size = styles[style]
        pdf.set_font("Helvetica", font, size)
        pdf.multi_cell(width, 5, _latin(text), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
    return bytes(pdf.output())


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


def snc_list_pdf(year: int) -> bytes:
    listed = snc_list(year)
    town = params_in_force().name
    blocks: list[tuple[str, str]] = [
        ("title", town),
        ("heading", f"Industrial users in significant noncompliance during {year}"),
        (
            "small",
            "40 CFR 403.8(f)(2)(viii): text for publication in a newspaper of general "
            "circulation in the area served by the treatment works.",
        ),
        ("gap", ""),
    ]
    blocks += [("text", line) for line in newspaper_text(year, listed, town).split("\n")]
    return _pdf(f"SNC list {year}", blocks)


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


def annual_pdf(year: int) -> bytes:
    report = annual_report(year)
    town = params_in_force().name
    blocks: list[tuple[str, str]] = [
        ("title", town),
        ("heading", f"Annual pretreatment report {year} (40 CFR 403.12(i))"),
        ("gap", ""),
        ("heading", "Summary"),
    ]
    blocks += [("text", f"{k}: {v}") for k, v in report.totals.items()]
    blocks += [("gap", ""), ("heading", "Changes in the industrial user inventory")]
    blocks += [("text", a) for a in report.added] or [("text", "No user newly designated.")]
    changes = [
        f"{f.establishment.name}: {c}" for f in report.facilities for c in f.designation_changes
    ]
    blocks += [("text", c) for c in changes]
    blocks += [("gap", ""), ("heading", "Industrial users")]
    for row in annual_rows(report):
        head, *rest = row
        blocks.append(("text", str(head)))
        blocks.append(
            (
                "small",
                "; ".join(
                    f"{h}: {v}" for h, v in zip(ANNUAL_HEADER[1:], rest, strict=True) if v != ""
                ),
            )
        )
    return _pdf(f"Annual pretreatment report {year}", blocks)
