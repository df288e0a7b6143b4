"""Signed compliance reports: assembled from the stored results, the same data the same bytes,
signed with the password and an e-mailed one-time code (through a real SMTP server) under the
403.6(a)(2)(ii) statement, acknowledged with the hashes, refused with a wrong, expired or
exhausted code, after the data changed, or by someone who is not a signatory; verified against
the stored bytes; accepted (the report received) or rejected (kept); and the pages' battery."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.models import ReportDue
from sewer_office.reports import services
from sewer_office.reports.choices import CERTIFICATION
from sewer_office.reports.models import Report, Signature, SigningCode

from .factories import PASSWORD, USERS, Town
from .pretreatment_factories import at, chronic_copper, results, sup
from .smtp_support import Inbox

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {
    "reports:list",
    "reports:due",  # and its battery: test_report_due_status
    "reports:due-files",
    "reports:assemble",
    "reports:detail",
    "reports:pdf",
    "reports:data",
    "reports:code",
    "reports:sign",
    "reports:review",
    "reports:verify",
    "reports:signatories",
    "reports:signatory-end",
}
COVERED_URL_PREFIXES = ("report-",)


def setup(town: Town) -> tuple[Any, ReportDue]:
    f = chronic_copper(town)
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="periodic", first_due=date(2026, 7, 31), every_months=6,
        at=at("2026-01-02"),
    )  # fmt: skip
    due = ReportDue.objects.filter(requirement=req).order_by("due_on").first()
    assert due is not None
    owner = town.u("owner")
    owner.email = "owner@example.org"
    owner.save(update_fields=["email"])
    services.record_signatory(
        town.u("superintendent"), f.mine, user=owner, kind="authorized", title="Manager",
        authorization="Letter of the owner, 2026-01-02", valid_from=date(2026, 1, 1),
    )  # fmt: skip
    return f, due


def code_from(smtp: Inbox) -> str:
    found = re.search(r"is (\d{6})\.", smtp.messages[-1].body)
    assert found, smtp.messages[-1].body
    return found.group(1)


def test_sign_with_the_second_factor_and_get_the_acknowledgment(town: Town, smtp: Inbox) -> None:
    _, due = setup(town)
    owner = town.u("owner")
    report = services.assemble(owner, due)
    assert report.version == 1 and (report.period_start, report.period_end) == (
        date(2026, 1, 1),
        date(2026, 6, 30),
    )
    assert bytes(report.pdf).startswith(b"%PDF-") and '"copper"' in report.data
    assert CERTIFICATION in report.data
    services.send_code(owner, report)
    [got] = smtp.messages
    assert got.subject == f"Sewer office: code to sign report RPT-{report.pk}"
    code = code_from(smtp)
    wrong = "000000" if code != "000000" else "111111"
    with pytest.raises(InvalidInput, match="4 tries left"):
        services.sign(owner, report, password=PASSWORD, code=wrong)
    with pytest.raises(InvalidInput, match="password"):
        services.sign(owner, report, password="nope", code=code)
    signature = services.sign(owner, report, password=PASSWORD, code=code)
    assert signature.statement == CERTIFICATION and signature.digest == report.digest
    ack = smtp.messages[-1]
    assert ack.subject == f"Sewer office: acknowledgment of report RPT-{report.pk}"
    assert report.digest in ack.body and report.pdf_sha256 in ack.body
    with pytest.raises(Blocked, match="already signed"):
        services.sign(owner, report, password=PASSWORD, code=code)
    with pytest.raises(ImmutableRecord):
        signature.save()
    with pytest.raises(ImmutableRecord):
        Report.objects.get(pk=report.pk).save()
    assert services.check_bytes(report).ok
    # the office accepts it: the report is received on the day it was signed
    services.review(town.u("clerk"), report, accept=True)
    due.refresh_from_db()
    assert due.received_on == timezone.localdate(signature.signed_at)
    assert AuditEvent.objects.filter(action="accept_report").count() == 1


def test_the_same_data_make_the_same_bytes(town: Town) -> None:
    _, due = setup(town)
    a = services.assemble(town.u("owner"), due)
    b = services.assemble(town.u("owner"), due)
    assert b.version == 2 and a.data == b.data and a.data_sha256 == b.data_sha256
    from sewer_office.reports import documents

    data = documents.report_data(due)
    made = timezone.now().replace(microsecond=0)
    assert documents.report_pdf(data, made) == documents.report_pdf(data, made)


def test_codes_expire_wear_out_and_bind_one_report(town: Town, smtp: Inbox) -> None:
    _, due = setup(town)
    owner = town.u("owner")
    report = services.assemble(owner, due)
    services.send_code(owner, report)
    code = code_from(smtp)
    SigningCode.objects.update(expires_at=timezone.now())
    with pytest.raises(InvalidInput, match="No valid code"):
        services.sign(owner, report, password=PASSWORD, code=code)
    services.send_code(owner, report)
    code = code_from(smtp)
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        with pytest.raises(InvalidInput):
            services.sign(owner, report, password=PASSWORD, code=wrong)
    with pytest.raises(InvalidInput, match="Too many wrong codes"):
        services.sign(owner, report, password=PASSWORD, code=code)
    assert not Signature.objects.exists()
    stored = SigningCode.objects.order_by("-id").first()
    assert stored is not None and code not in stored.code_hash  # kept hashed


def test_a_changed_document_cannot_be_signed(town: Town, smtp: Inbox) -> None:
    f, due = setup(town)
    owner = town.u("owner")
    report = services.assemble(owner, due)
    results(f.mine, "zinc", [("2026-06-20", "0.2")])  # data of the period changed meanwhile
    services.send_code(owner, report)
    with pytest.raises(Blocked, match="data changed since"):
        services.sign(owner, report, password=PASSWORD, code=code_from(smtp))
    newer = services.assemble(owner, due)
    assert newer.version == 2 and newer.data_sha256 != report.data_sha256
    with pytest.raises(Forbidden):  # the other applicant acts for another facility
        services.send_code(town.u("other"), newer)


def test_only_a_current_signatory_signs(town: Town, smtp: Inbox) -> None:
    f, due = setup(town)
    report = services.assemble(town.u("owner"), due)
    with pytest.raises(Forbidden):  # another facility's user
        services.send_code(town.u("other"), report)
    with pytest.raises(Forbidden):  # staff see the report but are no signatory
        services.send_code(town.u("engineer"), report)
    sig = f.mine.signatories.get()
    services.end_signatory(town.u("clerk"), sig, date(2026, 2, 1), "Left the company")
    with pytest.raises(Forbidden, match=r"403\.12"):
        services.send_code(town.u("owner"), report)


def test_verification_detects_changed_bytes(town: Town, smtp: Inbox, login: Any) -> None:
    _, due = setup(town)
    owner = town.u("owner")
    report = services.assemble(owner, due)
    services.send_code(owner, report)
    services.sign(owner, report, password=PASSWORD, code=code_from(smtp))
    c = login("owner")
    page = c.get(f"/reports/{report.pk}/verify/").content.decode()
    assert "The stored copy matches what was signed." in page and report.digest in page
    table = Report._meta.db_table
    changed = report.data.replace('"copper"', '"COPPER"')
    if connection.vendor == "postgresql":  # the trigger refuses the change below the app
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cur:
            cur.execute(f"UPDATE {table} SET data = %s WHERE id = %s", [changed, report.pk])
        return
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {table} SET data = %s WHERE id = %s", [changed, report.pk])
    page = c.get(f"/reports/{report.pk}/verify/").content.decode()
    assert "The stored copy does NOT match" in page
    assert not services.check_bytes(report).data_matches


def test_a_rejected_report_stays_and_the_due_stays_open(town: Town, smtp: Inbox) -> None:
    _, due = setup(town)
    owner = town.u("owner")
    report = services.assemble(owner, due)
    with pytest.raises(Blocked, match="not signed"):
        services.review(town.u("clerk"), report, accept=True)
    services.send_code(owner, report)
    services.sign(owner, report, password=PASSWORD, code=code_from(smtp))
    with pytest.raises(InvalidInput):
        services.review(town.u("clerk"), report, accept=False)
    with pytest.raises(Forbidden):
        services.review(town.u("owner"), report, accept=True)
    services.review(town.u("clerk"), report, accept=False, reason="Flow of May missing")
    due.refresh_from_db()
    assert due.received_on is None and Report.objects.filter(pk=report.pk).exists()
    with pytest.raises(Blocked, match="already reviewed"):
        services.review(town.u("clerk"), report, accept=True)


def test_pages_permission_battery(town: Town, login: Any, smtp: Inbox) -> None:
    _, due = setup(town)
    anon = login(None)
    assert anon.get("/reports/").status_code == 302
    assert anon.get("/api/reports/").status_code in (401, 403)
    c = login("owner")
    r = c.post(f"/reports/due/{due.pk}/assemble/")
    report = Report.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/reports/{report.pk}/"
    page = c.get(f"/reports/{report.pk}/").content.decode()
    assert CERTIFICATION in page and "E-mail me a code" in page
    assert c.post(f"/reports/{report.pk}/code/").status_code == 302
    code = code_from(smtp)
    c.post(f"/reports/{report.pk}/sign/", {"password": PASSWORD, "code": code})
    assert Signature.objects.filter(report=report).exists()
    urls = [
        "/reports/",
        f"/reports/{report.pk}/",
        f"/reports/{report.pk}/report.pdf",
        f"/reports/{report.pk}/data.json",
        f"/reports/{report.pk}/verify/",
        f"/api/reports/{report.pk}/",
    ]
    norole = login("norole")
    for url in urls:
        assert norole.get(url).status_code == 403, url
    for username in sorted(u for u, roles in USERS.items() if roles):
        cl = login(username)
        sees = username != "other"
        for url in urls[1:]:
            assert cl.get(url).status_code == (200 if sees else 404), (username, url)
        assert cl.get("/reports/").status_code == 200
        ids = [x["id"] for x in cl.get("/api/reports/").json()["results"]]
        assert ids == ([report.pk] if sees else [])
        staff = username not in ("owner", "other")
        assert cl.get("/reports/signatories/").status_code == (200 if staff else 403)
        if not sees:
            assert cl.post(f"/reports/due/{due.pk}/assemble/").status_code == 404
            assert (
                cl.post(f"/reports/{report.pk}/review/", {"decision": "accept"}).status_code == 404
            )
    assert (
        login("viewer").post(f"/reports/{report.pk}/review/", {"decision": "accept"}).status_code
        == 403
    )
    assert (
        login("clerk").post(f"/reports/{report.pk}/review/", {"decision": "accept"}).status_code
        == 302
    )
    assert Report.objects.get(pk=report.pk).review.decision == "accepted"
    pdf = login("owner").get(f"/reports/{report.pk}/report.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF-")
