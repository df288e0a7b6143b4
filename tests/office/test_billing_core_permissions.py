"""Permission battery of the billing core's pages: runs (staff; issue and discard for the
billing roles), invoices, their PDF and charges (staff; an outside user only their own)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.billing import charges, invoices, runs
from sewer_office.billing.models import BillingRun, Invoice
from sewer_office.billing.pdf import INVOICE
from sewer_office.core.letters import compose
from sewer_office.core.models import AuditEvent

from .factories import Town

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {
    "billing:runs",
    "billing:run-create",
    "billing:run",
    "billing:run-issue",
    "billing:run-discard",
    "billing:invoices",
    "billing:invoice",
    "billing:invoice-pdf",
    "billing:invoice-credit",
    "billing:invoice-void",
    "billing:charges",
}
STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")


def _setup(town: Town) -> tuple[Invoice, Invoice, BillingRun]:
    clerk = town.u("clerk")
    day = date(2026, 3, 2)
    mine = invoices.issue_invoice(
        town.owner_person, [charges.article_copies(town.owner_person, 2, day, clerk)], clerk, day
    )
    theirs = invoices.issue_invoice(
        town.other_person, [charges.article_copies(town.other_person, 1, day, clerk)], clerk, day
    )
    return mine, theirs, runs.create_run("2026-Q1", clerk)


def _pages(mine: Invoice, run: BillingRun) -> tuple[list[str], list[str]]:
    staff_only = ["/billing/runs/", f"/billing/runs/{run.pk}/"]
    shared = [
        "/billing/invoices/",
        f"/billing/invoices/{mine.pk}/",
        f"/billing/invoices/{mine.pk}/pdf",
        "/billing/charges/",
    ]
    return staff_only, shared


def test_anonymous_and_no_role(town: Town, login: Any) -> None:
    mine, _, run = _setup(town)
    staff_only, shared = _pages(mine, run)
    c = login(None)
    for url in staff_only + shared:
        assert c.get(url).status_code == 302, url
    c = login("norole")
    for url in staff_only + shared:
        assert c.get(url).status_code == 403, url
    assert c.post(f"/billing/runs/{run.pk}/issue/").status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_page(town: Town, login: Any, username: str) -> None:
    mine, theirs, run = _setup(town)
    staff_only, shared = _pages(mine, run)
    c = login(username)
    for url in [*staff_only, *shared, f"/billing/invoices/{theirs.pk}/"]:
        r = c.get(url)
        assert r.status_code == 200, url
    assert c.get(f"/billing/invoices/{mine.pk}/pdf")["Content-Type"] == "application/pdf"
    billing = username in ("superintendent", "engineer", "clerk")
    r = c.post(f"/billing/runs/{run.pk}/discard/", {"reason": "test"})
    assert r.status_code == (302 if billing else 403)


def test_outside_user_sees_only_their_own(town: Town, login: Any) -> None:
    mine, theirs, run = _setup(town)
    staff_only, shared = _pages(mine, run)
    c = login("owner")
    for url in staff_only:
        assert c.get(url).status_code == 403, url
    for url in shared:
        assert c.get(url).status_code == 200, url
    assert c.get(f"/billing/invoices/{theirs.pk}/").status_code == 404
    assert c.get(f"/billing/invoices/{theirs.pk}/pdf").status_code == 404
    listing = c.get("/billing/invoices/").content.decode()
    assert mine.number in listing and theirs.number not in listing
    assert "Otto Other" not in c.get("/billing/charges/").content.decode()
    assert c.post("/billing/runs/new/", {"period": "2026-Q2"}).status_code == 403


def test_clerk_reviews_then_issues_on_the_page(town: Town, login: Any) -> None:
    _, _, run = _setup(town)
    c = login("clerk")
    assert c.post("/billing/runs/new/", {"period": "2026-Q1"}).status_code == 302
    assert BillingRun.objects.count() == 1  # the same period twice is refused
    assert c.post(f"/billing/runs/{run.pk}/issue/").status_code == 302
    run.refresh_from_db()
    assert run.state == "issued"


def test_the_pdf_carries_citation_and_computation(town: Town) -> None:
    mine, _, _ = _setup(town)
    text = "\n".join(t for _, t in compose(INVOICE, mine))
    assert "Invoice 2026-0001" in text and "§ 196-23 D" in text
    assert "Fee for a copy of the article, set by Town Board resolution: USD 5.00" in text
    assert "2 × USD 5.00" in text
    # the parameters by their names and authorities in words, never their keys
    assert "fee.article_copy" not in text and "invoice.due_days" not in text
    assert "Due on " in text and "days after issue" in text


def test_clerk_credits_and_voids_on_the_page(town: Town, login: Any) -> None:
    mine, theirs, _ = _setup(town)
    c = login("clerk")
    page = c.get(f"/billing/invoices/{mine.pk}/").content.decode()
    assert f'action="/billing/invoices/{mine.pk}/credit/"' in page
    assert f'action="/billing/invoices/{mine.pk}/void/"' in page
    line = mine.lines.get()
    r = c.post(
        f"/billing/invoices/{mine.pk}/credit/", {"reason": "wrong count", "lines": [line.pk]}
    )
    note = Invoice.objects.get(credits=mine)
    assert r.status_code == 302 and r["Location"] == f"/billing/invoices/{note.pk}/"
    assert note.kind == "credit_note" and note.total == -mine.total and note.reason == "wrong count"
    assert AuditEvent.objects.filter(action="billing.credit_note_issued").count() == 1
    page = c.get(f"/billing/invoices/{mine.pk}/").content.decode()
    assert "/void/" not in page  # credited: the void is no longer offered
    r = c.post(f"/billing/invoices/{theirs.pk}/void/", {"reason": "issued in error"}, follow=True)
    theirs.refresh_from_db()
    assert theirs.state == "void" and theirs.void_reason == "issued in error"
    assert "voided" in r.content.decode()


def test_credit_and_void_need_a_reason(town: Town, login: Any) -> None:
    mine, _, _ = _setup(town)
    c = login("clerk")
    r = c.post(f"/billing/invoices/{mine.pk}/credit/", {"reason": "  "}, follow=True)
    assert "Credit refused: Say why the invoice is credited." in r.content.decode()
    r = c.post(f"/billing/invoices/{mine.pk}/void/", {}, follow=True)
    assert "Void refused: Say why the invoice is voided." in r.content.decode()
    mine.refresh_from_db()
    assert mine.state == "issued" and not Invoice.objects.filter(credits=mine).exists()
    assert c.get(f"/billing/invoices/{mine.pk}/credit/").status_code == 405


@pytest.mark.parametrize("username", ["viewer", "inspector", "owner", "norole"])
def test_credit_and_void_refused_to_others(town: Town, login: Any, username: str) -> None:
    mine, theirs, _ = _setup(town)
    c = login(username)
    if username in ("viewer", "owner"):
        page = c.get(f"/billing/invoices/{mine.pk}/").content.decode()
        assert "/credit/" not in page and "/void/" not in page
    for inv in (mine, theirs):
        r = c.post(f"/billing/invoices/{inv.pk}/credit/", {"reason": "x"})
        assert r.status_code == 403, (username, inv.number)
        assert c.post(f"/billing/invoices/{inv.pk}/void/", {"reason": "x"}).status_code == 403
        api = c.post(f"/api/billing/invoices/{inv.pk}/void/", {"reason": "x"})
        expected = 404 if username == "owner" and inv is theirs else 403
        assert api.status_code == expected, (username, inv.number)
    assert Invoice.objects.filter(state="void").count() == 0
    assert Invoice.objects.filter(kind="credit_note").count() == 0


def test_api_credit_and_void(town: Town, login: Any) -> None:
    mine, theirs, _ = _setup(town)
    c = login("clerk")
    r = c.post(f"/api/billing/invoices/{mine.pk}/credit/", {}, content_type="application/json")
    assert r.status_code == 400 and "reason" in r.json()["errors"]
    r = c.post(
        f"/api/billing/invoices/{mine.pk}/credit/",
        {"reason": "wrong count", "lines": [mine.lines.get().pk]},
        content_type="application/json",
    )
    assert r.status_code == 201 and r.json()["total"] == "-10.00"
    r = c.post(
        f"/api/billing/invoices/{mine.pk}/void/", {"reason": "x"}, content_type="application/json"
    )
    assert r.status_code == 409  # credited: void the credit note first
    r = c.post(
        f"/api/billing/invoices/{theirs.pk}/void/",
        {"reason": "issued in error"},
        content_type="application/json",
    )
    assert r.status_code == 200 and r.json()["state"] == "void"
