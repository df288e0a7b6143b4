"""Demo: one violation taken the whole way to the money (§ 196-22 B, C).

A restaurant's grease interceptor left unpumped blocks the sewer main; the Highway crew clears
it. The notice goes unheeded: the Town's costs are billed on one invoice and paid by transfer;
the matter is referred to the Town Attorney with the fine count as it stood; the restaurant
cleans the interceptor at last (verified); the Town Justice Court convicts and fines it; the
clerk receives part of the fine at the counter (a payment on the person's statement).

Every step through the services, by the users the law names, back-dated from the demo's
anchor (``s.day(n)``: n days before it), like the other stories of :mod:`.enforcement`.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from sewer_office.billing.enforcement import bill_costs, record_collection
from sewer_office.billing.payments import Allocation, record_payment
from sewer_office.core.services import perform
from sewer_office.enforcement import money, services
from sewer_office.registry.models import Establishment

from .story import Story, at

#: The fine the court imposes when the count could not be stated (amount not configured).
FALLBACK_FINE = Decimal("1000.00")
#: What the restaurant pays the Town at the counter on the fine.
PAID_AT_THE_COUNTER = Decimal("500.00")


def the_whole_way(s: Story, est: Establishment) -> None:
    """Costs billed and paid, referral with its count, judgment, a collection by the Town."""
    found = s.day(160)
    v = services.open_violation(
        s.inspector,
        kind="overdue_pumpout",
        section="§ 196-19 G",
        description="Grease interceptor not pumped out; grease blocked the sewer main "
        "downstream and the Highway crew had to clear it.",
        person=est.operator,
        establishment=est,
        observed_on=found,
        at=at(found, 13),
    )
    v = s.issue(v, s.day(158), "Grease interceptor overdue for cleaning; main blocked by grease")
    v = s.serve(v, s.day(157), method="personal")
    services.record_cost(
        v,
        s.clerk,
        category="repairs",
        description="Jetting of the sewer main below the restaurant (Highway crew, vactor truck)",
        amount=Decimal("640.00"),
        incurred_on=found,
        at=at(s.day(156), 10),
    )
    services.record_cost(
        v,
        s.su,
        category="staff_hours",
        description="Superintendent's inspection of the main and report",
        hours=Decimal("2.00"),
        amount=Decimal("150.00"),
        incurred_on=s.day(156),
        at=at(s.day(156), 16),
    )
    s.clocks(s.deadline(v) + timedelta(days=1))
    v.refresh_from_db()
    invoice = bill_costs(v, s.clerk, at=at(s.day(140), 11))
    record_payment(
        s.clerk,
        person=v.person,
        amount=invoice.total,
        method="transfer",
        reference="ACH 0046120",
        received_on=s.day(125),
        allocations=[Allocation(invoice)],
        at=at(s.day(125), 14),
    )
    v = perform(
        v,
        "refer",
        s.su,
        {"kind": "town_attorney", "referred_to": "Town Attorney"},
        at=at(s.day(120), 9),
    )
    v = s.report(v, s.day(110), "Interceptor pumped out; hauler's manifest 2026-201.")
    perform(
        v,
        "verify",
        s.inspector,
        {"verified_on": s.day(108), "note": "Interceptor clean; main flowing."},
        at=at(s.day(108), 11),
    )
    referral = v.referrals.get()
    counted = (referral.fine or {}).get("total")
    judged = s.day(60)
    judgment = money.record_judgment(
        v,
        s.clerk,
        referral=referral,
        court="Town of Wappinger Justice Court",
        docket=f"CR-{judged.year}-0117",
        judgment_on=judged,
        fine_amount=Decimal(counted) if counted else FALLBACK_FINE,
        note="Convicted on the information of the Town Attorney (EXAMPLE record).",
        at=at(s.day(58), 10),
    )
    record_collection(
        judgment,
        s.clerk,
        amount=min(PAID_AT_THE_COUNTER, judgment.fine_amount),
        collected_on=s.day(45),
        collected_by="town",
        method="check",
        reference="1187",
        note="First part of the fine, paid at the Town Hall.",
        at=at(s.day(45), 11),
    )
    v.refresh_from_db()
    s.stages["fine_collected"] = v
