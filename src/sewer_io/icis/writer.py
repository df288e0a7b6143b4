"""Writing a pretreatment program report as the schema's ``Document`` (see
:mod:`sewer_io.icis`): only the elements with a value, in the schema's order."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

from .values import (
    NAMESPACE,
    OPERATION,
    ORDER,
    ComplianceMonitoring,
    Contamination,
    Enforcement,
    Header,
    IcisValueError,
    IndustrialUser,
    ProgramInformation,
    ProgramReport,
    Violations,
    problems,
)

# --- writing ------------------------------------------------------------------------------------

Value = str | int | bool | date | datetime | Decimal | None


def _text(value: Value) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "Y" if value else "N"
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    return str(value)


def _tag(name: str) -> str:
    """Elements are built unqualified; the root declares the default namespace (ElementTree's
    ``default_namespace`` would refuse the unqualified ``Operation`` attribute)."""
    return name


def _element(name: str, children: Sequence[tuple[str, object]]) -> ET.Element | None:
    """``name`` with the children that have a value, in the schema's order; None when empty.

    Each child is (name, value) where value is a scalar (written as text), an Element (a
    wrapper already built, or None), or a list of either (a repeated element)."""
    order = ORDER[name]
    el = ET.Element(_tag(name))
    for child, value in sorted(children, key=lambda c: order.index(c[0])):
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ET.Element):
                el.append(item)
            elif (text := _text(item)) is not None:  # type: ignore[arg-type]
                ET.SubElement(el, _tag(child)).text = text
    return el if len(el) else None


def _contamination(prefix: str, c: Contamination | None) -> ET.Element | None:
    if c is None:
        return None
    return _element(
        f"{prefix}Contamination",
        [(f"{prefix}ContaminationIndicator", c.indicator), (f"{prefix}ContaminationText", c.text)],
    )


def _program(p: ProgramInformation | None) -> ET.Element | None:
    if p is None:
        return None
    codes = _element(
        "LocalLimitsParameters",
        [("LocalLimitsParameterCode", list(p.local_limits_parameter_codes))],
    )
    return _element(
        "ControlAuthorityProgramInformation",
        [
            ("LocalLimitsAdoptionDate", p.local_limits_adopted),
            ("LocalLimitsEvaluationDate", p.local_limits_evaluated),
            ("LocalLimitsParameters", codes),
            ("POTWDischargeContamination", _contamination("POTWDischarge", p.discharge_contamination)),
            ("POTWBiosolidsContamination", _contamination("POTWBiosolids", p.biosolids_contamination)),
        ],
    )  # fmt: skip


def _monitoring(m: ComplianceMonitoring | None) -> ET.Element | None:
    if m is None:
        return None
    return _element(
        "IUComplianceMonitoring",
        [
            ("NumberIUInspectionsByCA", m.inspections_by_ca),
            ("NumberIUSamplingEventsByCA", m.sampling_events_by_ca),
            ("NumberReqdIUSelfMonEventsMaximum", m.required_self_monitoring_events),
            ("IUComplyReqSelfMonRptingIndicator", m.self_monitoring_reporting_met),
            ("IUComplyReqSelfMonRptingText", m.self_monitoring_reporting_text),
            ("NSCIUCertSubmToCAIndicator", m.nsciu_certification_submitted),
            ("ChangedDischSubmIndicator", m.changed_discharge_submitted),
        ],
    )


def _violations(v: Violations | None) -> ET.Element | None:
    if v is None:
        return None
    codes = _element(
        "SNCPretrStndLimitsParameters",
        [("SNCPretrStndLimitsParameterCode", list(v.standards_limits_parameter_codes))],
    )
    months = _element("SNCListingMonths", [("SNCListingMonthYear", list(v.listing_months))])
    return _element(
        "IUViolationInformation",
        [
            ("SNCPretrStndLimitsIndicator", v.standards_limits),
            ("SNCPretrStndLimitsParameters", codes),
            ("SNCRptRqmtIndicator", v.reporting),
            ("SNCOthCtrlMechRqmtIndicator", v.other_requirement),
            ("SNCRelPOTWDischOperIndicator", v.potw_discharge_operations),
            ("SNCRelPOTWDischOperText", v.potw_discharge_operations_text),
            ("SNCRelPOTWBioOperSewgSludMgmtIndicator", v.potw_biosolids_operations),
            ("SNCRelPOTWBioOperSewgSludMgmtText", v.potw_biosolids_operations_text),
            ("SNCListingMonths", months),
            ("SNCPublishedIndicator", v.published),
        ],
    )


def _enforcement(e: Enforcement | None) -> ET.Element | None:
    if e is None:
        return None
    types = [
        _element(
            "IUEnfActionTypes",
            [
                ("IUEnfActionTypeCode", a.type_code),
                ("IUEnfActionTypeOtherText", a.other_text),
                ("NumIUEnfActions", a.count),
            ],
        )
        for a in e.actions
    ]
    return _element(
        "IUEnforcementActionInformation",
        [
            ("IUEnfActionTypes", [t for t in types if t is not None]),
            ("SNCPretrEnfCmplSchedStatusIndicator", e.snc_compliance_schedule),
            ("IUCashCivilPenaltyAmountAssessed", e.penalties_assessed),
            ("IUCashCivilPenaltyAmountCollected", e.penalties_collected),
        ],
    )


def _user(u: IndustrialUser) -> ET.Element | None:
    return _element(
        "IndustrialUserInformation",
        [
            ("PermitIdentifier", u.permit_identifier),
            ("IUAverageDailyWastewaterFlowRateGPD", u.average_daily_flow_gpd),
            ("IUAverageDailyProcessWastewaterFlowRateGPD", u.average_daily_process_flow_gpd),
            ("IUSubjectLocalLimitsIndicator", u.subject_to_local_limits),
            (
                "IUSubjectLocalLimitsMoreStringentCatStdIndicator",
                u.local_limits_more_stringent_than_categorical,
            ),
            ("MTCIUSubjectReducedReportingIndicator", u.reduced_reporting),
            ("IUComplianceMonitoring", _monitoring(u.monitoring)),
            ("IUViolationInformation", _violations(u.violations)),
            ("IUEnforcementActionInformation", _enforcement(u.enforcement)),
        ],
    )


def _inventory(users: tuple[IndustrialUser, ...] | None) -> ET.Element | None:
    if users is None:
        return None
    built = [el for u in users if (el := _user(u)) is not None]
    return _element(
        "IndustrialUserInventory",
        [("IndustrialUserIndicator", bool(built)), ("IndustrialUserInformation", built)],
    )


def document(report: ProgramReport, header: Header) -> ET.Element:
    """The ``Document`` element of ``report`` (checked first: :class:`IcisValueError`)."""
    found = problems(report, header)
    if found:
        raise IcisValueError(found)
    props = [
        _element("Property", [("name", name), ("value", value)])
        for name, value in header.properties
    ]
    head = _element(
        "Header",
        [
            ("Id", header.id),
            ("Author", header.author),
            ("Organization", header.organization),
            ("Title", header.title),
            ("CreationTime", header.creation_time),
            ("Comment", header.comment),
            ("ContactInfo", header.contact_info),
            ("Property", [p for p in props if p is not None]),
        ],
    )
    body = _element(
        "PretreatmentProgramReport",
        [
            ("PermitIdentifier", report.permit_identifier),
            ("ProgramReportFormSetID", report.form_set_id),
            ("ProgramReportFormID", report.form_id),
            ("ProgramReportReceivedDate", report.received),
            ("ProgramReportStartDate", report.start),
            ("ProgramReportEndDate", report.end),
            ("ElectronicSubmissionTypeCode", report.electronic_submission_type_code),
            ("ProgramReportNPDESDataGroupNumberCode", report.data_group_code),
            ("ControlAuthorityProgramInformation", _program(report.program)),
            ("IndustrialUserInventory", _inventory(report.industrial_users)),
        ],
    )
    transaction = _element(
        "TransactionHeader",
        [
            ("TransactionType", report.transaction_type),
            ("TransactionTimestamp", report.transaction_timestamp),
        ],
    )
    data = _element(
        "PretreatmentProgramReportData",
        [("TransactionHeader", transaction), ("PretreatmentProgramReport", body)],
    )
    payload = _element("Payload", [("PretreatmentProgramReportData", data)])
    assert head is not None and payload is not None  # Id and the keys are always written
    payload.set("Operation", OPERATION)
    root = _element("Document", [("Header", head), ("Payload", payload)])
    assert root is not None
    root.set("xmlns", NAMESPACE)
    return root


def write_document(report: ProgramReport, header: Header) -> bytes:
    """The report as the bytes of an ICIS-NPDES XML document (UTF-8, declaration first)."""
    root = document(report, header)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n").encode("utf-8")
