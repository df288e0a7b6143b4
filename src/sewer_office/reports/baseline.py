"""What a baseline monitoring report must contain (40 CFR 403.12(b)(1)-(7)), and what a given
report lacks.

The federal rule lists seven elements, written once as dated data in the law package
(:mod:`sewer_rules.federal.cfr403_baseline`: code, title, citation, what it asks); :data:`ITEMS`
pairs each with the check of the report's data. An element the data lack may instead be
explained by the facility (why it does not apply or is not given: the statement's
``explanations``). A report is assembled and signed only when :func:`missing` finds nothing:
an empty baseline report is refused element by element, in the rule's order, saying what to
add and where. :func:`checklist` turns an accepted report's data into the checklist the
pretreatment app keeps for every baseline report received (given, explained or missing).

The report's data hold the part the Town keeps (the facility, its operator and owner, its
approvals, its results and metered flow) and the facility's own statement
(:class:`~sewer_office.reports.models.BaselineStatement`: operations, flows, whether the
standards are met, the compliance schedule) and its attachments (the process diagram).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.contrib.contenttypes.models import ContentType

from sewer_office.core.models import Attachment
from sewer_office.pretreatment.choices import ReportKind
from sewer_office.pretreatment.models import ReportDue
from sewer_rules.federal import cfr403_baseline as rule

from .models import BaselineStatement
from .report_data import ApprovalData, AttachmentData, BaselineSection, ReportData

#: The check of one element against a report's data: what it lacks, in plain words.
Check = Callable[[ReportData], list[str]]

#: The version of 40 CFR 403.12(b) the table follows, and since when.
RULE = rule.RULE
IN_FORCE_SINCE = rule.IN_FORCE_SINCE

#: The kinds of file a report's attachment may be, as the upload form offers them (the kind is
#: the start of the attachment's title: "Process diagram: plant.pdf").
DIAGRAM = "Process diagram"
ATTACHMENT_KINDS = (DIAGRAM, "Laboratory report", "Compliance schedule", "Other")


def _has(value: object) -> bool:
    return value not in (None, "", [], {})


def _identifying(d: ReportData) -> list[str]:
    f = d.get("facility", {})
    b = d.get("baseline", {})
    out = []
    if not _has(f.get("name")):
        out.append("the facility's name")
    if not _has(b.get("address")):
        out.append("the facility's address")
    if not _has(b.get("operator")):
        out.append("the name of its operator")
    if not _has(b.get("owner")):
        out.append("the name of its owner")
    return out


def _permits(d: ReportData) -> list[str]:
    b = d.get("baseline", {})
    if _has(b.get("approvals")) or _has(b.get("permits_held")):
        return []
    return ["the environmental control permits held by or for the facility (write “none” if none)"]


def _operations(d: ReportData) -> list[str]:
    b = d.get("baseline", {})
    out = []
    if not _has(b.get("operations")):
        out.append("a brief description of the nature of the operations")
    if not _has(b.get("production_rate")):
        out.append("the average rate of production")
    if not _has(b.get("sic_codes")):
        out.append("the Standard Industrial Classification (or NAICS) codes")
    if not any(a.get("title", "").startswith(DIAGRAM) for a in d.get("attachments", [])):
        out.append(
            f"a schematic process diagram showing the points of discharge (attach it as “{DIAGRAM}”)"
        )
    return out


def _flow(d: ReportData) -> list[str]:
    b = d.get("baseline", {})
    out = []
    if not _has(b.get("average_flow_gpd")):
        out.append("the average daily flow, in gallons per day")
    if not _has(b.get("maximum_flow_gpd")):
        out.append("the maximum daily flow, in gallons per day")
    return out


def _pollutants(d: ReportData) -> list[str]:
    out = []
    if not _has(d.get("baseline", {}).get("standards_applicable")):
        out.append("the categorical pretreatment standards applicable to each regulated process")
    if not d.get("results"):
        out.append(
            "the results of sampling and analysis of the regulated pollutants in the reporting "
            "period (none is stored: the laboratory's results are imported by the office)"
        )
    return out


def _certification(d: ReportData) -> list[str]:
    b = d.get("baseline", {})
    if b.get("meets_standards") is None:
        return [
            "a statement whether the pretreatment standards are being met on a consistent basis"
        ]
    if b.get("meets_standards") is False and not _has(b.get("additional_measures")):
        return ["what additional operation and maintenance or pretreatment is needed to meet them"]
    return []


def _schedule(d: ReportData) -> list[str]:
    b = d.get("baseline", {})
    if b.get("meets_standards") is False and not _has(b.get("compliance_schedule")):
        return ["the shortest schedule by which the additional measures will be provided"]
    return []


@dataclass(frozen=True)
class Item:
    """One element of 40 CFR 403.12(b) and the check of a report's data against it."""

    element: rule.Element
    check: Check

    @property
    def code(self) -> str:
        return self.element.code

    @property
    def citation(self) -> str:
        return self.element.citation

    @property
    def title(self) -> str:
        return self.element.title

    @property
    def asks(self) -> str:
        return self.element.asks


#: Each element's check of the report's data, by the element's code.
CHECKS: dict[str, Check] = {
    "b1": _identifying,
    "b2": _permits,
    "b3": _operations,
    "b4": _flow,
    "b5": _pollutants,
    "b6": _certification,
    "b7": _schedule,
}


def items_on(day: date) -> tuple[Item, ...]:
    """The elements in force on ``day`` with their checks."""
    return tuple(Item(e, CHECKS[e.code]) for e in rule.elements_on(day))


ITEMS: tuple[Item, ...] = items_on(IN_FORCE_SINCE)


@dataclass(frozen=True)
class Gap:
    """What one element still lacks (and the facility did not explain)."""

    item: Item
    lacks: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{self.item.title} ({self.item.citation}): {'; '.join(self.lacks)}."


def _items_of(data: ReportData) -> tuple[Item, ...]:
    due_on = data.get("report", {}).get("due_on")
    return items_on(date.fromisoformat(due_on)) if due_on else ITEMS


def _explanation(data: ReportData, code: str) -> str:
    explanations = data.get("baseline", {}).get("explanations") or {}
    return str(explanations.get(code, "")).strip()


def missing(data: ReportData) -> list[Gap]:
    """The elements of 40 CFR 403.12(b) the report's data lack and the facility did not
    explain, in the rule's order (none for a report of another kind)."""
    if data.get("report", {}).get("kind") != ReportKind.BASELINE:
        return []
    gaps = []
    for item in _items_of(data):
        lacks = item.check(data)
        if lacks and not _explanation(data, item.code):
            gaps.append(Gap(item, tuple(lacks)))
    return gaps


def _files(data: ReportData, code: str) -> str:
    """The attached files an element is given in (the process diagram of (b)(3))."""
    if code != "b3":
        return ""
    titles = [a.get("title", "") for a in data.get("attachments", [])]
    return "; ".join(t for t in titles if t.startswith(DIAGRAM))


def checklist(data: ReportData, where: str) -> dict[str, dict[str, str]]:
    """The checklist of a report's data (``where``: the report, e.g. "the signed report
    RPT-12"): each element given (in the report, and the files), explained (the facility's
    words; the compliance schedule where the standards are met), or missing."""
    out: dict[str, dict[str, str]] = {}
    meets = data.get("baseline", {}).get("meets_standards")
    for item in _items_of(data):
        explanation = _explanation(data, item.code)
        if item.code == "b7" and meets is True and not explanation:
            entry = rule.Entry(
                rule.Answer.EXPLAINED,
                "Not required: the report states that the standards are met on a consistent "
                "basis (40 CFR 403.12(b)(6)).",
            )
        elif not item.check(data):
            entry = rule.Entry(rule.Answer.GIVEN, f"given in {where}", _files(data, item.code))
        elif explanation:
            entry = rule.Entry(rule.Answer.EXPLAINED, explanation)
        else:
            entry = rule.Entry(rule.Answer.MISSING)
        out[item.code] = entry.as_dict()
    return out


def attachments_of(due: ReportDue) -> list[Attachment]:
    ct = ContentType.objects.get_for_model(ReportDue)
    return list(Attachment.objects.filter(content_type=ct, object_id=str(due.pk)).order_by("id"))


def attachments_data(due: ReportDue) -> list[AttachmentData]:
    """The files sent with the report, as its data list them (the signature binds their
    hashes)."""
    return [{"title": a.title, "sha256": a.sha256, "size": a.size} for a in attachments_of(due)]


def _text(value: object) -> str:
    return "" if value is None else str(value)


def section(due: ReportDue) -> BaselineSection:
    """The baseline part of the report's data: the Town's records of the facility and the
    facility's statement."""
    est = due.establishment
    prop = est.building.property
    approvals: list[ApprovalData] = [
        {"number": a.number, "state": a.state_label, "decided_on": _text(a.decided_on)}
        for a in est.discharge_approvals.order_by("id")
        if a.number
    ]
    statement = BaselineStatement.objects.filter(due=due).first()

    def stated(name: str) -> str:
        return _text(getattr(statement, name, "")).strip() if statement else ""

    explained = (statement.explanations or {}) if statement else {}
    return {
        "rule": RULE,
        "address": prop.address,
        "operator": est.operator.name,
        "owner": prop.owner.name,
        "approvals": approvals,
        "permits_held": stated("permits_held"),
        "operations": stated("operations"),
        "standards_applicable": stated("standards_applicable"),
        "sic_codes": stated("sic_codes"),
        "production_rate": stated("production_rate"),
        "average_flow_gpd": stated("average_flow_gpd"),
        "maximum_flow_gpd": stated("maximum_flow_gpd"),
        "additional_measures": stated("additional_measures"),
        "compliance_schedule": stated("compliance_schedule"),
        "meets_standards": statement.meets_standards if statement else None,
        "explanations": {k: str(v).strip() for k, v in sorted(explained.items()) if str(v).strip()},
    }
