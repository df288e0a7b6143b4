"""What a baseline monitoring report must contain (40 CFR 403.12(b)(1)-(7)), and what a given
report lacks.

The federal rule lists seven items; :data:`ITEMS` is that list as a dated table (the rule as
in force since the Pretreatment Streamlining Rule, 70 FR 60134, 14 October 2005), each item
with its citation, what it asks and the check of the report's data. A report is assembled
and signed only when :func:`missing` finds nothing: an empty baseline report is refused item
by item, in the rule's order, saying what to add and where.

The report's data hold the part the Town keeps (the facility, its operator and owner, its
approvals, its results and metered flow) and the facility's own statement
(:class:`~sewer_office.reports.models.BaselineStatement`: operations, flows, whether the
standards are met, the compliance schedule) and its attachments (the process diagram).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.contenttypes.models import ContentType

from sewer_office.core.models import Attachment
from sewer_office.pretreatment.choices import ReportKind
from sewer_office.pretreatment.models import ReportDue

from .models import BaselineStatement

#: The version of 40 CFR 403.12(b) the table follows, and since when.
RULE = "40 CFR 403.12(b), as amended by the Pretreatment Streamlining Rule, 70 FR 60134"
IN_FORCE_SINCE = date(2005, 10, 14)

#: The kinds of file a report's attachment may be, as the upload form offers them (the kind is
#: the start of the attachment's title: "Process diagram: plant.pdf").
DIAGRAM = "Process diagram"
ATTACHMENT_KINDS = (DIAGRAM, "Laboratory report", "Compliance schedule", "Other")


def _has(value: Any) -> bool:
    return value not in (None, "", [], {})


def _identifying(d: dict[str, Any]) -> list[str]:
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


def _permits(d: dict[str, Any]) -> list[str]:
    b = d.get("baseline", {})
    if _has(b.get("approvals")) or _has(b.get("permits_held")):
        return []
    return ["the environmental control permits held by or for the facility (write “none” if none)"]


def _operations(d: dict[str, Any]) -> list[str]:
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


def _flow(d: dict[str, Any]) -> list[str]:
    b = d.get("baseline", {})
    out = []
    if not _has(b.get("average_flow_gpd")):
        out.append("the average daily flow, in gallons per day")
    if not _has(b.get("maximum_flow_gpd")):
        out.append("the maximum daily flow, in gallons per day")
    return out


def _pollutants(d: dict[str, Any]) -> list[str]:
    if d.get("results"):
        return []
    return [
        "the results of sampling and analysis of the regulated pollutants in the reporting "
        "period (none is stored: the laboratory's results are imported by the office)"
    ]


def _certification(d: dict[str, Any]) -> list[str]:
    b = d.get("baseline", {})
    if b.get("meets_standards") is None:
        return [
            "a statement whether the pretreatment standards are being met on a consistent basis"
        ]
    if b.get("meets_standards") is False and not _has(b.get("additional_measures")):
        return ["what additional operation and maintenance or pretreatment is needed to meet them"]
    return []


def _schedule(d: dict[str, Any]) -> list[str]:
    b = d.get("baseline", {})
    if b.get("meets_standards") is False and not _has(b.get("compliance_schedule")):
        return ["the shortest schedule by which the additional measures will be provided"]
    return []


@dataclass(frozen=True)
class Item:
    """One item of 40 CFR 403.12(b): its citation, its title, what it asks, its check."""

    citation: str
    title: str
    asks: str
    check: Callable[[dict[str, Any]], list[str]]


ITEMS: tuple[Item, ...] = (
    Item(
        "40 CFR 403.12(b)(1)",
        "Identifying information",
        "the name and address of the facility, and the names of its operator and owners",
        _identifying,
    ),
    Item(
        "40 CFR 403.12(b)(2)",
        "Environmental permits",
        "a list of any environmental control permits held by or for the facility",
        _permits,
    ),
    Item(
        "40 CFR 403.12(b)(3)",
        "Description of operations",
        "the nature, average rate of production and SIC of the operations, and a schematic "
        "process diagram showing the points of discharge",
        _operations,
    ),
    Item(
        "40 CFR 403.12(b)(4)",
        "Flow measurement",
        "the measured average daily and maximum daily flow, in gallons per day",
        _flow,
    ),
    Item(
        "40 CFR 403.12(b)(5)",
        "Measurement of pollutants",
        "the results of sampling and analysis of the regulated pollutants",
        _pollutants,
    ),
    Item(
        "40 CFR 403.12(b)(6)",
        "Certification",
        "a statement, reviewed by the authorized representative and certified by a qualified "
        "professional, whether the standards are met and, if not, what more is needed",
        _certification,
    ),
    Item(
        "40 CFR 403.12(b)(7)",
        "Compliance schedule",
        "where more is needed, the shortest schedule by which it will be provided",
        _schedule,
    ),
)


@dataclass(frozen=True)
class Gap:
    """What one item of the rule still lacks."""

    item: Item
    lacks: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{self.item.title} ({self.item.citation}): {'; '.join(self.lacks)}."


def missing(data: dict[str, Any]) -> list[Gap]:
    """The items of 40 CFR 403.12(b) the report's data lack, in the rule's order (none for a
    report of another kind)."""
    if data.get("report", {}).get("kind") != ReportKind.BASELINE:
        return []
    gaps = []
    for item in ITEMS:
        lacks = item.check(data)
        if lacks:
            gaps.append(Gap(item, tuple(lacks)))
    return gaps


def attachments_of(due: ReportDue) -> list[Attachment]:
    ct = ContentType.objects.get_for_model(ReportDue)
    return list(Attachment.objects.filter(content_type=ct, object_id=str(due.pk)).order_by("id"))


def attachments_data(due: ReportDue) -> list[dict[str, Any]]:
    """The files sent with the report, as its data list them (the signature binds their
    hashes)."""
    return [{"title": a.title, "sha256": a.sha256, "size": a.size} for a in attachments_of(due)]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def section(due: ReportDue) -> dict[str, Any]:
    """The baseline part of the report's data: the Town's records of the facility and the
    facility's statement."""
    est = due.establishment
    prop = est.building.property
    approvals = [
        {"number": a.number, "state": a.state_label, "decided_on": _text(a.decided_on)}
        for a in est.discharge_approvals.order_by("id")
        if a.number
    ]
    statement = BaselineStatement.objects.filter(due=due).first()
    out: dict[str, Any] = {
        "rule": RULE,
        "address": prop.address,
        "operator": est.operator.name,
        "owner": prop.owner.name,
        "approvals": approvals,
    }
    fields = (
        "permits_held",
        "operations",
        "sic_codes",
        "production_rate",
        "average_flow_gpd",
        "maximum_flow_gpd",
        "additional_measures",
        "compliance_schedule",
    )
    for name in fields:
        out[name] = _text(getattr(statement, name, "")).strip() if statement else ""
    out["meets_standards"] = statement.meets_standards if statement else None
    return out
