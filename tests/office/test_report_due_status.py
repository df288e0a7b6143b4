"""A signed report meets its due date at once: "submitted, in review" (never "overdue") on the
facility's home, the office's lists and the due date's page, until the review accepts it
(received) or rejects it (due again, with the reason). A baseline report (40 CFR 403.12(b))
lacking an item is refused at assembly and at signing, item by item; files sent with a report
are listed on its pages and in the signed copy's data."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.pretreatment import report_dues, snc
from sewer_office.pretreatment.models import ReportDue
from sewer_office.pretreatment.status import IN_REVIEW, OVERDUE, RECEIVED, status_of
from sewer_office.reports import baseline, services, statements

from .factories import PASSWORD, Town
from .pretreatment_factories import at, sup
from .smtp_support import Inbox
from .test_reports_permissions import code_from, setup

pytestmark = pytest.mark.django_db

AFTER_DUE = date(2026, 9, 1)


def _sign(town: Town, smtp: Inbox, due: ReportDue) -> Any:
    owner = town.u("owner")
    report = services.assemble(owner, due)
    services.send_code(owner, report)
    services.sign(owner, report, password=PASSWORD, code=code_from(smtp))
    return report


def _panel(html: str) -> str:
    return html.split('id="reports-next"')[1].split("</section>")[0]


def test_a_signed_report_is_in_review_not_overdue_until_the_review(
    town: Town, smtp: Inbox, login: Any
) -> None:
    _, due = setup(town)
    assert status_of(due, AFTER_DUE).code == OVERDUE
    assert due in report_dues.late_dues(AFTER_DUE)
    report = _sign(town, smtp, due)
    standing = status_of(due, AFTER_DUE)
    assert standing.code == IN_REVIEW and standing.report_id == report.pk
    assert due not in report_dues.late_dues(AFTER_DUE)  # no REPORT_LATE finding either
    assert report_dues.flag_late_reports(AFTER_DUE) == 0
    owner = login("owner")
    home = _panel(owner.get("/").content.decode())
    assert "submitted, in review" in home and "overdue" not in home
    for url in ("/reports/", f"/reports/due/{due.pk}/"):
        page = owner.get(url).content.decode()
        assert "submitted, in review" in page, url
    clerk = login("clerk")
    for url in (
        "/reports/",
        f"/reports/due/{due.pk}/",
        f"/pretreatment/facilities/{due.establishment_id}/",
    ):
        page = clerk.get(url).content.decode()
        assert "submitted, in review" in page, url
    # rejected: due again, with the office's reason
    services.review(town.u("clerk"), report, accept=False, reason="Flow of May missing")
    again = status_of(due, AFTER_DUE)
    assert again.code == OVERDUE and "Flow of May missing" in again.text
    home = _panel(login("owner").get("/").content.decode())
    assert "the office rejected the report (Flow of May missing)" in home
    # signed again and accepted: received
    second = _sign(town, smtp, due)
    standing = status_of(due, AFTER_DUE)
    assert (standing.code, standing.report_id) == (IN_REVIEW, second.pk)
    assert not standing.rejected_reason or standing.code == IN_REVIEW
    assert due not in report_dues.late_dues(AFTER_DUE)
    services.review(town.u("clerk"), second, accept=True)
    due.refresh_from_db()
    assert status_of(due, AFTER_DUE).code == RECEIVED


def _baseline_due(town: Town) -> ReportDue:
    f, _ = setup(town)
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="baseline", first_due=date(2026, 7, 31), every_months=0,
        at=at("2026-01-02"),
    )  # fmt: skip
    return ReportDue.objects.get(requirement=req)


def _pdf(name: str = "plant.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"%PDF-1.4\n% a diagram\n", content_type="application/pdf")


COMPLETE = {
    "permits_held": "none",
    "operations": "Espresso and pastries; dishwashing.",
    "sic_codes": "5812",
    "production_rate": "400 meals a day",
    "standards_applicable": "The Town's local limits (none categorical).",
    "average_flow_gpd": 800,
    "maximum_flow_gpd": 1200,
    "meets_standards": True,
    "additional_measures": "",
    "compliance_schedule": "",
}


def test_an_empty_baseline_report_is_refused_item_by_item(town: Town, smtp: Inbox) -> None:
    due = _baseline_due(town)
    owner = town.u("owner")
    with pytest.raises(InvalidInput) as refused:
        services.assemble(owner, due)
    lacks = refused.value.errors["baseline"]
    for cite in ("403.12(b)(2)", "403.12(b)(3)", "403.12(b)(4)", "403.12(b)(6)"):
        assert any(cite in m for m in lacks), (cite, lacks)
    assert any("schematic process diagram" in m for m in lacks)
    assert not any("403.12(b)(1)" in m or "403.12(b)(7)" in m for m in lacks)
    # not meeting the standards asks for the measures and the compliance schedule
    statements.save_statement(owner, due, {**COMPLETE, "meets_standards": False})
    statements.attach_files(owner, due, [_pdf()], baseline.DIAGRAM)
    with pytest.raises(InvalidInput) as refused:
        services.assemble(owner, due)
    lacks = refused.value.errors["baseline"]
    assert [m.split(":")[0] for m in lacks] == [
        "Certification (40 CFR 403.12(b)(6))",
        "Compliance schedule (40 CFR 403.12(b)(7))",
    ]
    statements.save_statement(
        owner,
        due,
        {
            **COMPLETE,
            "meets_standards": False,
            "additional_measures": "An oil-water separator.",
            "compliance_schedule": "Installed by 2026-10-31.",
        },
    )
    report = services.assemble(owner, due)
    data = json.loads(report.data)
    assert data["baseline"]["compliance_schedule"] == "Installed by 2026-10-31."
    [sent] = data["attachments"]
    assert sent["title"] == "Process diagram: plant.pdf" and len(sent["sha256"]) == 64
    services.send_code(owner, report)
    services.sign(owner, report, password=PASSWORD, code=code_from(smtp))


def test_an_incomplete_baseline_report_cannot_be_signed(
    town: Town, smtp: Inbox, monkeypatch: Any
) -> None:
    due = _baseline_due(town)
    owner = town.u("owner")
    monkeypatch.setattr(baseline, "missing", lambda data: [])
    report = services.assemble(owner, due)  # as assembled before the rule was checked
    monkeypatch.undo()
    services.send_code(owner, report)
    with pytest.raises(InvalidInput) as refused:
        services.sign(owner, report, password=PASSWORD, code=code_from(smtp))
    assert any("403.12(b)(3)" in m for m in refused.value.errors["baseline"])
    assert not hasattr(report, "signature")


def test_the_statement_and_files_are_the_facilitys_while_open(town: Town, smtp: Inbox) -> None:
    due = _baseline_due(town)
    with pytest.raises(Forbidden):
        statements.save_statement(town.u("clerk"), due, COMPLETE)
    with pytest.raises(Forbidden):
        statements.attach_files(town.u("other"), due, [_pdf()], baseline.DIAGRAM)
    with pytest.raises(InvalidInput, match="maximum daily flow"):
        statements.save_statement(
            town.u("owner"), due, {**COMPLETE, "average_flow_gpd": 900, "maximum_flow_gpd": 100}
        )
    with pytest.raises(InvalidInput, match="not a PDF"):
        statements.attach_files(
            town.u("owner"), due, [SimpleUploadedFile("x.pdf", b"MZ\x90\x00")], "Other"
        )
    statements.save_statement(town.u("owner"), due, COMPLETE)
    statements.attach_files(town.u("owner"), due, [_pdf()], baseline.DIAGRAM)
    _sign(town, smtp, due)
    with pytest.raises(Blocked, match="in the office's review"):
        statements.save_statement(town.u("owner"), due, COMPLETE)


def test_the_due_page_lists_the_rule_what_is_missing_and_the_files(
    town: Town, smtp: Inbox, login: Any
) -> None:
    due = _baseline_due(town)
    owner = login("owner")
    page = owner.get(f"/reports/due/{due.pk}/").content.decode()
    for item in baseline.ITEMS:
        assert item.citation in page
    missing = page.split('id="baseline-missing"')[1].split("</section>")[0]
    assert "Description of operations (40 CFR 403.12(b)(3))" in re.sub(r"<[^>]+>", "", missing)
    # refused at assembly from the page, each missing item a message
    r = owner.post(f"/reports/due/{due.pk}/assemble/", follow=True)
    assert "Flow measurement (40 CFR 403.12(b)(4))" in r.content.decode()
    # the statement and a file from the page
    form = {k: ("" if v is None else v) for k, v in COMPLETE.items()}
    form["meets_standards"] = "true"
    assert owner.post(f"/reports/due/{due.pk}/", form).status_code == 302
    r = owner.post(f"/reports/due/{due.pk}/files/", {"kind": baseline.DIAGRAM, "document": _pdf()})
    assert r.status_code == 302
    page = owner.get(f"/reports/due/{due.pk}/").content.decode()
    assert 'id="baseline-complete"' in page and "Process diagram: plant.pdf" in page
    r = owner.post(f"/reports/due/{due.pk}/assemble/")
    assert r.status_code == 302
    detail = owner.get(r["Location"]).content.decode()
    assert "Process diagram: plant.pdf" in detail and "Espresso and pastries" in detail
    # the office reads the page, cannot write the facility's statement; another facility: 404
    assert login("clerk").get(f"/reports/due/{due.pk}/").status_code == 200
    assert login("clerk").post(f"/reports/due/{due.pk}/", form).status_code == 403
    assert login("other").get(f"/reports/due/{due.pk}/").status_code == 404
    assert login("other").post(f"/reports/due/{due.pk}/files/").status_code == 404


def test_a_report_in_review_was_submitted_on_its_signing_day_for_snc(
    town: Town, smtp: Inbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """40 CFR 403.8(f)(2)(viii)(F) counts the days to the report's submission: one signed and
    waiting for the office's review was submitted the day it was signed (the day an acceptance
    records), so the office's pace of review never makes a facility late."""
    from datetime import datetime, time, timedelta

    from django.utils import timezone

    _, due = setup(town)
    signed_day = due.due_on + timedelta(days=10)  # July 31 + 10: not 45 days late
    moment = timezone.make_aware(datetime.combine(signed_day, time(11)))
    monkeypatch.setattr(timezone, "now", lambda: moment)
    _sign(town, smtp, due)
    run = snc.compute_snc(sup(town), "2026-01..2026-12", at=at("2027-01-05"))
    mine = next(d for d in run.determinations if d.establishment_id == due.establishment_id)
    [report] = [r for r in mine.reports if r["due"] == due.due_on.isoformat()]
    assert report["days_late"] == 10 and "F" not in mine.criteria
