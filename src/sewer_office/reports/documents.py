"""A report's document: its data as canonical JSON, and the PDF typeset from that data alone.

The data (:func:`report_data`) are the facility's stored results of the reporting period (every
result not superseded, exactly as reported) and its flow (the flow meter's daily volumes, else
the flow declared in its approval, saying which), with the requirement, its citation and the
certification statement. :func:`canonical` writes them with sorted keys and no spaces, so
the same data are the same bytes; the PDF (:func:`report_pdf`) has a fixed creation date (the
report's own) and no random identifier, so it too is the same bytes for the same data. The
two SHA-256 and their digest are what a signature binds.
"""

from __future__ import annotations

import calendar
import hashlib
import json
from datetime import date, datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import letter_pdf, letters
from sewer_office.core.letter_versions import current_template
from sewer_office.core.letters import LetterKind, lines, long_date
from sewer_office.core.models import IssuedDocument
from sewer_office.core.statuses import status_label
from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.monitoring.choices import ResultState
from sewer_office.monitoring.models import LabResult
from sewer_office.pretreatment.choices import ReportKind
from sewer_office.pretreatment.models import ReportDue

from . import baseline
from .choices import CERTIFICATION, CERTIFICATION_CITATION
from .models import Report
from .report_data import FlowData, ReportData, stored


def _month_end(d: date) -> date:
    return d.replace(day=calendar.monthrange(d.year, d.month)[1])


def _months_back(d: date, months: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 - months, 12)
    return date(y, m + 1, 1)


def period_of(due: ReportDue) -> tuple[date, date]:
    """The reporting period: the months of the requirement's frequency ending with the month
    before the due date (six months for a report every six months; a year for a one-time
    baseline or 90-day report)."""
    end = _month_end(due.due_on.replace(day=1) - timedelta(days=1))
    months = due.requirement.every_months or 12
    return _months_back(end, months - 1), end


def _flow(due: ReportDue, start: date, end: date) -> FlowData:
    meters = Meter.objects.filter(
        sampling_point__establishment=due.establishment, parameter="flow"
    ).order_by("ident")
    for meter in meters:
        total = days.period_totals([meter.pk], start, end).get(meter.pk)
        if total is not None and total.count:
            return {
                "source": f"flow meter {meter.ident}",
                "readings": total.count,
                "sum": str(total.total),
                "unit": meter.unit,
            }
    approval = due.establishment.discharge_approvals.exclude(flow_gpd=None).order_by("-id").first()
    if approval is not None:
        return {"source": f"declared in {approval}", "flow_gpd": str(approval.flow_gpd)}
    return {"source": "none: no meter readings and no declared flow"}


def report_data(due: ReportDue) -> ReportData:
    """Everything the report states, as JSON-ready values (decimals as their exact texts)."""
    start, end = period_of(due)
    est = due.establishment
    results = (
        LabResult.objects.filter(
            establishment=est,
            sampled_at__date__gte=start,
            sampled_at__date__lte=end,
        )
        .exclude(state=ResultState.SUPERSEDED)
        .select_related("event__sampling_point")
        .order_by("sampled_at", "parameter", "id")
    )
    data: ReportData = {
        "facility": {"id": est.pk, "name": est.name, "code": est.code},
        "report": {
            "kind": due.kind,
            "label": due.get_kind_display(),
            "citation": due.requirement.citation,
            "due_on": due.due_on.isoformat(),
            "period_start": start.isoformat(),
            "period_end": end.isoformat(),
        },
        "results": [
            {
                "sample_id": r.event.sample_id,
                "point": r.event.sampling_point.code if r.event.sampling_point else "",
                "sample_type": r.event.sample_type,  # grab or composite (403.12(b)(5))
                "sampled_at": r.sampled_at.isoformat(),
                "parameter": r.parameter,
                "value": r.value_text,
                "qualifier": r.qualifier,
                "unit": r.unit,
                "status": r.status,
            }
            for r in results
        ],
        "flow": _flow(due, start, end),
        "certification": {"citation": CERTIFICATION_CITATION, "text": CERTIFICATION},
        "attachments": baseline.attachments_data(due),
    }
    if due.kind == ReportKind.BASELINE:
        data["baseline"] = baseline.section(due)
    return data


def canonical(data: ReportData) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


COPY = "reports.copy"

COPY_BODY = """\
## {{ title }}
# {{ facility }}
{{ period }}

# Flow
{{ flow }}

# {{ results_heading }}
{{ results }}

# Certification ({{ certification_citation }})
{{ certification }}
"""

FIELDS = {
    "title": "The report's kind and the rule that requires it",
    "facility": "The facility's name and code",
    "period": "The reporting period and the due date",
    "flow": "The flow of the period and where it comes from",
    "results_heading": '"Results" with their number',
    "results": "Each result as stored: time, point, sample, parameter, value, unit, status "
    "(small lines)",
    "certification_citation": "The rule of the certification (40 CFR 403.6(a)(2)(ii))",
    "certification": "The certification statement the signatory signs",
}
REQUIRED = (
    "title",
    "facility",
    "period",
    "flow",
    "results",
    "certification_citation",
    "certification",
)


def _day(iso: str) -> str:
    return long_date(date.fromisoformat(iso))


def copy_context(data: ReportData) -> dict[str, str]:
    """The merge values of a report's data (and nothing else: the same data, the same words)."""
    rep, fac = data["report"], data["facility"]
    flow = data["flow"]
    if "sum" in flow:
        flow_text = (
            f"{flow['readings']} readings, sum {flow['sum']} {flow['unit']} ({flow['source']})"
        )
    elif "flow_gpd" in flow:
        flow_text = f"{flow['flow_gpd']} gallons per day ({flow['source']})"
    else:
        flow_text = str(flow["source"])
    results = []
    for r in data["results"]:
        qualifier = f"{r['qualifier']} " if r["qualifier"] else ""
        moment = datetime.fromisoformat(r["sampled_at"])
        results.append(
            f"~ {long_date(moment)} {timezone.localtime(moment):%H:%M}  {r['point']}  "
            f"{r['sample_id']}  {r['parameter']}  {qualifier}{r['value']} {r['unit']}  "
            f"({status_label(str(r['status'])).lower()})"
        )
    return {
        "title": f"{rep['label']} ({rep['citation']})",
        "facility": f"{fac['name']}{' (' + fac['code'] + ')' if fac['code'] else ''}",
        "period": f"Reporting period {_day(rep['period_start'])} to {_day(rep['period_end'])}; "
        f"due {_day(rep['due_on'])}",
        "flow": flow_text,
        "results_heading": f"Results ({len(data['results'])})",
        "results": lines(*results) or "~ No results stored for the period.",
        "certification_citation": data["certification"]["citation"],
        "certification": data["certification"]["text"],
    }


def _context(report: Report) -> dict[str, str]:
    return copy_context(stored(report.data))


def _records() -> QuerySet[Report]:
    return Report.objects.select_related("establishment").order_by("-assembled_at", "-id")


KIND = letters.register(
    LetterKind(
        key=COPY,
        name="Signed report (the facility's copy of record)",
        fields=FIELDS,
        required=REQUIRED,
        default_body=COPY_BODY,
        context=_context,
        records=_records,
        title=lambda r: f"{r.due.get_kind_display()} - {r.establishment.name}",
        filename=lambda r: f"RPT-{r.pk}-v{r.version}.pdf",
        created=lambda r: r.assembled_at,
        letterhead=False,  # the facility's report, not the Town's letter
    )
)


def report_pdf(data: ReportData, made_at: datetime) -> bytes:
    """The PDF of the data (and nothing else: the same data and template make the same bytes),
    with the report's template as it stands when the report is assembled."""
    rep, fac = data["report"], data["facility"]
    stored = current_template(COPY)
    body = stored.body if stored is not None else COPY_BODY
    return letter_pdf.render_pdf(
        letters.blocks_of(body, copy_context(data)),
        title=f"{rep['label']} - {fac['name']}",
        created=made_at,
        letterhead=False,
    )


def issue_copy(report: Report, actor: Actor) -> IssuedDocument:
    """Keep the signed report's copy of record: the very bytes the signature binds (assembled
    with the template current then), not a new rendering."""
    return letters.issue(
        COPY, report, actor=actor, content=bytes(report.pdf), rendered_at=report.assembled_at
    )
