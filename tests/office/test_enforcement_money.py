"""Money from enforcement: the Town's costs billed on one invoice (§ 196-22 C), once; the fine
count kept on the referral, the court's judgment and what was collected (§ 196-22 B), the fine
the Town collects on the person's statement; the violation page linking each.

Dates are fixed (the enforcement factories' calendar: notice served 2026-01-05, deadline
2026-01-15); nothing depends on the day the tests run.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from sewer_office.billing import enforcement as billed_money
from sewer_office.billing import statements
from sewer_office.billing.charges import cost_recovery
from sewer_office.billing.models import Charge, Invoice, Payment
from sewer_office.core.attachments import attach
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.enforcement import liability, money, services
from sewer_office.enforcement.models import Collection, Cost, Judgment, Violation

from .enforcement_factories import at, overdue
from .factories import Town, plan_file

REFERRED_ON = "2026-01-26"


def _with_costs(town: Town) -> Violation:
    """Overdue, with two costs: staff hours (a sampling report attached) and a laboratory bill."""
    v = overdue(town)
    hours = services.record_cost(
        v,
        town.u("clerk"),
        category="staff_hours",
        description="follow-up sampling",
        hours=Decimal("2.5"),
        amount=Decimal("150.00"),
        incurred_on=date(2026, 1, 16),
        at=at("2026-01-16"),
    )
    attach(hours, plan_file("sampling-report.pdf"), town.u("clerk"), title="Sampling report")
    attach(v, plan_file("lab.pdf"), town.u("clerk"), title="Laboratory report 2026-118")
    services.record_cost(
        v,
        town.u("superintendent"),
        category="laboratory",
        description="copper analysis",
        amount=Decimal("45.50"),
        incurred_on=date(2026, 1, 17),
        at=at("2026-01-17"),
    )
    return v


def _referred(town: Town) -> Violation:
    v = overdue(town)
    return perform(
        v,
        "refer",
        town.u("superintendent"),
        {"kind": "town_attorney", "referred_to": "Town Attorney"},
        at=at(REFERRED_ON),
    )


def _judged(town: Town, fine: str = "2000.00") -> Judgment:
    v = _referred(town)
    return money.record_judgment(
        v,
        town.u("clerk"),
        court="Town of Wappinger Justice Court",
        docket="CR-2026-0042",
        judgment_on=date(2026, 3, 2),
        fine_amount=fine,
        at=at("2026-03-03"),
    )


# --- costs (§ 196-22 C) -------------------------------------------------------------------


def test_billing_costs_issues_one_invoice_with_a_line_per_cost_and_its_evidence(
    town: Town,
) -> None:
    v = _with_costs(town)
    invoice = billed_money.bill_costs(v, town.u("clerk"), at=at("2026-01-20"))
    assert invoice.person_id == v.person_id and invoice.issued_on == date(2026, 1, 20)
    lines = list(invoice.lines.order_by("position"))
    assert [ln.amount for ln in lines] == [Decimal("150.00"), Decimal("45.50")]
    assert invoice.total == Decimal("195.50")
    assert {ln.citation for ln in lines} == {"§ 196-22 C"}
    first, second = (list(ln.computation["steps"]) for ln in lines)
    assert "Staff hours: follow-up sampling" in first
    assert "incurred on 2026-01-16, 2.50 h: USD 150.00" in first
    # the documents on the cost and on the violation, by name
    assert "evidence on file: Sampling report; Laboratory report 2026-118" in first
    assert "Laboratory: copper analysis" in second
    evidence: list[dict[str, str]] = lines[0].computation["evidence"]
    assert [e["title"] for e in evidence] == [
        "Sampling report",
        "Laboratory report 2026-118",
    ]
    event = AuditEvent.objects.get(action="bill_costs", object_id=str(v.pk))
    assert event.after is not None and event.after["invoice"] == invoice.number
    assert event.citation == "§ 196-22 C"


def test_a_cost_billed_once_is_never_billed_twice(town: Town) -> None:
    v = _with_costs(town)
    billed_money.bill_costs(v, town.u("clerk"), at=at("2026-01-20"))
    invoices, charges = Invoice.objects.count(), Charge.objects.count()
    with pytest.raises(Blocked, match="already billed"):
        billed_money.bill_costs(v, town.u("clerk"), at=at("2026-01-21"))
    # the charge's source key guards it too: the billing service itself refuses the cost
    with pytest.raises(Blocked, match="already charged"):
        cost_recovery(v.costs.earliest("id"), town.u("superintendent"))
    assert (Invoice.objects.count(), Charge.objects.count()) == (invoices, charges)
    assert billed_money.unbilled_costs(v) == []
    # a cost recorded later is billed alone, on its own invoice
    services.record_cost(
        v,
        town.u("clerk"),
        category="repairs",
        description="manhole cleaning",
        amount=Decimal("300.00"),
        incurred_on=date(2026, 1, 22),
        at=at("2026-01-22"),
    )
    later = billed_money.bill_costs(v, town.u("engineer"), at=at("2026-01-23"))
    assert [ln.amount for ln in later.lines.all()] == [Decimal("300.00")]
    assert [b.invoice for b in billed_money.invoices_of(v)] == [
        Invoice.objects.get(
            lines__charge__source_key=f"enforcement.cost:{v.costs.earliest('id').pk}"
        ),
        later,
    ]


def test_billing_costs_is_reserved_and_needs_a_cost(town: Town) -> None:
    v = overdue(town)
    with pytest.raises(Blocked, match="No cost is recorded"):
        billed_money.bill_costs(v, town.u("clerk"))
    v = _with_costs(town)
    for name in ("viewer", "inspector", "owner", "highway"):
        with pytest.raises(Forbidden):
            billed_money.bill_costs(v, town.u(name))
    assert not Invoice.objects.exists()


# --- fines (§ 196-22 B) -------------------------------------------------------------------


def test_the_referral_keeps_the_fine_count_as_it_stood(town: Town) -> None:
    v = _referred(town)
    referral = v.referrals.get()
    count = liability.fines(v, date.fromisoformat(REFERRED_ON))
    assert count.computation is not None and count.computation.days > 0
    expected = json.loads(json.dumps(count.computation.as_dict()))
    assert referral.computation["fine"] == expected
    assert referral.fine == expected
    assert referral.computation["as_of"] == REFERRED_ON
    assert count.notice is not None and referral.computation["notice"] == count.notice.number
    # later events change the count, not what the referral kept
    perform(
        v,
        "report_correction",
        town.u("owner"),
        {"reported_on": "2026-02-10", "description": "repaired"},
        at=at("2026-02-10"),
    )
    referral.refresh_from_db()
    assert referral.computation["fine"] == expected
    with pytest.raises(ImmutableRecord):
        referral.save()


def test_judgment_recorded_once_audited_and_refused_to_others(town: Town) -> None:
    v = _referred(town)
    args: dict[str, Any] = {
        "court": "Town of Wappinger Justice Court",
        "docket": "CR-2026-0042",
        "judgment_on": date(2026, 3, 2),
        "fine_amount": "2000.00",
    }
    for name in ("engineer", "inspector", "viewer", "owner"):
        with pytest.raises(Forbidden):
            money.record_judgment(v, town.u(name), **args)
    with pytest.raises(InvalidInput) as bad:
        money.record_judgment(
            v, town.u("clerk"), **{**args, "court": " ", "judgment_on": date(2026, 1, 2)}
        )
    assert set(bad.value.errors) == {"court", "judgment_on"}
    assert not Judgment.objects.exists()
    j = money.record_judgment(v, town.u("superintendent"), **args, at=at("2026-03-03"))
    assert (j.fine_amount, j.referral, j.docket) == (
        Decimal("2000.00"),
        v.referrals.get(),
        "CR-2026-0042",
    )
    event = AuditEvent.objects.get(action="record_judgment", object_id=str(j.pk))
    assert event.after is not None and event.after["docket"] == "CR-2026-0042"
    assert event.citation == "§ 196-22 B"
    with pytest.raises(Blocked):
        money.record_judgment(v, town.u("clerk"), **args)
    with pytest.raises(ImmutableRecord):
        j.save()


def test_a_judgment_needs_a_referral_for_prosecution(town: Town) -> None:
    v = overdue(town)
    with pytest.raises(Blocked, match="no referral to the Town Attorney"):
        money.record_judgment(
            v,
            town.u("clerk"),
            court="Justice Court",
            docket="1",
            judgment_on=date(2026, 3, 2),
            fine_amount="10",
        )


def test_collections_by_the_court_and_by_the_town(town: Town) -> None:
    j = _judged(town)
    person = j.violation.person
    court = billed_money.record_collection(
        j,
        town.u("superintendent"),
        amount="500.00",
        collected_on=date(2026, 3, 10),
        collected_by="court",
        reference="court receipt 7781",
        at=at("2026-03-11"),
    )
    assert court.payment is None and not Payment.objects.filter(person=person).exists()
    assert AuditEvent.objects.filter(action="record_collection", object_id=str(court.pk)).exists()
    # money the Town receives is taken by the clerk, with a receipt
    with pytest.raises(Forbidden, match="clerk"):
        billed_money.record_collection(
            j,
            town.u("superintendent"),
            amount="100",
            collected_on=date(2026, 3, 12),
            collected_by="town",
            method="cash",
        )
    with pytest.raises(Forbidden):
        billed_money.record_collection(
            j, town.u("engineer"), amount="1", collected_on=date(2026, 3, 12), collected_by="court"
        )
    with pytest.raises(InvalidInput) as bad:
        billed_money.record_collection(
            j, town.u("clerk"), amount="1600", collected_on=date(2026, 3, 12), collected_by="town"
        )
    assert "amount" in bad.value.errors  # only USD 1,500 of the fine is uncollected
    with pytest.raises(InvalidInput) as bad:
        billed_money.record_collection(
            j,
            town.u("clerk"),
            amount="100",
            collected_on=date(2026, 3, 12),
            collected_by="town",
            method="check",
        )
    assert "reference" in bad.value.errors  # a check needs its number
    assert not Invoice.objects.filter(person=person).exists()  # the refusals wrote nothing
    town_part = billed_money.record_collection(
        j,
        town.u("clerk"),
        amount="1000.00",
        collected_on=date(2026, 3, 12),
        collected_by="town",
        method="check",
        reference="4410",
        at=at("2026-03-12"),
    )
    assert town_part.payment is not None and town_part.payment.amount == Decimal("1000.00")
    invoice = billed_money.fine_invoice(j)
    assert invoice is not None and invoice.total == Decimal("1500.00")  # the fine less the court's
    line = invoice.lines.get()
    assert line.citation == "§ 196-22 B" and line.charge.source == "fine_judgment"
    assert money.collected(j) == Decimal("1500.00")
    # once the Town collects, the court's collections are not mixed in
    with pytest.raises(Blocked, match="Town is collecting"):
        billed_money.record_collection(
            j, town.u("clerk"), amount="10", collected_on=date(2026, 3, 13), collected_by="court"
        )
    # a second Town collection pays the same invoice, without a second charge
    billed_money.record_collection(
        j,
        town.u("clerk"),
        amount="500.00",
        collected_on=date(2026, 3, 20),
        collected_by="town",
        method="cash",
        at=at("2026-03-20"),
    )
    assert Charge.objects.filter(source="fine_judgment").count() == 1
    [billed] = [b for b in billed_money.invoices_of(j.violation) if b.what == "fine"]
    assert (billed.outstanding, billed.status) == (Decimal("0.00"), "paid")
    assert Collection.objects.filter(judgment=j).count() == 3


def test_the_fine_the_town_collects_is_on_the_statement(town: Town) -> None:
    j = _judged(town, fine="750.00")
    person = j.violation.person
    before = len(statements.statement(person).entries)
    billed_money.record_collection(
        j, town.u("clerk"), amount="50", collected_on=date(2026, 3, 5), collected_by="court"
    )
    assert len(statements.statement(person).entries) == before  # the court's: not the Town's
    billed_money.record_collection(
        j,
        town.u("clerk"),
        amount="300.00",
        collected_on=date(2026, 3, 12),
        collected_by="town",
        method="cash",
        at=at("2026-03-12"),
    )
    st = statements.statement(person)
    invoice = billed_money.fine_invoice(j)
    assert invoice is not None
    kinds = {(e.kind, e.reference): e for e in st.entries}
    fine_line = kinds[("invoice", invoice.number)]
    assert fine_line.charges == Decimal("700.00")
    assert fine_line.description.startswith("Fine judgment: Fine imposed by Town of Wappinger")
    assert (
        "docket CR-2026-0042" in fine_line.description and "(§ 196-22 B)" in fine_line.description
    )
    payment = Payment.objects.get(person=person)
    assert kinds[("payment", payment.receipt_number)].credits == Decimal("300.00")
    assert st.owed == Decimal("400.00")


# --- the pages and the API ----------------------------------------------------------------


def test_the_violation_page_bills_costs_once_and_links_every_record(town: Town, login: Any) -> None:
    v = _with_costs(town)
    c = login("clerk")
    url = reverse("enforcement:detail", args=[v.pk])
    page = c.get(url).content.decode()
    assert "Bill the Town&#x27;s costs" in page or "Bill the Town's costs" in page
    r = c.post(reverse("billing:violation-bill-costs", args=[v.pk]))
    assert r.status_code == 302
    invoice = Invoice.objects.get(person=v.person)
    again = c.post(reverse("billing:violation-bill-costs", args=[v.pk]))
    assert again.status_code == 409 and Invoice.objects.count() == 1
    perform(
        v,
        "refer",
        town.u("superintendent"),
        {"kind": "town_attorney"},
        at=at(REFERRED_ON),
    )
    r = c.post(
        reverse("enforcement:judgment", args=[v.pk]),
        {
            "referral": v.referrals.get().pk,
            "court": "Town of Wappinger Justice Court",
            "docket": "CR-7",
            "judgment_on": "2026-03-02",
            "fine_amount": "900.00",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    j = Judgment.objects.get(violation=v)
    r = c.post(
        reverse("billing:violation-collection", args=[v.pk]),
        {
            "judgment": j.pk,
            "amount": "100.00",
            "collected_on": "2026-03-05",
            "collected_by": "town",
            "method": "cash",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    bad = c.post(
        reverse("billing:violation-collection", args=[v.pk]),
        {"judgment": j.pk, "amount": "5000", "collected_on": "2026-03-06", "collected_by": "court"},
    )
    assert bad.status_code == 400 and "still uncollected" in bad.content.decode()
    page = c.get(url).content.decode()
    fine_invoice = billed_money.fine_invoice(j)
    assert fine_invoice is not None
    payment = Payment.objects.get(person=v.person)
    for link in (
        reverse("enforcement:notice-pdf", args=[v.notices.earliest("id").pk]),
        reverse("billing:invoice", args=[invoice.pk]),
        reverse("billing:invoice", args=[fine_invoice.pk]),
        reverse("billing:statement", args=[v.person.pk]),
        reverse("billing:payment-detail", args=[payment.pk]),
        f"#referral-{v.referrals.get().pk}",
        'href="#fines"',
        'href="#judgment"',
    ):
        assert link in page, link
    assert "CR-7" in page and "Fine count as referred" in page
    assert "Bill the Town" not in page  # every cost billed: no button
    assert "Record a collection" in page  # USD 800 of the fine still uncollected
    # the viewer sees, and is offered nothing
    page = login("viewer").get(url).content.decode()
    assert (
        "CR-7" in page and "Record a collection" not in page and "Record the judgment" not in page
    )
    assert (
        login("viewer").post(reverse("billing:violation-bill-costs", args=[v.pk])).status_code
        == 403
    )


def test_the_page_links_the_finding_and_its_result(town: Town, login: Any) -> None:
    v = overdue(town)
    page = login("superintendent").get(reverse("enforcement:detail", args=[v.pk])).content
    assert f"?finding={v.finding_id}".encode() in page


def test_the_api_bills_costs_records_judgment_and_collection(town: Town) -> None:
    v = _with_costs(town)
    api = APIClient()
    api.force_authenticate(town.u("clerk"))
    base = f"/api/enforcement/violations/{v.pk}"
    r = api.post(f"{base}/bill-costs/")
    assert r.status_code == 201, r.content
    [billed] = r.json()["invoices"]
    assert (billed["bills"], billed["status"], billed["total"]) == ("costs", "issued", "195.50")
    assert api.post(f"{base}/bill-costs/").status_code == 409
    perform(v, "refer", town.u("superintendent"), {"kind": "town_attorney"}, at=at(REFERRED_ON))
    r = api.post(
        f"{base}/judgment/",
        {
            "court": "Justice Court",
            "docket": "CR-9",
            "judgment_on": "2026-03-02",
            "fine_amount": "250",
        },
        format="json",
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["judgments"][0]["docket"] == "CR-9"
    assert body["referrals"][0]["computation"]["fine"]["days"] > 0
    r = api.post(
        f"{base}/collection/",
        {"amount": "250", "collected_on": "2026-03-04", "collected_by": "court", "reference": "R1"},
        format="json",
    )
    assert r.status_code == 201, r.content
    assert r.json()["judgments"][0]["collections"][0]["reference"] == "R1"
    viewer = APIClient()
    viewer.force_authenticate(town.u("engineer"))
    r = viewer.post(
        f"{base}/judgment/",
        {"court": "x", "docket": "y", "judgment_on": "2026-03-02", "fine_amount": "1"},
        format="json",
    )
    assert r.status_code == 403
    assert Cost.objects.filter(violation=v).count() == 2


def test_the_demo_has_a_violation_gone_the_whole_way(load_demo: Any) -> None:
    anchor = date(2026, 3, 2)
    load_demo(anchor=anchor)
    [j] = Judgment.objects.all()
    v = j.violation
    assert v.state == "corrected"
    billed = {b.what: b for b in billed_money.invoices_of(v)}
    assert billed["costs"].status == "paid" and billed["fine"].status == "part paid"
    referral = v.referrals.get(kind="town_attorney")
    assert referral.fine is not None and referral.fine["days"] > 0
    assert j.fine_amount == Decimal(referral.fine["total"])  # the demo court fined the count
    [c] = j.collections.all()
    assert c.collected_by == "town" and c.payment is not None
    assert c.collected_on <= anchor and j.judgment_on <= anchor
    entries = {e.reference for e in statements.statement(v.person).entries}
    assert {billed["fine"].invoice.number, c.payment.receipt_number} <= entries
