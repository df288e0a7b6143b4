"""The shape of a report's data: what :func:`.documents.report_data` assembles, what the
signature binds (as canonical JSON) and what the office reads back from a stored report.

Written once as ``TypedDict`` s so that the assembly, the baseline checks of 40 CFR 403.12(b)
(:mod:`.baseline`), the PDF's words and the pages read the same keys and mypy checks them.
Every value is JSON-ready text or a number (decimals as their exact texts, days and moments
in ISO 8601), so the data are the same bytes for the same facts.

A stored report's data are JSON the office wrote itself; :func:`stored` is the one place they
become a :class:`ReportData` again (checked to be an object; a report assembled before a key
was added may lack it, which is why the baseline checks read with ``.get``).
"""

from __future__ import annotations

import json
from typing import NotRequired, Required, TypedDict, cast


class FacilityData(TypedDict):
    id: int
    name: str
    code: str


class ReportHeader(TypedDict):
    """The report's kind, the rule that requires it, its due date and reporting period."""

    kind: str
    label: str
    citation: str
    due_on: str
    period_start: str
    period_end: str


class ResultData(TypedDict):
    """One laboratory result of the period, exactly as stored."""

    sample_id: str
    point: str
    sample_type: str  # grab or composite (40 CFR 403.12(b)(5))
    sampled_at: str
    parameter: str
    value: str
    qualifier: str
    unit: str
    status: str


class FlowData(TypedDict, total=False):
    """The flow of the period and where it comes from: a meter's readings (``readings``,
    ``sum``, ``unit``), else the flow an approval declares (``flow_gpd``), else neither."""

    source: Required[str]
    readings: int
    sum: str
    unit: str
    flow_gpd: str


class CertificationData(TypedDict):
    citation: str
    text: str


class AttachmentData(TypedDict):
    """A file sent with the report (the signature binds its hash)."""

    title: str
    sha256: str
    size: int


class ApprovalData(TypedDict):
    number: str
    state: str
    decided_on: str


class BaselineSection(TypedDict):
    """The baseline monitoring report's part (40 CFR 403.12(b)): the Town's records of the
    facility and the facility's statement (its texts blank when not given; ``meets_standards``
    None when not stated; ``explanations``: why an element is not given, by element code)."""

    rule: str
    address: str
    operator: str
    owner: str
    approvals: list[ApprovalData]
    permits_held: str
    operations: str
    standards_applicable: str
    sic_codes: str
    production_rate: str
    average_flow_gpd: str
    maximum_flow_gpd: str
    additional_measures: str
    compliance_schedule: str
    meets_standards: bool | None
    explanations: dict[str, str]


class ReportData(TypedDict):
    """Everything a report states; ``baseline`` only in a baseline monitoring report."""

    facility: FacilityData
    report: ReportHeader
    results: list[ResultData]
    flow: FlowData
    certification: CertificationData
    attachments: list[AttachmentData]
    baseline: NotRequired[BaselineSection]


def stored(text: str) -> ReportData:
    """A stored report's data (the JSON the office assembled) as :class:`ReportData`."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("a report's stored data are a JSON object")
    return cast(ReportData, data)
