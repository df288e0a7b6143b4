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
from typing import Any

from fpdf import FPDF

from sewer_office.inspections.report import _latin
from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.monitoring.choices import ResultState
from sewer_office.monitoring.models import LabResult
from sewer_office.pretreatment.models import ReportDue

from .choices import CERTIFICATION, CERTIFICATION_CITATION


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


def _flow(due: ReportDue, start: date, end: date) -> dict[str, Any]:
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


def report_data(due: ReportDue) -> dict[str, Any]:
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
    return {
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
    }


def canonical(data: dict[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def report_pdf(data: dict[str, Any], made_at: datetime) -> bytes:
    """The PDF of the data (and nothing else: the same data make the same bytes)."""
    rep, fac = data["report"], data["facility"]
    pdf = FPDF(format="Letter")
    pdf.set_creation_date(made_at)
    pdf.set_title(f"{rep['label']} - {fac['name']}")
    pdf.set_producer("sewer-use")
    pdf.add_page()
    pdf.set_margins(20, 18, 20)
    width = pdf.w - pdf.l_margin - pdf.r_margin

    def line(text: str, style: str = "", size: float = 10) -> None:
        pdf.set_font("Helvetica", style, size)
        pdf.multi_cell(width, 5, _latin(text), new_x="LMARGIN", new_y="NEXT")

    line(f"{rep['label']} ({rep['citation']})", "B", 14)
    line(f"{fac['name']}{' (' + fac['code'] + ')' if fac['code'] else ''}", "B", 11)
    line(f"Reporting period {rep['period_start']} to {rep['period_end']}; due {rep['due_on']}")
    pdf.ln(3)
    flow = data["flow"]
    line("Flow", "B", 11)
    if "sum" in flow:
        line(f"{flow['readings']} readings, sum {flow['sum']} {flow['unit']} ({flow['source']})")
    elif "flow_gpd" in flow:
        line(f"{flow['flow_gpd']} gpd ({flow['source']})")
    else:
        line(flow["source"])
    pdf.ln(3)
    line(f"Results ({len(data['results'])})", "B", 11)
    for r in data["results"]:
        qualifier = f"{r['qualifier']} " if r["qualifier"] else ""
        line(
            f"{r['sampled_at'][:16]}  {r['point']}  {r['sample_id']}  {r['parameter']}  "
            f"{qualifier}{r['value']} {r['unit']}  [{r['status']}]",
            size=8.5,
        )
    if not data["results"]:
        line("No results stored for the period.", size=9)
    pdf.ln(4)
    line(f"Certification ({data['certification']['citation']})", "B", 11)
    line(data["certification"]["text"], size=9.5)
    return bytes(pdf.output())
