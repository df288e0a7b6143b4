"""The demo town's billing: the last quarter's surcharges of the demo facilities issued
through the billing run, permit fees invoiced and paid at the clerk's desk, and the money
side — paid, partly paid and overdue invoices, a credit note, a credit held and refunded.

The building sewer and subdivision permits take their fee step from the payment of their fee
invoice (:func:`pay_permit_fee`, called by the permit builders at the day of the fee step):
cash, checks with their numbers, cards and transfers with their references, in turn. Then
:func:`load_demo_billing` leaves part of the permits still waiting on their fee invoiced and
overdue, one of them partly paid, one credited in full by a credit note (its applicant
withdrew), and the homeowner ``owner`` an overpayment held as credit,
part of it refunded.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sewer_office.billing.credit import refund
from sewer_office.billing.invoices import credit_note
from sewer_office.billing.models import Invoice
from sewer_office.billing.payments import Allocation, outstanding, record_payment
from sewer_office.billing.permit_fees import issue_permit_fee_invoice
from sewer_office.billing.runs import create_run, issue_run
from sewer_office.billing.surcharge_basis import record_agreement, record_decision
from sewer_office.core.services import perform
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.permits.models import BuildingSewerPermit
from sewer_office.registry.models import Establishment

from .town import Town

#: Methods of payment in turn, with how a reference is written for each.
METHODS = (
    ("check", "{n:04d}"),
    ("cash", ""),
    ("card", "AUTH {n:06d}"),
    ("transfer", "ACH {n:07d}"),
)


def pay_permit_fee(clerk: Any, permit: Any, at: datetime, paid_on: Any) -> Any:
    """Invoice the permit's fee and take its payment in full (the permit's fee step follows);
    the permit, reloaded."""
    invoice = issue_permit_fee_invoice(clerk, permit, at=at)
    method, ref = METHODS[permit.pk % len(METHODS)]
    record_payment(
        clerk,
        person=invoice.person,
        amount=invoice.total,
        method=method,
        reference=ref.format(n=1000 + permit.pk) if ref else "",
        received_on=paid_on,
        allocations=[Allocation(invoice)],
        at=at,
    )
    permit.refresh_from_db()
    return permit


def last_quarter(anchor: date) -> tuple[str, date]:
    """The last calendar quarter that ended before ``anchor``: its label and last day."""
    q = (anchor.month - 1) // 3  # the current quarter, 0-based
    year, q = (anchor.year, q) if q > 0 else (anchor.year - 1, 4)
    last = date(year, 3 * q, 1) + timedelta(days=32)
    return f"{year}-Q{q}", last.replace(day=1) - timedelta(days=1)


#: Weekly grab samples of oil and grease (mg/l; grease is a grab parameter, 40 CFR
#: 403.12(g)) in the quarter, per facility with a declared flow: above the 50 mg/l of normal
#: sewage (§ 196-15 NORMAL SEWAGE), each by its own margin.
GREASE: dict[str, tuple[int, int]] = {
    "Hudson Creamery": (130, 210),
    "Dutchess Precision Machining": (105, 160),
    "Acme Plating Corporation": (60, 99),
}


def _grease_csv(town: Town, first: date, last: date) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["sample_id", "sampled_at", "sample_type", "parameter", "value", "unit",
                "facility", "sampling_point", "method"])  # fmt: skip
    for est in Establishment.objects.filter(name__in=GREASE).order_by("name"):
        low, high = GREASE[est.name]
        day = first + timedelta(days=2)
        while day <= min(last, town.anchor - timedelta(days=1)):
            value = town.rng.randint(low, high)
            w.writerow([f"{est.code}-OG-{day:%y%m%d}", f"{day:%Y-%m-%d}T07:00", "grab",
                        "Oil and grease", value, "mg/l", est.code, "CM-1", "EPA 1664"])  # fmt: skip
            day += timedelta(days=7)
    return out.getvalue()


#: The facility whose surcharge rests on the Superintendent's § 196-19 E(1)(d) decision, the one
#: under a § 196-19 J agreement; Acme Plating, of abnormal strength too, has neither and is
#: listed by the run as "abnormal strength, no surcharge decision".
DECIDED = "Hudson Creamery"
AGREED = "Dutchess Precision Machining"


def surcharge_bases(town: Town, first_day: date) -> None:
    """The Superintendent's decision for the creamery from the quarter's first day, and the
    Town's agreement with the machining company (the Board's rates) from a year before."""
    est = {e.name: e for e in Establishment.objects.filter(name__in=(DECIDED, AGREED))}
    record_decision(
        est[DECIDED],
        town.users["superintendent"],
        basis="instead_of_pretreatment",
        first_day=first_day,
        decided_on=first_day - timedelta(days=20),
        reasons="Dairy wastes of BOD and grease above normal strength (§ 196-15); payment for "
        "the added cost of treatment instead of a pretreatment unit for now.",
        reference=f"Superintendent's letter of {first_day - timedelta(days=20):%Y-%m-%d}",
    )
    start = first_day.replace(year=first_day.year - 1)
    record_agreement(
        est[AGREED],
        town.users["clerk"],
        parties="Town of Wappinger and Dutchess Precision Machining Company",
        terms="Machining coolant wastes of unusual strength accepted for treatment; surcharge "
        "by the Town's formula at the Town Board's rates in force.",
        first_day=start,
        signed_on=start - timedelta(days=3),
        signed_by="Town Supervisor, for the Town; the company's president, for the company",
        board_approval=f"EXAMPLE Town Board resolution of {start - timedelta(days=10):%Y-%m-%d}",
    )


def surcharges(town: Town) -> None:
    """The last quarter's extra-strength surcharges, through the billing run (computed,
    reviewed, issued five days after the quarter's end) of the facilities with a decision or
    agreement (:func:`surcharge_bases`), then the money: every third invoice paid in full by
    check, every third half paid by transfer, the rest left overdue."""
    clerk = town.users["clerk"]
    period, last_day = last_quarter(town.anchor)
    first_day = (last_day.replace(day=1) - timedelta(days=62)).replace(day=1)
    report = import_lab_file(
        _grease_csv(town, first_day, last_day).encode(),
        "demo-grease-grabs.csv",
        town.users["superintendent"],
        today=town.anchor,
    )
    if not report.stored:
        raise RuntimeError(f"demo grease results refused: {report.errors[:5]} {report.refused}")
    surcharge_bases(town, first_day)
    run = create_run(period, clerk)
    issue_run(run, clerk, issued_on=min(last_day + timedelta(days=5), town.anchor))
    for k, inv in enumerate(Invoice.objects.filter(run=run).order_by("sequence")):
        paid_on = min(last_day + timedelta(days=12 + k), town.anchor)
        days = (town.anchor - paid_on).days
        if k % 3 == 0:
            record_payment(clerk, person=inv.person, amount=inv.total, method="check",
                           reference=f"{3100 + k}", received_on=paid_on,
                           allocations=[Allocation(inv)], at=town.moment(days))  # fmt: skip
        elif k % 3 == 1:
            record_payment(clerk, person=inv.person, method="transfer",
                           amount=(inv.total / 2).quantize(Decimal("0.01")),
                           reference=f"ACH {88000 + k}", received_on=paid_on,
                           allocations=[Allocation(inv)], at=town.moment(days))  # fmt: skip


def load_demo_billing(town: Town) -> None:
    """The quarter's surcharges (:func:`surcharges`); fee invoices of the permits still
    waiting on their fee: overdue, one partly paid, one credited; an overpayment held as credit
    and partly refunded."""
    surcharges(town)
    clerk = town.users["clerk"]
    anchor_at = town.moment(0, 30)
    waiting = list(BuildingSewerPermit.objects.filter(state="submitted").order_by("filed_on", "id"))
    issued = []
    for permit in waiting[:3]:  # invoiced when filed: now past due
        filed = (town.anchor - permit.filed_on).days
        issued.append(issue_permit_fee_invoice(clerk, permit, at=town.moment(filed)))
    if issued:
        first = issued[0]
        record_payment(
            clerk,
            person=first.person,
            amount=(first.total / 2).quantize(Decimal("0.01")),
            method="check",
            reference="2291",
            received_on=town.anchor - timedelta(days=1),
            allocations=[Allocation(first)],
            notes="Half now, the rest with the next check.",
            at=town.moment(1),
        )
        assert outstanding(first) > 0
    if len(issued) == 3:  # the third applicant withdrew: its fee invoice credited in full
        withdrawn = waiting[2]
        credit_note(issued[2], clerk, "Application withdrawn before review; fee not due.",
                    issued_on=town.anchor - timedelta(days=1))  # fmt: skip
        perform(withdrawn, "withdraw", clerk, reason="Owner's written request.", at=town.moment(1))
    owner = town.owner_person
    assert owner is not None, "the homeowner is built before billing"
    record_payment(
        clerk,
        person=owner,
        amount="75.00",
        method="cash",
        received_on=town.anchor,
        notes="Paid at the counter before an invoice was issued: held as credit.",
        at=anchor_at,
    )
    refund(
        clerk,
        person=owner,
        amount="25.00",
        reason="Overpaid at the counter; part returned at the owner's request.",
        method="check",
        reference="5012",
        refunded_on=town.anchor,
        at=anchor_at + timedelta(minutes=5),
    )
