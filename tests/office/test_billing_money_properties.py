"""Properties of the money: whatever the clerk does, in whatever order — invoices, credit
notes, payments applied or not, credit applied later, refunds, refusals — no invoice owes less
than nothing nor is paid beyond its total, the credit is never negative, and the statement's
closing balance equals what is outstanding on the invoices less the credit, to the cent."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_office.billing import statements
from sewer_office.billing.choices import InvoiceKind
from sewer_office.billing.credit import apply_credit, refund
from sewer_office.billing.models import Invoice, PaymentApplication
from sewer_office.billing.payments import Allocation, credit_of, outstanding_of, record_payment
from sewer_office.core.errors import OfficeError

from .billing_money_factories import invoice
from .factories import Town

cents = st.integers(min_value=1, max_value=50_000).map(lambda c: Decimal(c) / 100)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("invoice"), cents),
        st.tuples(st.just("credit_note"), cents),
        st.tuples(st.just("pay"), cents, st.integers(0, 3)),
        st.tuples(st.just("pay_exact"), cents, st.integers(0, 3)),
        st.tuples(st.just("apply"), st.integers(0, 3)),
        st.tuples(st.just("refund"), cents),
    ),
    min_size=1,
    max_size=14,
)


def _step(town: Town, op: tuple[Any, ...], invoices: list[Invoice]) -> None:
    clerk, person = town.u("clerk"), town.owner_person
    today = timezone.localdate()
    kind = op[0]
    if kind == "invoice":
        invoices.append(invoice(town, person, str(op[1]), issued_on=today - timedelta(9),
                                due_on=today))  # type: ignore[arg-type]  # fmt: skip
        return
    open_ = [i for i in invoices if i.kind == InvoiceKind.INVOICE]
    if kind == "credit_note":
        if open_:  # a credit note for at most what the invoice still owes
            target = open_[-1]
            left = outstanding_of([target])[target.pk]
            if left > 0:
                invoice(town, person, str(-min(op[1], left)), issued_on=today - timedelta(8),
                        due_on=None, kind=InvoiceKind.CREDIT_NOTE, credits=target)  # type: ignore[arg-type]  # fmt: skip
        return
    index = op[-1] if isinstance(op[-1], int) else 0
    pick = [open_[index % len(open_)]] if open_ else []
    try:
        if kind == "pay":
            record_payment(clerk, person=person, amount=op[1], method="cash",  # type: ignore[arg-type]
                           allocations=[Allocation(i) for i in pick])  # fmt: skip
        elif kind == "pay_exact":
            record_payment(clerk, person=person, amount=op[1], method="cash",  # type: ignore[arg-type]
                           allocations=[Allocation(i, op[1]) for i in pick])  # fmt: skip
        elif kind == "apply":
            apply_credit(clerk, person=person, allocations=[Allocation(i) for i in pick])  # type: ignore[arg-type]
        elif kind == "refund":
            refund(clerk, person=person, amount=op[1], reason="test", method="cash")  # type: ignore[arg-type]
    except OfficeError:
        pass  # refused, all or nothing: the invariants hold all the same


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=ops)
def test_balances_hold_whatever_the_order(town: Town, steps: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        invoices: list[Invoice] = []
        for op in steps:
            _step(town, op, invoices)
        person = town.owner_person
        assert person is not None
        owed = Invoice.objects.filter(person=person, kind=InvoiceKind.INVOICE)
        left = outstanding_of(list(owed))
        for inv in owed:
            applied = PaymentApplication.objects.filter(invoice=inv).aggregate(s=Sum("amount"))
            credited = Invoice.objects.filter(credits=inv).aggregate(s=Sum("total"))["s"] or 0
            assert left[inv.pk] >= 0
            assert (applied["s"] or 0) <= inv.total - abs(credited)
        assert credit_of(person) >= 0
        sheet = statements.statement(person)
        assert sheet.balance == sum(left.values(), Decimal(0)) - credit_of(person)
        transaction.set_rollback(True)
