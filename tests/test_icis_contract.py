"""The ICIS-NPDES XML writer (sewer_io.icis) against our reading of EPA's schema 5.14.

:data:`SEQUENCES` and :data:`TYPES` are this test's own table, written from reading
ICIS_PretreatmentProgramReport_v5.14.xsd (each complex type's ``xsd:sequence``),
ICIS_KeyElements_v5.14.xsd (PretreatmentProgramReportKeyElements: PermitIdentifier, then
ProgramReportFormSetID), ICIS_Header_v5.14.xsd and ICIS_Common_v5.14.xsd (the simple types):
the element names, their order within each parent and the types the office relies on. The
writer's output is checked against it element by element; the writer's own order table must
agree. With ``ICIS_XSD_DIR`` set, the same documents are validated against EPA's XSD itself.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from sewer_io import icis
from sewer_io.icis import (
    ActionCount,
    ComplianceMonitoring,
    Contamination,
    Enforcement,
    Header,
    IcisValueError,
    IndustrialUser,
    ProgramInformation,
    ProgramReport,
    Violations,
    write_document,
)

from .icis_schema import needs_xsd, validate

NS = "{http://www.exchangenetwork.net/schema/icis/5}"

#: Parent → its children in the schema's order (ours, from the XSD text).
SEQUENCES: dict[str, list[str]] = {
    "Document": ["Header", "Payload"],
    "Header": ["Id", "Author", "Organization", "Title", "CreationTime", "Comment",
               "DataService", "ContactInfo", "Property"],
    "Property": ["name", "value"],
    "Payload": ["PretreatmentProgramReportData"],
    "PretreatmentProgramReportData": ["TransactionHeader", "PretreatmentProgramReport"],
    "TransactionHeader": ["TransactionType", "TransactionTimestamp"],
    "PretreatmentProgramReport": [
        "PermitIdentifier", "ProgramReportFormSetID", "ProgramReportFormID",
        "ProgramReportReceivedDate", "ProgramReportStartDate", "ProgramReportEndDate",
        "ElectronicSubmissionTypeCode", "ProgramReportNPDESDataGroupNumberCode",
        "ControlAuthorityProgramInformation", "IndustrialUserInventory"],
    "ControlAuthorityProgramInformation": [
        "LocalLimitsAdoptionDate", "LocalLimitsEvaluationDate", "LocalLimitsParameters",
        "POTWDischargeContamination", "POTWBiosolidsContamination"],
    "LocalLimitsParameters": ["LocalLimitsParameterCode"],
    "POTWDischargeContamination": ["POTWDischargeContaminationIndicator",
                                   "POTWDischargeContaminationText"],
    "POTWBiosolidsContamination": ["POTWBiosolidsContaminationIndicator",
                                   "POTWBiosolidsContaminationText"],
    "IndustrialUserInventory": ["IndustrialUserIndicator", "IndustrialUserInformation"],
    "IndustrialUserInformation": [
        "PermitIdentifier", "IUAverageDailyWastewaterFlowRateGPD",
        "IUAverageDailyProcessWastewaterFlowRateGPD", "IUSubjectLocalLimitsIndicator",
        "IUSubjectLocalLimitsMoreStringentCatStdIndicator",
        "MTCIUSubjectReducedReportingIndicator", "IUComplianceMonitoring",
        "IUViolationInformation", "IUEnforcementActionInformation"],
    "IUComplianceMonitoring": [
        "NumberIUInspectionsByCA", "NumberIUSamplingEventsByCA",
        "NumberReqdIUSelfMonEventsMaximum", "IUComplyReqSelfMonRptingIndicator",
        "IUComplyReqSelfMonRptingText", "NSCIUCertSubmToCAIndicator",
        "ChangedDischSubmIndicator"],
    "IUViolationInformation": [
        "SNCPretrStndLimitsIndicator", "SNCPretrStndLimitsParameters", "SNCRptRqmtIndicator",
        "SNCOthCtrlMechRqmtIndicator", "SNCRelPOTWDischOperIndicator",
        "SNCRelPOTWDischOperText", "SNCRelPOTWBioOperSewgSludMgmtIndicator",
        "SNCRelPOTWBioOperSewgSludMgmtText", "SNCListingMonths", "SNCPublishedIndicator"],
    "SNCPretrStndLimitsParameters": ["SNCPretrStndLimitsParameterCode"],
    "SNCListingMonths": ["SNCListingMonthYear"],
    "IUEnforcementActionInformation": [
        "IUEnfActionTypes", "SNCPretrEnfCmplSchedStatusIndicator",
        "IUCashCivilPenaltyAmountAssessed", "IUCashCivilPenaltyAmountCollected"],
    "IUEnfActionTypes": ["IUEnfActionTypeCode", "IUEnfActionTypeOtherText", "NumIUEnfActions"],
}  # fmt: skip
#: Elements that may repeat (maxOccurs unbounded) within their parent.
REPEATED = {
    "Payload", "Property", "LocalLimitsParameterCode", "IndustrialUserInformation",
    "SNCPretrStndLimitsParameterCode", "SNCListingMonthYear", "IUEnfActionTypes",
}  # fmt: skip
#: Elements a parent must hold whenever it is written (the rest are minOccurs="0").
REQUIRED = {
    "Document": {"Header", "Payload"},
    "Header": {"Id"},
    "PretreatmentProgramReport": {"PermitIdentifier", "ProgramReportFormSetID"},
    "TransactionHeader": {"TransactionType"},
    "IndustrialUserInformation": {"PermitIdentifier"},
    "POTWDischargeContamination": {"POTWDischargeContaminationIndicator"},
    "POTWBiosolidsContamination": {"POTWBiosolidsContaminationIndicator"},
    "IUEnfActionTypes": {"IUEnfActionTypeCode"},
}

YN = r"[YN]"
DATE = r"\d{4}-\d{2}-\d{2}"
COUNT = r"(0|[1-9]\d{0,2}|1000)"  # IntegerRange0To1000Type
FLOW = r"(0|[1-9]\d{0,8})"  # NonNegativeIntegerMin1Max9Type
MONEY = r"\d{1,12}\.\d{2}"  # DecimalRange0To999999999999.99Type, written with 2 decimals
#: Leaf → the form its text must have (the simple type the schema gives it, as we write it).
TYPES: dict[str, str] = {
    "Id": r".{3,30}",
    "TransactionType": r"[NR]",
    "TransactionTimestamp": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?",
    "CreationTime": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?",
    "PermitIdentifier": r"[^*]{9}",  # String9FixedTypeBase
    "ProgramReportFormSetID": r".{1,50}",
    "ProgramReportFormID": r"[1-9]\d{0,14}",
    "ProgramReportReceivedDate": DATE,
    "ProgramReportStartDate": DATE,
    "ProgramReportEndDate": DATE,
    "ElectronicSubmissionTypeCode": r"[^*]{1,3}",
    "ProgramReportNPDESDataGroupNumberCode": r".{1,3}",
    "LocalLimitsAdoptionDate": DATE,
    "LocalLimitsEvaluationDate": DATE,
    "LocalLimitsParameterCode": r".{1,5}",
    "POTWDischargeContaminationIndicator": YN,
    "POTWDischargeContaminationText": r".{1,500}",
    "POTWBiosolidsContaminationIndicator": YN,
    "POTWBiosolidsContaminationText": r".{1,500}",
    "IndustrialUserIndicator": YN,
    "IUAverageDailyWastewaterFlowRateGPD": FLOW,
    "IUAverageDailyProcessWastewaterFlowRateGPD": FLOW,
    "IUSubjectLocalLimitsIndicator": YN,
    "IUSubjectLocalLimitsMoreStringentCatStdIndicator": YN,
    "MTCIUSubjectReducedReportingIndicator": YN,
    "NumberIUInspectionsByCA": COUNT,
    "NumberIUSamplingEventsByCA": COUNT,
    "NumberReqdIUSelfMonEventsMaximum": COUNT,
    "IUComplyReqSelfMonRptingIndicator": r"[^*]",  # String1FixedType: we write Y or N
    "IUComplyReqSelfMonRptingText": r".{1,500}",
    "NSCIUCertSubmToCAIndicator": YN,
    "ChangedDischSubmIndicator": YN,
    "SNCPretrStndLimitsIndicator": YN,
    "SNCPretrStndLimitsParameterCode": r".{1,5}",
    "SNCRptRqmtIndicator": YN,
    "SNCOthCtrlMechRqmtIndicator": YN,
    "SNCRelPOTWDischOperIndicator": YN,
    "SNCRelPOTWDischOperText": r".{1,4000}",
    "SNCRelPOTWBioOperSewgSludMgmtIndicator": YN,
    "SNCRelPOTWBioOperSewgSludMgmtText": r".{1,4000}",
    "SNCListingMonthYear": r"[^*]{7}",  # String7FixedType
    "SNCPublishedIndicator": YN,
    "IUEnfActionTypeCode": r".{1,3}",
    "IUEnfActionTypeOtherText": r".{1,500}",
    "NumIUEnfActions": COUNT,
    "SNCPretrEnfCmplSchedStatusIndicator": YN,
    "IUCashCivilPenaltyAmountAssessed": MONEY,
    "IUCashCivilPenaltyAmountCollected": MONEY,
    "Author": r".+",
    "Organization": r".+",
    "Title": r".+",
    "Comment": r".+",
    "ContactInfo": r".+",
    "name": r"e-mail|Source",
    "value": r".+",
}

HEADER = Header(
    id="sewer-use",
    author="Sam Superintendent",
    organization="Demo town",
    title="Annual pretreatment report 2025",
    creation_time=datetime(2026, 1, 15, 9, 0, tzinfo=UTC),
    comment="test",
    contact_info="sewer@example.org",
    properties=(("Source", "sewer-use"), ("e-mail", "sewer@example.org")),
)


def full_user(pid: str = "NYP000001") -> IndustrialUser:
    return IndustrialUser(
        permit_identifier=pid,
        average_daily_flow_gpd=12345,
        average_daily_process_flow_gpd=8000,
        subject_to_local_limits=True,
        local_limits_more_stringent_than_categorical=False,
        reduced_reporting=False,
        monitoring=ComplianceMonitoring(2, 3, 64, False, "10 of 64", True, False),
        violations=Violations(
            standards_limits=True,
            standards_limits_parameter_codes=("01042", "01092"),
            reporting=True,
            other_requirement=False,
            potw_discharge_operations=True,
            potw_discharge_operations_text="(C) 2025-03-04: upset",
            potw_biosolids_operations=False,
            potw_biosolids_operations_text="none",
            listing_months=("01/2025", "02/2025"),
            published=False,
        ),
        enforcement=Enforcement(
            actions=(ActionCount("NOV", 2), ActionCount("AO", 1, "order")),
            snc_compliance_schedule=True,
            penalties_assessed=Decimal("2000.00"),
            penalties_collected=Decimal("500.00"),
        ),
    )


def full_report(**kw: object) -> ProgramReport:
    values: dict[str, object] = {
        "permit_identifier": "NY0000000",
        "form_set_id": "PPR-20250101-20251231",
        "start": date(2025, 1, 1),
        "end": date(2025, 12, 31),
        "received": date(2026, 1, 20),
        "form_id": 42,
        "electronic_submission_type_code": "E",
        "data_group_code": "1",
        "program": ProgramInformation(
            date(1992, 9, 28),
            date(2020, 6, 1),
            ("00720", "00400"),
            Contamination(True, "copper in effluent"),
            Contamination(False),
        ),
        "industrial_users": (full_user(), full_user("NYP000002")),
        "transaction_type": "N",
        "transaction_timestamp": datetime(2026, 1, 15, 9, 0, tzinfo=UTC),
    }
    values.update(kw)
    return ProgramReport(**values)  # type: ignore[arg-type]


def parse(content: bytes) -> ET.Element:
    return ET.fromstring(content)


def local(tag: str) -> str:
    assert tag.startswith(NS), f"{tag} is not in the ICIS namespace"
    return tag[len(NS) :]


def check_tree(root: ET.Element) -> list[str]:
    """Every parent's children in the schema's order, required ones present, repeats only where
    allowed, and every leaf's text of its type: the problems found (empty: conforms)."""
    problems: list[str] = []

    def walk(el: ET.Element) -> None:
        name = local(el.tag)
        kids = [local(c.tag) for c in el]
        if name in SEQUENCES:
            order = SEQUENCES[name]
            unknown = [k for k in kids if k not in order]
            if unknown:
                problems.append(f"{name}: unknown children {unknown}")
            idx = [order.index(k) for k in kids if k in order]
            if idx != sorted(idx):
                problems.append(f"{name}: children out of order {kids}")
            for k in set(kids):
                if kids.count(k) > 1 and k not in REPEATED:
                    problems.append(f"{name}: {k} repeated")
            missing = REQUIRED.get(name, set()) - set(kids)
            if missing:
                problems.append(f"{name}: missing {sorted(missing)}")
            if not kids:
                problems.append(f"{name}: written empty")
        else:
            text = el.text or ""
            form = TYPES.get(name)
            if form is None:
                problems.append(f"{name}: a leaf not in the table")
            elif not re.fullmatch(form, text):
                problems.append(f"{name}: {text!r} is not of the form {form}")
        for c in el:
            walk(c)

    walk(root)
    return problems


def test_the_writers_order_is_our_reading_of_the_schema() -> None:
    assert {k: list(v) for k, v in icis.ORDER.items()} == SEQUENCES


def test_a_full_report_conforms_element_by_element() -> None:
    content = write_document(full_report(), HEADER)
    assert content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns=')
    root = parse(content)
    assert check_tree(root) == []
    payload = root.find(f"{NS}Payload")
    assert payload is not None and payload.get("Operation") == "PretreatmentProgramReportSubmission"
    users = root.findall(f".//{NS}IndustrialUserInformation")
    assert [u.findtext(f"{NS}PermitIdentifier") for u in users] == ["NYP000001", "NYP000002"]
    assert root.findtext(f".//{NS}IndustrialUserIndicator") == "Y"
    first = users[0]
    assert [m.text for m in first.iter(f"{NS}SNCListingMonthYear")] == ["01/2025", "02/2025"]
    assert first.findtext(f".//{NS}IUCashCivilPenaltyAmountAssessed") == "2000.00"
    assert first.findtext(f".//{NS}IUAverageDailyWastewaterFlowRateGPD") == "12345"
    types = [(t.findtext(f"{NS}IUEnfActionTypeCode"), t.findtext(f"{NS}NumIUEnfActions"))
             for t in first.iter(f"{NS}IUEnfActionTypes")]  # fmt: skip
    assert types == [("NOV", "2"), ("AO", "1")]


def test_only_elements_with_values_are_written() -> None:
    sparse = ProgramReport(
        permit_identifier="NY0000000",
        form_set_id="PPR-1",
        industrial_users=(IndustrialUser("NYP000001", monitoring=ComplianceMonitoring(0)),),
    )
    root = parse(write_document(sparse, Header(id="abc")))
    assert check_tree(root) == []
    names = {local(e.tag) for e in root.iter()}
    for absent in ("ProgramReportStartDate", "ControlAuthorityProgramInformation",
                   "IUViolationInformation", "IUEnforcementActionInformation",
                   "NumberIUSamplingEventsByCA", "Author", "TransactionTimestamp"):  # fmt: skip
        assert absent not in names, absent
    assert root.findtext(f".//{NS}NumberIUInspectionsByCA") == "0"  # a zero is a value
    assert root.findtext(f".//{NS}TransactionType") == "N"


def test_the_inventory_says_whether_it_lists_users() -> None:
    none = parse(write_document(full_report(industrial_users=()), HEADER))
    assert none.findtext(f".//{NS}IndustrialUserIndicator") == "N"
    assert none.find(f".//{NS}IndustrialUserInformation") is None
    assert check_tree(none) == []
    omitted = parse(write_document(full_report(industrial_users=None), HEADER))
    assert omitted.find(f".//{NS}IndustrialUserInventory") is None


def test_values_the_schema_refuses_are_all_listed() -> None:
    bad_user = IndustrialUser(
        "NYP00001",  # 8 characters
        average_daily_flow_gpd=1_000_000_000,
        monitoring=ComplianceMonitoring(inspections_by_ca=1001, sampling_events_by_ca=-1),
        violations=Violations(listing_months=("1/2025",)),
        enforcement=Enforcement(
            actions=(ActionCount("ABCD", 1),),
            penalties_assessed=Decimal("10.005"),
            penalties_collected=Decimal("-1.00"),
        ),
    )
    with pytest.raises(IcisValueError) as e:
        write_document(
            full_report(permit_identifier="NY*000000", industrial_users=(bad_user,),
                        transaction_type="C"),
            Header(id="ab"),
        )  # fmt: skip
    text = "\n".join(e.value.problems)
    for expected in (
        "Id 'ab'",
        "TransactionType 'C'",
        "PermitIdentifier 'NY*000000'",
        "NYP00001: PermitIdentifier",
        "IUAverageDailyWastewaterFlowRateGPD 1000000000",
        "NumberIUInspectionsByCA 1001",
        "NumberIUSamplingEventsByCA -1",
        "SNCListingMonthYear '1/2025'",
        "IUEnfActionTypeCode 'ABCD'",
        "IUCashCivilPenaltyAmountAssessed 10.005",
        "IUCashCivilPenaltyAmountCollected -1.00",
    ):
        assert expected in text, expected


def test_money_has_two_decimals_and_counts_reach_1000() -> None:
    user = IndustrialUser(
        "NYP000001",
        monitoring=ComplianceMonitoring(1000, 1000, 1000),
        enforcement=Enforcement(penalties_assessed=Decimal("5"), penalties_collected=Decimal("0")),
    )
    root = parse(write_document(full_report(industrial_users=(user,)), HEADER))
    assert root.findtext(f".//{NS}IUCashCivilPenaltyAmountAssessed") == "5.00"
    assert root.findtext(f".//{NS}IUCashCivilPenaltyAmountCollected") == "0.00"
    assert root.findtext(f".//{NS}NumberIUInspectionsByCA") == "1000"
    assert check_tree(root) == []


@needs_xsd
def test_hand_built_reports_validate_against_epas_schema() -> None:
    validate(write_document(full_report(), HEADER))
    validate(write_document(full_report(industrial_users=()), Header(id="abc")))
    sparse = ProgramReport(permit_identifier="NY0000000", form_set_id="PPR-1")
    validate(write_document(sparse, Header(id="abc")))


@needs_xsd
def test_the_schema_refuses_what_the_contract_refuses() -> None:
    """The table's reading of the schema, checked on the schema itself: a month of six
    characters and a count of 1001 are invalid there too (written past the writer's checks)."""
    import xmlschema

    root = parse(write_document(full_report(), HEADER))
    month = root.find(f".//{NS}SNCListingMonthYear")
    assert month is not None
    month.text = "1/2025"
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        validate(ET.tostring(root))
    month.text = "01/2025"
    count = root.find(f".//{NS}NumberIUInspectionsByCA")
    assert count is not None
    count.text = "1001"
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        validate(ET.tostring(root))
