"""Receipt numbers and invoice balances under concurrent payments (PostgreSQL, threads).

Two clerks at once: every receipt number of the year is used once, none skipped, and the
invoice they both pay is never paid beyond its total (the person's row and the invoice are
locked FOR UPDATE; the rest of the second payment is credit). Runs on PostgreSQL only
(``DATABASE_URL=postgresql://...``): SQLite serialises writers itself.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from sewer_office.billing.models import Payment
from sewer_office.billing.payments import Allocation, credit_of, outstanding, record_payment

from .billing_money_factories import invoice
from .factories import make_town

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]


def _together(jobs: list[Any]) -> list[BaseException]:
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job: Any) -> None:
        try:
            barrier.wait()
            job()
        except BaseException as e:
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


def test_concurrent_payments_take_every_receipt_number_once_and_never_overpay() -> None:
    town = make_town()
    today = timezone.localdate()
    inv = invoice(town, town.owner_person, "100.00", issued_on=today - timedelta(5), due_on=today)  # type: ignore[arg-type]
    clerk = town.u("clerk")

    def pay_invoice() -> None:
        record_payment(clerk, person=town.owner_person, amount="80.00", method="cash",
                       allocations=[Allocation(inv)])  # fmt: skip

    def pay_other() -> None:
        record_payment(clerk, person=town.other_person, amount="1.00", method="cash")

    errors = _together([pay_invoice, pay_invoice, *[pay_other] * 6])
    assert not errors, errors
    year = today.year
    numbers = sorted(Payment.objects.values_list("receipt_number", flat=True))
    assert numbers == [f"R{year}-{n:04d}" for n in range(1, 9)]
    assert outstanding(inv) == Decimal("0.00")
    assert credit_of(town.owner_person) == Decimal("60.00")  # type: ignore[arg-type]
