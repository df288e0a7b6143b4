"""The values of an ICIS-NPDES pretreatment program report, the schema's order of its
elements, and the checks of what the schema accepts (see :mod:`sewer_io.icis`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

NAMESPACE = "http://www.exchangenetwork.net/schema/icis/5"
OPERATION = "PretreatmentProgramReportSubmission"
#: The transaction types of the schema's TransactionHeader: N new, R replace (C change,
#: D delete, X mass delete are not used for a whole report).
TRANSACTION_TYPES = ("N", "R")
MAX_COUNT = 1000
MAX_FLOW = 999_999_999
MAX_MONEY = Decimal("999999999999.99")

#: Each complex element of the report and its children, in the schema's order (the
#: ``xsd:sequence`` of its type in ICIS_PretreatmentProgramReport_v5.14.xsd, the key elements
#: of ICIS_KeyElements_v5.14.xsd first, ICIS_Header_v5.14.xsd for the header).
ORDER: dict[str, tuple[str, ...]] = {
    "Document": ("Header", "Payload"),
    "Header": (
        "Id", "Author", "Organization", "Title", "CreationTime", "Comment", "DataService",
        "ContactInfo", "Property",
    ),
    "Property": ("name", "value"),
    "Payload": ("PretreatmentProgramReportData",),
    "PretreatmentProgramReportData": ("TransactionHeader", "PretreatmentProgramReport"),
    "TransactionHeader": ("TransactionType", "TransactionTimestamp"),
    "PretreatmentProgramReport": (
        "PermitIdentifier", "ProgramReportFormSetID", "ProgramReportFormID",
        "ProgramReportReceivedDate", "ProgramReportStartDate", "ProgramReportEndDate",
        "ElectronicSubmissionTypeCode", "ProgramReportNPDESDataGroupNumberCode",
        "ControlAuthorityProgramInformation", "IndustrialUserInventory",
    ),
    "ControlAuthorityProgramInformation": (
        "LocalLimitsAdoptionDate", "LocalLimitsEvaluationDate", "LocalLimitsParameters",
        "POTWDischargeContamination", "POTWBiosolidsContamination",
    ),
    "LocalLimitsParameters": ("LocalLimitsParameterCode",),
    "POTWDischargeContamination": (
        "POTWDischargeContaminationIndicator", "POTWDischargeContaminationText",
    ),
    "POTWBiosolidsContamination": (
        "POTWBiosolidsContaminationIndicator", "POTWBiosolidsContaminationText",
    ),
    "IndustrialUserInventory": ("IndustrialUserIndicator", "IndustrialUserInformation"),
    "IndustrialUserInformation": (
        "PermitIdentifier", "IUAverageDailyWastewaterFlowRateGPD",
        "IUAverageDailyProcessWastewaterFlowRateGPD", "IUSubjectLocalLimitsIndicator",
        "IUSubjectLocalLimitsMoreStringentCatStdIndicator", "MTCIUSubjectReducedReportingIndicator",
        "IUComplianceMonitoring", "IUViolationInformation", "IUEnforcementActionInformation",
    ),
    "IUComplianceMonitoring": (
        "NumberIUInspectionsByCA", "NumberIUSamplingEventsByCA",
        "NumberReqdIUSelfMonEventsMaximum", "IUComplyReqSelfMonRptingIndicator",
        "IUComplyReqSelfMonRptingText", "NSCIUCertSubmToCAIndicator", "ChangedDischSubmIndicator",
    ),
    "IUViolationInformation": (
        "SNCPretrStndLimitsIndicator", "SNCPretrStndLimitsParameters", "SNCRptRqmtIndicator",
        "SNCOthCtrlMechRqmtIndicator", "SNCRelPOTWDischOperIndicator", "SNCRelPOTWDischOperText",
        "SNCRelPOTWBioOperSewgSludMgmtIndicator", "SNCRelPOTWBioOperSewgSludMgmtText",
        "SNCListingMonths", "SNCPublishedIndicator",
    ),
    "SNCPretrStndLimitsParameters": ("SNCPretrStndLimitsParameterCode",),
    "SNCListingMonths": ("SNCListingMonthYear",),
    "IUEnforcementActionInformation": (
        "IUEnfActionTypes", "SNCPretrEnfCmplSchedStatusIndicator",
        "IUCashCivilPenaltyAmountAssessed", "IUCashCivilPenaltyAmountCollected",
    ),
    "IUEnfActionTypes": ("IUEnfActionTypeCode", "IUEnfActionTypeOtherText", "NumIUEnfActions"),
}  # fmt: skip


class IcisValueError(ValueError):
    """Values the schema would refuse; ``problems`` lists each, naming the element."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


# --- the report's values ------------------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """The document's header (HeaderData): ``id`` is the submitter's identifier (3–30
    characters); ``properties`` are (name, value) pairs, name ``e-mail`` or ``Source``."""

    id: str
    author: str = ""
    organization: str = ""
    title: str = ""
    creation_time: datetime | None = None
    comment: str = ""
    contact_info: str = ""
    properties: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Contamination:
    """Whether a pollutant from industrial users contaminated the POTW's discharge or its
    biosolids, and how."""

    indicator: bool
    text: str = ""


@dataclass(frozen=True)
class ProgramInformation:
    """ControlAuthorityProgramInformation: the local limits and the POTW's contamination."""

    local_limits_adopted: date | None = None
    local_limits_evaluated: date | None = None
    local_limits_parameter_codes: tuple[str, ...] = ()
    discharge_contamination: Contamination | None = None
    biosolids_contamination: Contamination | None = None


@dataclass(frozen=True)
class ComplianceMonitoring:
    """IUComplianceMonitoring: the Control Authority's inspections and samplings of the user,
    the self-monitoring samples required and whether the user met its self-monitoring
    reporting (with why)."""

    inspections_by_ca: int | None = None
    sampling_events_by_ca: int | None = None
    required_self_monitoring_events: int | None = None
    self_monitoring_reporting_met: bool | None = None
    self_monitoring_reporting_text: str = ""
    nsciu_certification_submitted: bool | None = None
    changed_discharge_submitted: bool | None = None


@dataclass(frozen=True)
class Violations:
    """IUViolationInformation: the user's significant noncompliance in the period."""

    standards_limits: bool | None = None
    standards_limits_parameter_codes: tuple[str, ...] = ()
    reporting: bool | None = None
    other_requirement: bool | None = None
    potw_discharge_operations: bool | None = None
    potw_discharge_operations_text: str = ""
    potw_biosolids_operations: bool | None = None
    potw_biosolids_operations_text: str = ""
    listing_months: tuple[str, ...] = ()
    published: bool | None = None


@dataclass(frozen=True)
class ActionCount:
    """One IUEnfActionTypes: the type code, how many actions of it, other text."""

    type_code: str
    count: int | None = None
    other_text: str = ""


@dataclass(frozen=True)
class Enforcement:
    """IUEnforcementActionInformation: actions by type, and the cash civil penalties."""

    actions: tuple[ActionCount, ...] = ()
    snc_compliance_schedule: bool | None = None
    penalties_assessed: Decimal | None = None
    penalties_collected: Decimal | None = None


@dataclass(frozen=True)
class IndustrialUser:
    """IndustrialUserInformation: one user of the inventory, keyed by its control mechanism's
    nine-character ICIS-NPDES identifier."""

    permit_identifier: str
    average_daily_flow_gpd: int | None = None
    average_daily_process_flow_gpd: int | None = None
    subject_to_local_limits: bool | None = None
    local_limits_more_stringent_than_categorical: bool | None = None
    reduced_reporting: bool | None = None
    monitoring: ComplianceMonitoring | None = None
    violations: Violations | None = None
    enforcement: Enforcement | None = None


@dataclass(frozen=True)
class ProgramReport:
    """The PretreatmentProgramReport of one Control Authority for one period.

    ``industrial_users`` None writes no inventory; an empty tuple writes the inventory with
    ``IndustrialUserIndicator`` N."""

    permit_identifier: str
    form_set_id: str
    start: date | None = None
    end: date | None = None
    received: date | None = None
    form_id: int | None = None
    electronic_submission_type_code: str = ""
    data_group_code: str = ""
    program: ProgramInformation | None = None
    industrial_users: tuple[IndustrialUser, ...] | None = ()
    transaction_type: str = "N"
    transaction_timestamp: datetime | None = None


# --- checks -------------------------------------------------------------------------------------


def problems(report: ProgramReport, header: Header) -> list[str]:
    """Every value of ``report`` and ``header`` the schema would refuse, each naming its element
    (empty: none)."""
    out: list[str] = []

    def length(name: str, text: str, lo: int, hi: int) -> None:
        if text and not lo <= len(text) <= hi:
            out.append(f"{name} {text!r}: {lo}–{hi} characters, not {len(text)}")

    def count(name: str, n: int | None, top: int = MAX_COUNT) -> None:
        if n is not None and not 0 <= n <= top:
            out.append(f"{name} {n}: a whole number from 0 to {top:,}")

    def money(name: str, amount: Decimal | None) -> None:
        if amount is not None and not (
            0 <= amount <= MAX_MONEY and amount == amount.quantize(Decimal("0.01"))
        ):
            out.append(f"{name} {amount}: an amount from 0 to {MAX_MONEY} with two decimals")

    def permit(name: str, text: str) -> None:
        if len(text) != 9 or "*" in text:
            out.append(f"{name} {text!r}: nine characters, no '*'")

    if not 3 <= len(header.id) <= 30:
        out.append(f"Id {header.id!r}: 3–30 characters, not {len(header.id)}")
    for pname, _ in header.properties:
        if pname not in ("e-mail", "Source"):
            out.append(f"Property name {pname!r}: 'e-mail' or 'Source'")
    if report.transaction_type not in TRANSACTION_TYPES:
        out.append(f"TransactionType {report.transaction_type!r}: one of {TRANSACTION_TYPES}")
    permit("PermitIdentifier", report.permit_identifier)
    if not 1 <= len(report.form_set_id) <= 50:
        out.append(f"ProgramReportFormSetID {report.form_set_id!r}: 1–50 characters")
    length("ElectronicSubmissionTypeCode", report.electronic_submission_type_code, 1, 3)
    length("ProgramReportNPDESDataGroupNumberCode", report.data_group_code, 1, 3)
    if report.form_id is not None and not 1 <= report.form_id <= 999_999_999_999_999:
        out.append(f"ProgramReportFormID {report.form_id}: from 1 to 999,999,999,999,999")
    if report.start and report.end and report.start > report.end:
        out.append(f"ProgramReportStartDate {report.start} is after the end {report.end}")
    p = report.program
    if p is not None:
        for code in p.local_limits_parameter_codes:
            length("LocalLimitsParameterCode", code, 1, 5)
        for label, c in (("POTWDischarge", p.discharge_contamination),
                         ("POTWBiosolids", p.biosolids_contamination)):  # fmt: skip
            if c is not None:
                length(f"{label}ContaminationText", c.text, 1, 500)
    for u in report.industrial_users or ():
        who = f"industrial user {u.permit_identifier}"
        permit(f"{who}: PermitIdentifier", u.permit_identifier)
        count(f"{who}: IUAverageDailyWastewaterFlowRateGPD", u.average_daily_flow_gpd, MAX_FLOW)
        count(
            f"{who}: IUAverageDailyProcessWastewaterFlowRateGPD",
            u.average_daily_process_flow_gpd,
            MAX_FLOW,
        )
        if (m := u.monitoring) is not None:
            count(f"{who}: NumberIUInspectionsByCA", m.inspections_by_ca)
            count(f"{who}: NumberIUSamplingEventsByCA", m.sampling_events_by_ca)
            count(f"{who}: NumberReqdIUSelfMonEventsMaximum", m.required_self_monitoring_events)
            length(f"{who}: IUComplyReqSelfMonRptingText", m.self_monitoring_reporting_text, 1, 500)
        if (v := u.violations) is not None:
            for code in v.standards_limits_parameter_codes:
                length(f"{who}: SNCPretrStndLimitsParameterCode", code, 1, 5)
            length(f"{who}: SNCRelPOTWDischOperText", v.potw_discharge_operations_text, 1, 4000)
            length(
                f"{who}: SNCRelPOTWBioOperSewgSludMgmtText",
                v.potw_biosolids_operations_text,
                1,
                4000,
            )
            for month in v.listing_months:
                if len(month) != 7 or "*" in month:
                    out.append(f"{who}: SNCListingMonthYear {month!r}: seven characters")
        if (e := u.enforcement) is not None:
            for a in e.actions:
                if not 1 <= len(a.type_code) <= 3:
                    out.append(f"{who}: IUEnfActionTypeCode {a.type_code!r}: 1–3 characters")
                length(f"{who}: IUEnfActionTypeOtherText", a.other_text, 1, 500)
                count(f"{who}: NumIUEnfActions", a.count)
            money(f"{who}: IUCashCivilPenaltyAmountAssessed", e.penalties_assessed)
            money(f"{who}: IUCashCivilPenaltyAmountCollected", e.penalties_collected)
    return out
