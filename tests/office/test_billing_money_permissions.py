"""Permission battery of the billing money pages and the billing API (see test_permissions.py).

Anonymous → login / 401; no role → 403; every staff role reads every payment, receipt,
statement, the aging report, the export and the permit fee queue; only the clerk records
payments, applies credit, refunds and issues permit fee invoices (the others 403); an
outside user reads its own statements, receipts, invoices and charges, and another's —
or an id guessed beyond the last — is 404; the aging report, export and fee queue are 403.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.billing.models import Invoice, Payment, Refund
from sewer_office.billing.payments import Allocation, record_payment

from .billing_money_factories import invoice
from .factories import Town, new_record

COVERED_URL_NAMES = {
    "billing:payments",
    "billing:payment-new",
    "billing:payment-detail",
    "billing:receipt",
    "billing:statements",
    "billing:statement",
    "billing:statement-pdf",
    "billing:apply-credit",
    "billing:refund",
    "billing:aging",
    "billing:export",
    "billing:permit-fees",
    "billing:permit-fee-invoice",
    "billing-statement",
    "billing-refund",
    "billing-apply-credit",
    "billing-permit-fee-invoice",
}
COVERED_URL_PREFIXES = ("billing-charge-", "billing-invoice-", "billing-payment-")

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
NOT_CLERK = ("superintendent", "engineer", "inspector", "highway", "viewer", "owner", "other")


def _setup(town: Town) -> dict[str, Any]:
    today = timezone.localdate()
    s: dict[str, Any] = {}
    for key, person in (("mine", town.owner_person), ("theirs", town.other_person)):
        inv = invoice(
            town,
            person,
            "100.00",
            issued_on=today - timedelta(days=60),
            due_on=today - timedelta(30),
        )
        pay = record_payment(
            town.u("clerk"),
            person=person,
            amount="130.00",
            method="cash",
            allocations=[Allocation(inv)],
        )
        later = invoice(town, person, "20.00", issued_on=today, due_on=today + timedelta(30))
        s[key] = {"person": person, "invoice": inv, "payment": pay, "open": later}
    s["permit"] = new_record("building-sewer", town)
    return s


def _pages(s: dict[str, Any], key: str) -> list[str]:
    r = s[key]
    return [
        f"/billing/statements/{r['person'].pk}/",
        f"/billing/statements/{r['person'].pk}/statement.pdf",
        f"/billing/payments/{r['payment'].pk}/",
        f"/billing/payments/{r['payment'].pk}/receipt.pdf",
    ]


def _endpoints(s: dict[str, Any], key: str) -> list[str]:
    r = s[key]
    charge = r["invoice"].lines.get().charge
    return [
        f"/api/billing/statements/{r['person'].pk}/",
        f"/api/billing/invoices/{r['invoice'].pk}/",
        f"/api/billing/charges/{charge.pk}/",
        f"/api/billing/payments/{r['payment'].pk}/",
        f"/api/billing/payments/{r['payment'].pk}/receipt/",
    ]


LISTS = ("/api/billing/charges/", "/api/billing/invoices/", "/api/billing/payments/")
PAGES = ("/billing/payments/", "/billing/statements/")
STAFF_PAGES = ("/billing/aging/", "/billing/export/", "/billing/permit-fees/")


def _posts(s: dict[str, Any], key: str = "mine") -> list[tuple[str, dict[str, Any]]]:
    r = s[key]
    p = r["person"].pk
    return [
        ("/billing/payments/new/", {"person": p, "method": "cash", "amount": "5"}),
        (f"/billing/statements/{p}/refund/", {"amount": "1", "reason": "x", "method": "cash"}),
        (f"/billing/statements/{p}/apply-credit/", {"invoice": r["open"].pk, "amount": "5"}),
        (f"/billing/permit-fees/building-sewer/{s['permit'].pk}/invoice/", {}),
    ]


def _api_posts(s: dict[str, Any], key: str = "mine") -> list[tuple[str, dict[str, Any]]]:
    p = s[key]["person"].pk
    return [
        ("/api/billing/payments/", {"person": p, "method": "cash", "amount": "5"}),
        (
            f"/api/billing/statements/{p}/refund/",
            {"amount": "1", "reason": "x", "method": "cash"},
        ),
        (
            f"/api/billing/statements/{p}/apply-credit/",
            {"applications": [{"invoice": s[key]["open"].pk, "amount": "5.00"}]},
        ),
        (f"/api/billing/permit-fees/building-sewer/{s['permit'].pk}/invoice/", {}),
    ]


def _counts() -> tuple[int, int, int]:
    return Payment.objects.count(), Refund.objects.count(), Invoice.objects.count()


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    s = _setup(town)
    for url in [*PAGES, *STAFF_PAGES, *_pages(s, "mine")]:
        r = client.get(url)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url
    for url, data in _posts(s):
        assert client.post(url, data).status_code == 302, url
    for url in [*LISTS, *_endpoints(s, "mine")]:
        assert client.get(url).status_code == 401, url
    for url, data in _api_posts(s):
        assert client.post(url, data, content_type="application/json").status_code == 401


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    s = _setup(town)
    c = login("norole")
    for url in [*PAGES, *STAFF_PAGES, *_pages(s, "mine"), *LISTS, *_endpoints(s, "mine")]:
        assert c.get(url).status_code == 403, url
    before = _counts()
    for url, data in _posts(s):
        assert c.post(url, data).status_code == 403, url
    for url, data in _api_posts(s):
        assert c.post(url, data, content_type="application/json").status_code == 403, url
    assert _counts() == before


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_everything(town: Town, login: Any, username: str) -> None:
    s = _setup(town)
    c = login(username)
    for key in ("mine", "theirs"):
        for url in _pages(s, key) + _endpoints(s, key):
            assert c.get(url).status_code == 200, url
    for url in (*PAGES, *STAFF_PAGES):
        assert c.get(url).status_code == 200, url
    assert len(c.get("/api/billing/invoices/").json()["results"]) == 4
    assert len(c.get("/api/billing/payments/").json()["results"]) == 2


@pytest.mark.parametrize("username", NOT_CLERK)
def test_only_the_clerk_changes_money(town: Town, login: Any, username: str) -> None:
    s = _setup(town)
    c = login(username)
    before = _counts()
    key = "theirs" if username == "other" else "mine"
    for url, data in _posts(s, key):
        assert c.post(url, data).status_code == 403, url
    for url, data in _api_posts(s, key):
        assert c.post(url, data, content_type="application/json").status_code == 403, url
    assert _counts() == before


def test_the_clerk_changes_money_on_pages_and_api(town: Town, login: Any) -> None:
    s = _setup(town)
    c = login("clerk")
    for url, data in _posts(s):
        assert c.post(url, data).status_code in (200, 302), url
    for url, data in _api_posts(s):
        r = c.post(url, data, content_type="application/json")
        # the permit's fee was invoiced on the page just before: refused as already invoiced
        assert r.status_code == (409 if "permit-fees" in url else 201), (url, r.content)
    assert Payment.objects.count() == 4 and Refund.objects.count() == 2
    assert sum(a.amount for a in s["mine"]["open"].applications.all()) == 10


def test_outside_user_sees_only_its_own(town: Town, login: Any) -> None:
    s = _setup(town)
    c = login("owner")
    for url in _pages(s, "mine") + _endpoints(s, "mine"):
        assert c.get(url).status_code == 200, url
    for url in _pages(s, "theirs") + _endpoints(s, "theirs"):
        assert c.get(url).status_code == 404, url
    for url in STAFF_PAGES:
        assert c.get(url).status_code == 403, url
    mine = s["mine"]
    for url in LISTS:
        results = c.get(url).json()["results"]
        assert results and {r["person"] for r in results} == {mine["person"].pk}, url
    listing = c.get("/billing/payments/").content.decode()
    assert mine["payment"].receipt_number in listing
    assert s["theirs"]["payment"].receipt_number not in listing
    statements = c.get("/billing/statements/").content.decode()
    assert town.owner_person.name in statements and town.other_person.name not in statements


def test_guessed_ids_are_404(town: Town, login: Any) -> None:
    s = _setup(town)
    beyond = max(Payment.objects.order_by("-pk")[0].pk, Invoice.objects.order_by("-pk")[0].pk)
    beyond += 1000
    for username in ("owner", "clerk"):
        c = login(username)
        for url in (
            f"/billing/payments/{beyond}/",
            f"/billing/payments/{beyond}/receipt.pdf",
            f"/billing/statements/{beyond}/",
            f"/api/billing/payments/{beyond}/",
            f"/api/billing/invoices/{beyond}/",
            f"/api/billing/charges/{beyond}/",
            f"/api/billing/statements/{beyond}/",
        ):
            assert c.get(url).status_code == 404, (username, url)
    # an outside user cannot pay on, nor apply credit to, another's invoice by its id
    c = login("clerk")
    theirs = s["theirs"]["invoice"].pk
    r = c.post(
        "/api/billing/payments/",
        {"person": s["mine"]["person"].pk, "method": "cash", "amount": "5", "invoices": [theirs]},
        content_type="application/json",
    )
    assert r.status_code == 400 and "another person" in r.json()["detail"]
