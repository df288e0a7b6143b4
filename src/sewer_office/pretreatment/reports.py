"""The yearly list of industrial users in SNC (40 CFR 403.8(f)(2)(viii)) and the annual
pretreatment report (40 CFR 403.12(i)), as data, CSV and PDF (fpdf2, like the letters).

Each is built from the stored records in a handful of aggregate queries; the CSV cells that a
spreadsheet would read as a formula are escaped (``core.exports.escape``, as every list's export).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils import timezone

from sewer_office.accounts.towns import primary
from sewer_office.core import letters
from sewer_office.core.exports import escape
from sewer_office.core.letters import LetterKind
from sewer_office.monitoring.in_force import params_in_force

from .annual import AnnualReport, FacilityLine, gather, whole_gpd
from .choices import DesignationStatus
from .snc_list import ListedUser, newspaper_text, snc_list

__all__ = ["AnnualReport", "FacilityLine", "annual_report"]


def to_csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(header)
    for row in rows:
        w.writerow([escape("" if c is None else str(c)) for c in row])
    return out.getvalue().encode("utf-8-sig")


@dataclass(frozen=True)
class Year:
    """A publication's "record": the calendar year it covers (the editor previews on one), with
    the annual report already gathered when the caller has it (preparing an edition)."""

    pk: int
    report: AnnualReport | None = field(default=None, compare=False, repr=False)

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
    # the plant's yearly list: the primary town's time zone and name
    return datetime(year.pk + 1, 1, 1, tzinfo=ZoneInfo(params_in_force(primary()).timezone))


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
        "notice": newspaper_text(year.pk, listed, params_in_force(primary()).name),
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
# The figures are gathered once (:mod:`.annual`): the page, this PDF and CSV and the ICIS-NPDES
# XML (:mod:`.icis`) show the same ones.


def annual_report(year: int) -> AnnualReport:
    """The industrial user inventory of ``year`` with its changes, SIU compliance status,
    inspections and samplings done, enforcement actions and penalties (403.12(i))."""
    return gather(date(year, 1, 1), date(year, 12, 31))


ANNUAL_HEADER = (
    "facility",
    "code",
    "operator",
    "icis_permit_id",
    "siu_status",
    "designation_changes",
    "compliance_status",
    "months_in_snc",
    "average_daily_flow_gpd",
    "flow_basis",
    "process_flow_gpd",
    "reports_due",
    "reports_late_over_45_days",
    "inspections",
    "samplings_by_town",
    "samplings_by_user",
    "samplings_sampler_not_recorded",
    "self_monitoring_samples_required",
    "notices_and_orders",
    "referrals",
    "fines_accrued_subject_to_conviction",
    "fines_assessed_by_court",
    "fines_collected",
    "costs_recorded",
)


def _blank(value: object | None) -> object:
    return "" if value is None else value


def annual_rows(report: AnnualReport) -> list[list[object]]:
    return [
        [
            f.establishment.name,
            f.establishment.code,
            f.establishment.operator.name,
            f.icis_permit_id,
            f.designation or "not designated",
            "; ".join(f.designation_changes),
            f.compliance,
            ", ".join(f"{y}-{m:02d}" for y, m in f.months_in_snc(report.first, report.last)),
            _blank(whole_gpd(f.flow_gpd)),
            f.flow_basis,
            _blank(whole_gpd(f.process_flow_gpd)),
            f.reports_due,
            f.reports_late,
            f.inspections,
            f.samplings_town,
            f.samplings_user,
            f.samplings_unrecorded,
            _blank(f.self_monitoring_required),
            "; ".join(f"{k}: {n}" for k, n in sorted(f.notices.items())),
            "; ".join(f"{k}: {n}" for k, n in sorted(f.referrals.items())),
            f"{f.fines:.2f}" + (f" (+{f.fines_unstated} unstated)" if f.fines_unstated else ""),
            f"{f.penalties_assessed:.2f}",
            f"{f.penalties_collected:.2f}",
            f"{f.costs:.2f}",
        ]
        for f in report.facilities
    ]


def annual_csv(year: int) -> bytes:
    return annual_csv_of(annual_report(year))


def annual_csv_of(report: AnnualReport) -> bytes:
    return to_csv(ANNUAL_HEADER, annual_rows(report))


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
    "ICIS-NPDES identifier",
    "Status",
    "Designation changes",
    "Compliance",
    "Months in SNC",
    "Average daily flow, gpd",
    "Flow",
    "Process wastewater flow (declared), gpd",
    "Reports due",
    "Reports more than 45 days late",
    "Inspections",
    "Samplings by the Town",
    "Samplings by the user",
    "Samplings, sampler not recorded",
    "Self-monitoring samples required",
    "Notices and orders",
    "Referrals",
    "Fines accrued (subject to conviction), USD",
    "Fines assessed by the court, USD",
    "Fines collected, USD",
    "Costs recorded (§ 196-22 C), USD",
)
_STATUS = ANNUAL_HEADER.index("siu_status") - 1


def _designation_label(code: str) -> str:
    labels = dict(DesignationStatus.choices)
    return str(labels.get(code, code))


def annual_context(year: Year) -> dict[str, str]:
    report = year.report or annual_report(year.pk)
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
        status = str(rest[_STATUS])
        rest[_STATUS] = _designation_label(status) if status != "not designated" else status
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


def annual_pdf_of(report: AnnualReport) -> bytes:
    """The PDF of a report already gathered (an edition being prepared)."""
    return letters.render(ANNUAL, Year(report.year, report))
