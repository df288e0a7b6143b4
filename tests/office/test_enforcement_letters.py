"""The documents of enforcement and billing on the letters engine: the right document for each
step (a notice says § 196-22 A, an order its own authority and schedule), documents of record
kept as issued (the notice's URL gives the same bytes before and after service), the
certificate of service with the deadline and its rule, the referral with the fine count of the
fine service, and plain words (no parameter keys, no endless decimals, complete addresses)."""

from __future__ import annotations

import hashlib
import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.billing import charges, invoices
from sewer_office.billing.payments import Allocation, record_payment
from sewer_office.billing.pdf import INVOICE, readable
from sewer_office.billing.receipts import RECEIPT
from sewer_office.core.letters import compose, issued
from sewer_office.core.services import perform
from sewer_office.enforcement import letters, liability, notices, schedules, services
from sewer_office.enforcement.letters import CERTIFICATE, NOTICE, ORDER, REFERRAL, kind_of
from sewer_office.registry.models import Contact

from .enforcement_factories import at, mailed_notice, overdue, served
from .enforcement_factories import issued as issued_violation
from .factories import Town

pytestmark = pytest.mark.django_db

RAW_KEY = re.compile(r"[a-z_]+\.[a-z_]+ =")
LONG_DIGITS = re.compile(r"\d{12,}")


def _text(key: str, record: Any) -> str:
    return "\n".join(t for _, t in compose(key, record))


def _plain(text: str) -> None:
    assert not RAW_KEY.search(text), RAW_KEY.search(text)
    assert not LONG_DIGITS.search(text), LONG_DIGITS.search(text)


def _mail_address(town: Town) -> None:
    Contact.objects.create(
        person=town.owner_person, kind="mail", value="PO Box 17\nWappingers Falls, NY 12590"
    )


def _to_order(town: Town) -> Any:
    """First notice overdue, a second notice served and overdue, then the guide's order."""
    sup = town.u("superintendent")
    v = overdue(town)
    v = perform(v, "escalate", sup, {}, at=at("2026-01-20"))
    v = perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-01-20", "service_method": "personal"},
        at=at("2026-01-20"),
    )
    services.advance_clocks(date(2026, 2, 2))
    v.refresh_from_db()
    return perform(v, "escalate", sup, {}, at=at("2026-02-03"))


def test_a_notice_gives_notice_under_196_22_a_with_a_complete_address(town: Town) -> None:
    _mail_address(town)
    v = issued_violation(town)
    n = v.notices.get()
    assert kind_of(n) == NOTICE
    text = _text(NOTICE, n)
    assert "Notice is hereby given under Town Code § 196-22 A" in text
    assert "violating Town Code § 196-19 C(3)." in text
    assert "Nature of the violation: Copper over the limit" in text
    assert "Olive Owner\nPO Box 17\nWappingers Falls, NY 12590" in text
    assert "January 5, 2026" in text and "2026-01-05" not in text
    assert "USD 250.00 per day" in text and "§ 196-22 C" in text
    _plain(text)
    # kept when issued, with its hash
    doc = issued(NOTICE, n)
    assert doc is not None and doc.sha256 == hashlib.sha256(bytes(doc.content)).hexdigest()


def test_without_a_mailing_contact_the_premises_and_the_town_are_the_address(town: Town) -> None:
    n = issued_violation(town).notices.get()
    text = _text(NOTICE, n)
    premises = town.owner_restaurant.building.property.address
    assert f"Olive Owner\n{premises}\n" in text and "New York" in text


def test_an_order_states_its_own_authority_and_carries_its_schedule(town: Town) -> None:
    v = _to_order(town)
    order = notices.current_notice(v)
    assert order.response == "administrative_order" and kind_of(order) == ORDER
    # not kept before its schedule is imposed: its terms are not complete
    assert issued(ORDER, order) is None
    schedules.create_schedule(
        town.u("engineer"),
        establishment=v.establishment,
        imposed_by="order",
        notice=order,
        requirement="Install copper pretreatment",
        citation="40 CFR 403.8(f)(1)(iv)",
        milestones=[(date(2026, 3, 2), "Design submitted"), (date(2026, 5, 1), "Unit running")],
        at=at("2026-02-03", 11),
    )
    text = _text(ORDER, order)
    assert "Notice is hereby given" not in text
    assert "By authority of 40 CFR 403.8(f)(1)(iv)" in text
    assert "Design submitted\tMarch 2, 2026" in text and "Unit running\tMay 1, 2026" in text
    assert "Compliance schedule CS-" in text and "40 CFR 403.12(c)" in text
    _plain(text)
    doc = issued(ORDER, order)
    assert doc is not None  # kept once the schedule is imposed
    # served: the certificate names the order; the order's document is unchanged
    perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-02-03", "service_method": "personal"},
        at=at("2026-02-03", 14),
    )
    assert issued(ORDER, order).sha256 == doc.sha256
    assert "Administrative order (compliance schedule)" in _text(CERTIFICATE, order)


def test_the_certificate_is_made_at_delivery_with_the_deadline_and_its_rule(town: Town) -> None:
    v = mailed_notice(town, on="2026-01-05")
    n = v.notices.get()
    assert issued(CERTIFICATE, n) is None  # mailed is not served
    perform(
        v,
        "record_delivery",
        town.u("clerk"),
        {"delivered_on": "2026-01-09", "delivery_proof": "return_receipt"},
        at=at("2026-01-12", 9),
    )
    n.refresh_from_db()
    assert issued(CERTIFICATE, n) is not None
    text = _text(CERTIFICATE, n)
    assert "Certified mail receipt number: 7019 0001" in text
    assert "mailed by certified mail, return receipt requested no. 7019 0001, on January 5" in text
    assert "delivered on January 9, 2026, as shown by the return receipt" in text
    # Fri 01-09 + 10 = Mon 01-19 (Dr. Martin Luther King, Jr. Day) -> Tue 01-20
    assert "the nominal last day is January 19, 2026" in text
    assert "moves over January 19, 2026" in text
    assert "Deadline: the end of Tuesday, January 20, 2026" in text
    assert "General Construction Law" in text and "§ 196-22 A" in text
    _plain(text)


def test_the_notice_url_gives_the_same_bytes_before_and_after_service(
    town: Town, login: Any
) -> None:
    v = issued_violation(town)
    n = v.notices.get()
    c = login("clerk")
    before = c.get(f"/enforcement/notices/{n.pk}.pdf")
    assert before.status_code == 200 and before.content.startswith(b"%PDF")
    assert c.get(f"/enforcement/notices/{n.pk}/certificate.pdf").status_code == 404
    perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-01-06", "service_method": "personal"},
        at=at("2026-01-06", 15),
    )
    after = c.get(f"/enforcement/notices/{n.pk}.pdf")
    assert after.content == before.content
    assert after["X-Content-SHA256"] == hashlib.sha256(before.content).hexdigest()
    page = c.get(f"/enforcement/{v.pk}/").content.decode()
    assert f"/enforcement/notices/{n.pk}/certificate.pdf" in page
    cert = c.get(f"/enforcement/notices/{n.pk}/certificate.pdf")
    assert cert.status_code == 200 and cert.content != before.content
    assert login("owner").get(f"/enforcement/notices/{n.pk}/certificate.pdf").status_code == 200
    assert login("other").get(f"/enforcement/notices/{n.pk}/certificate.pdf").status_code == 404


def test_the_referral_carries_the_fine_count_of_the_fine_service(town: Town, login: Any) -> None:
    v = served(town)  # deadline Thu 2026-01-15
    services.advance_clocks(date(2026, 1, 16))
    v.refresh_from_db()
    perform(v, "refer", town.u("superintendent"), {"kind": "town_attorney"}, at=at("2026-02-02"))
    referral = v.referrals.get()
    f = liability.fines(v, referral.referred_on)
    assert f.computation is not None and f.total is not None and f.computation.days > 0
    text = _text(REFERRAL, referral)
    assert f"{f.computation.days} days in all" in text
    assert f"Total: {letters.usd(f.total)} for {f.computation.days} days" in text
    assert "deadline the end of January 15, 2026" in text
    assert "§ 122-20 Y" in text and "in force since" in text
    assert "NOV-" in text and "delivered on January 5, 2026" in text
    assert "certificates of service" in text
    _plain(text)
    doc = issued(REFERRAL, referral)
    assert doc is not None
    r = login("superintendent").get(f"/enforcement/referrals/{referral.pk}.pdf")
    assert r.status_code == 200 and r.content == bytes(doc.content)
    assert f"/enforcement/referrals/{referral.pk}.pdf" in (
        login("clerk").get(f"/enforcement/{v.pk}/").content.decode()
    )
    owner = login("owner")
    assert owner.get(f"/enforcement/referrals/{referral.pk}.pdf").status_code == 404
    assert f"/enforcement/referrals/{referral.pk}.pdf" not in (
        owner.get(f"/enforcement/{v.pk}/").content.decode()
    )


def test_invoice_and_receipt_are_kept_when_issued_and_paid(town: Town, login: Any) -> None:
    _mail_address(town)
    clerk = town.u("clerk")
    day = date(2026, 3, 2)
    inv = invoices.issue_invoice(
        town.owner_person, [charges.article_copies(town.owner_person, 2, day, clerk)], clerk, day
    )
    doc = issued(INVOICE, inv)
    assert doc is not None
    text = _text(INVOICE, inv)
    assert "Olive Owner\nPO Box 17\nWappingers Falls, NY 12590" in text
    assert "How to pay" in text and f"invoice {inv.number}" in text
    assert "Total: USD 10.00" in text
    _plain(text)
    page = login("clerk").get(f"/billing/invoices/{inv.pk}/pdf")
    assert page.content == bytes(doc.content)
    payment = record_payment(
        clerk,
        person=town.owner_person,
        amount="10.00",
        method="check",
        reference="1201",
        allocations=[Allocation(inv)],
    )
    receipt = issued(RECEIPT, payment)
    assert receipt is not None
    text = _text(RECEIPT, payment)
    assert "the sum of USD 10.00, by Check (check no. 1201)" in text
    assert f"{inv.number}\tUSD 10.00" in text
    # the invoice as issued is unchanged by the payment (it is a document of its issue date)
    assert issued(INVOICE, inv).sha256 == doc.sha256


def test_stored_computations_read_as_people_read_them() -> None:
    step = (
        "2026-01-01–2026-03-31 (90 d, 0.123456789 MG): BOD excess 80.84615384615384615384615385 "
        "mg/l × 0.123456789 MG × 8.34 = 83.2436173813 lb × USD 0.25/lb = USD "
        "234.3096055384615384615384616; surcharge.pounds_factor"
    )
    text = readable(step, "demo")
    assert "80.85 mg/l" in text and "USD 234.31" in text and "83.24 lb" in text
    assert "0.1235 MG" in text and "January 1, 2026" in text
    assert "surcharge.pounds_factor" not in text and "Pounds per" in text
    _plain(text)
    assert Decimal("234.31") == Decimal(text.split("USD ")[-1].split(";")[0])
