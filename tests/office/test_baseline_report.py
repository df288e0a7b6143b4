"""The baseline monitoring report's elements (40 CFR 403.12(b)(1)-(7)): written once in the law
package, each given or explained before a report is signed, and the same checklist for a paper
report the clerk records received — with a BASELINE_INCOMPLETE finding, once per due date, when
an element is neither given nor explained."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.models import AuditEvent
from sewer_office.enforcement.grounds import finding_refusal
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.pretreatment import baseline as checklists
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.models import BaselineChecklist, ReportDue
from sewer_office.reports import baseline, services, statements
from sewer_rules.federal import cfr403_baseline as rule

from .factories import PASSWORD, Town
from .pretreatment_factories import at, sup
from .smtp_support import Inbox
from .test_reports_permissions import code_from, setup

pytestmark = pytest.mark.django_db

COMPLETE = {
    "permits_held": "none",
    "operations": "Espresso and pastries; dishwashing.",
    "sic_codes": "5812",
    "production_rate": "400 meals a day",
    "standards_applicable": "None categorical: the Town's local limits (§ 196-19 C).",
    "average_flow_gpd": 800,
    "maximum_flow_gpd": 1200,
    "meets_standards": True,
    "additional_measures": "",
    "compliance_schedule": "",
}
ALL_GIVEN = {code: {"answer": "given", "text": f"page {i}"} for i, code in enumerate(
    ("b1", "b2", "b3", "b4", "b5", "b6"), start=1
)} | {"b7": {"answer": "explained", "text": "The standards are met: no schedule is needed."}}  # fmt: skip


def _due(town: Town) -> ReportDue:
    f, _ = setup(town)
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="baseline", first_due=date(2026, 7, 31), every_months=0,
        at=at("2026-01-02"),
    )  # fmt: skip
    return ReportDue.objects.get(requirement=req)


def _diagram() -> SimpleUploadedFile:
    return SimpleUploadedFile("plant.pdf", b"%PDF-1.4\n% diagram\n", content_type="application/pdf")


def _sign(town: Town, smtp: Inbox, report: Any) -> None:
    owner = town.u("owner")
    services.send_code(owner, report)
    services.sign(owner, report, password=PASSWORD, code=code_from(smtp))


def test_the_elements_are_written_once_in_the_law_package() -> None:
    assert [e.citation for e in rule.ELEMENTS] == [f"40 CFR 403.12(b)({n})" for n in range(1, 8)]
    assert [i.element for i in baseline.ITEMS] == list(rule.ELEMENTS)  # the office's are these
    assert rule.elements_on(date(2026, 7, 31)) == rule.ELEMENTS
    with pytest.raises(ValueError, match="no version"):
        rule.elements_on(date(2001, 1, 1))
    entries, problems = rule.read_entries(
        {"b1": {"answer": "given", "text": ""}, "b2": {"answer": "explained"}, "b9": {}}
    )
    assert set(problems) == {"b1", "b2", "b9"}
    assert "say what the report gives" in problems["b1"] and "why" in problems["b2"]
    assert [e.code for e in rule.missing(entries)] == ["b1", "b2", "b3", "b4", "b5", "b6", "b7"]


def test_signing_is_refused_naming_the_missing_element(
    town: Town, smtp: Inbox, monkeypatch: Any
) -> None:
    due = _due(town)
    owner = town.u("owner")
    statements.save_statement(owner, due, {**COMPLETE, "average_flow_gpd": None})
    statements.attach_files(owner, due, [_diagram()], baseline.DIAGRAM)
    with pytest.raises(InvalidInput) as refused:
        services.assemble(owner, due)
    [lack] = refused.value.errors["baseline"]
    assert lack.startswith("Flow measurement (40 CFR 403.12(b)(4)): the average daily flow")
    # assembled as if complete, the signing step refuses it all the same, naming the element
    monkeypatch.setattr(baseline, "missing", lambda data: [])
    report = services.assemble(owner, due)
    monkeypatch.undo()
    services.send_code(owner, report)
    with pytest.raises(InvalidInput) as refused:
        services.sign(owner, report, password=PASSWORD, code=code_from(smtp))
    assert refused.value.errors["baseline"] == [lack]
    assert not hasattr(report, "signature")


def test_an_element_explained_is_enough_to_sign_and_the_office_keeps_the_checklist(
    town: Town, smtp: Inbox
) -> None:
    due = _due(town)
    owner = town.u("owner")
    statements.save_statement(
        owner,
        due,
        {
            **COMPLETE,
            "average_flow_gpd": None,
            "maximum_flow_gpd": None,
            "explain_b4": "A new source: the flows are estimated after the first month.",
        },
    )
    with pytest.raises(InvalidInput) as refused:  # the diagram is still missing
        services.assemble(owner, due)
    assert [m.split(":")[0] for m in refused.value.errors["baseline"]] == [
        "Description of operations (40 CFR 403.12(b)(3))"
    ]
    statements.attach_files(owner, due, [_diagram()], baseline.DIAGRAM)
    report = services.assemble(owner, due)
    data = json.loads(report.data)
    assert data["baseline"]["explanations"] == {
        "b4": "A new source: the flows are estimated after the first month."
    }
    assert data["results"][0]["sample_type"] == "grab"
    _sign(town, smtp, report)
    services.review(town.u("clerk"), report, accept=True)
    checklist = BaselineChecklist.objects.get(due=due)
    assert checklist.source == "signed" and checklist.report_ref == f"RPT-{report.pk}"
    assert checklist.missing == [] and checklist.complete
    assert checklist.entries["b4"]["answer"] == "explained"
    assert checklist.entries["b3"] == {
        "answer": "given",
        "text": f"given in the signed report RPT-{report.pk}",
        "file": "Process diagram: plant.pdf",
        "title": "Description of operations",
        "citation": "40 CFR 403.12(b)(3)",
    }
    assert checklist.entries["b7"]["answer"] == "explained"  # standards met: no schedule
    assert not Finding.objects.filter(kind=FindingKind.BASELINE_INCOMPLETE).exists()


def test_a_paper_report_incomplete_is_a_finding_once(town: Town) -> None:
    due = _due(town)
    clerk = town.u("clerk")
    entries = {**ALL_GIVEN, "b4": {"answer": "missing"}, "b5": {"answer": "missing"}}
    report_dues.record_received(
        clerk,
        due,
        date(2026, 7, 20),
        "by mail",
        at=at("2026-07-21"),
        checklist=checklists.Filing(entries),
    )
    checklist = BaselineChecklist.objects.get(due=due)
    assert checklist.source == "paper" and checklist.missing == ["b4", "b5"]
    assert checklist.missing_text == (
        "Flow measurement (40 CFR 403.12(b)(4)); Measurement of pollutants (40 CFR 403.12(b)(5))"
    )
    [finding] = Finding.objects.filter(kind=FindingKind.BASELINE_INCOMPLETE)
    assert (
        finding.citation == "40 CFR 403.12(b)" and finding.establishment_id == due.establishment_id
    )
    assert "Flow measurement (40 CFR 403.12(b)(4))" in finding.message
    assert "Measurement of pollutants (40 CFR 403.12(b)(5))" in finding.message
    assert finding_refusal(finding) is None  # a violation of the user: it may be opened
    assert AuditEvent.objects.filter(action="record_baseline_checklist").count() == 1
    # recorded once: the report stays received, the finding stays one
    with pytest.raises(Blocked, match="already recorded as received"):
        report_dues.record_received(
            clerk, due, date(2026, 7, 22), checklist=checklists.Filing(ALL_GIVEN)
        )
    assert Finding.objects.filter(kind=FindingKind.BASELINE_INCOMPLETE).count() == 1
    # written once
    from sewer_office.core.models import ImmutableRecord

    with pytest.raises(ImmutableRecord):
        checklist.save()


def test_a_paper_report_answering_every_element_is_no_finding(town: Town) -> None:
    due = _due(town)
    scan = SimpleUploadedFile(
        "report.pdf", b"%PDF-1.4\n% the paper\n", content_type="application/pdf"
    )
    entries = {**ALL_GIVEN, "b2": {"answer": "given", "text": ""}}  # given: in the scan
    report_dues.record_received(
        town.u("clerk"), due, date(2026, 7, 20), checklist=checklists.Filing(entries, scan=scan)
    )
    checklist = BaselineChecklist.objects.get(due=due)
    assert checklist.complete and checklist.scan is not None
    assert checklist.entries["b2"]["file"] == "Paper report: report.pdf"
    assert not Finding.objects.filter(kind=FindingKind.BASELINE_INCOMPLETE).exists()


def test_a_baseline_report_is_received_with_its_checklist(town: Town) -> None:
    due = _due(town)
    clerk = town.u("clerk")
    with pytest.raises(InvalidInput) as refused:
        report_dues.record_received(clerk, due, date(2026, 7, 20))
    assert "checklist of 40 CFR 403.12(b)" in refused.value.errors["checklist"][0]
    bad = {**ALL_GIVEN, "b6": {"answer": "given"}, "b7": {"answer": "explained"}}
    with pytest.raises(InvalidInput) as refused:
        report_dues.record_received(clerk, due, date(2026, 7, 20), checklist=checklists.Filing(bad))
    problems = refused.value.errors["checklist"]
    assert problems[0].startswith("Certification (40 CFR 403.12(b)(6)): say what")
    assert problems[1].startswith("Compliance schedule (40 CFR 403.12(b)(7)): say why")
    due.refresh_from_db()
    assert due.received_on is None and not BaselineChecklist.objects.exists()


def test_a_signed_report_reaching_the_office_incomplete_is_a_finding(
    town: Town, smtp: Inbox, monkeypatch: Any
) -> None:
    """A report signed under an earlier check (here: without the standards that apply) is
    accepted as received, and its checklist finds the element missing."""
    due = _due(town)
    owner = town.u("owner")
    statements.save_statement(owner, due, {**COMPLETE, "standards_applicable": ""})
    statements.attach_files(owner, due, [_diagram()], baseline.DIAGRAM)
    monkeypatch.setattr(baseline, "missing", lambda data: [])
    report = services.assemble(owner, due)
    _sign(town, smtp, report)
    monkeypatch.undo()
    services.review(town.u("clerk"), report, accept=True)
    assert BaselineChecklist.objects.get(due=due).missing == ["b5"]
    [finding] = Finding.objects.filter(kind=FindingKind.BASELINE_INCOMPLETE)
    assert "Measurement of pollutants (40 CFR 403.12(b)(5))" in finding.message


def test_the_clerks_page_records_the_checklist(town: Town, login: Any) -> None:
    due = _due(town)
    assert (
        login("owner").get(f"/pretreatment/reports/{due.pk}/baseline-received/").status_code == 403
    )
    clerk = login("clerk")
    facility = clerk.get(f"/pretreatment/facilities/{due.establishment_id}/").content.decode()
    assert f"/pretreatment/reports/{due.pk}/baseline-received/" in facility
    page = clerk.get(f"/pretreatment/reports/{due.pk}/baseline-received/").content.decode()
    for e in rule.ELEMENTS:
        assert e.citation in page
    form = {"received_on": "2026-07-20", "note": "by hand"}
    for code, entry in ALL_GIVEN.items():
        form[f"answer_{code}"] = entry["answer"]
        form[f"text_{code}"] = entry["text"]
    form["answer_b4"], form["text_b4"] = "missing", ""
    r = clerk.post(f"/pretreatment/reports/{due.pk}/baseline-received/", form, follow=True)
    text = re.sub(r"<[^>]+>", "", r.content.decode())
    assert "it is not complete" in text
    assert "incomplete (40 CFR 403.12(b)): Flow measurement (40 CFR 403.12(b)(4))" in text
    assert Finding.objects.filter(kind=FindingKind.BASELINE_INCOMPLETE).count() == 1


def test_the_facilitys_due_page_shows_each_element_and_its_explanation(
    town: Town, login: Any
) -> None:
    due = _due(town)
    owner = login("owner")
    form = {k: ("" if v is None else v) for k, v in COMPLETE.items()}
    form["meets_standards"] = "true"
    form["average_flow_gpd"] = ""
    form["explain_b4"] = "Estimated after the first month."
    assert owner.post(f"/reports/due/{due.pk}/", form).status_code == 302
    page = owner.get(f"/reports/due/{due.pk}/").content.decode()
    assert 'data-element="b4" data-answer="explained"' in page
    assert "explained: Estimated after the first month." in page
    assert 'data-element="b3" data-answer="missing"' in page  # no diagram yet
    assert 'data-element="b1" data-answer="given"' in page
