"""What an invoice has been paid, what is left and its status — computed, never stored.

An issued invoice is never edited (:mod:`.models`), so what it has become since is read from
the records made after it: the payments applied to it (:class:`.models.PaymentApplication`)
and the credit notes issued against it. :func:`with_balance` adds them to a queryset in one
query (the invoice list shows, filters and downloads them); :class:`.models.Invoice`'s
``paid``, ``balance`` and ``status`` properties read those values, or query them for a single
invoice. The rule is the payments module's (:func:`.payments.outstanding_of`): what is owed is
the total, less the issued credit notes against it and the payments applied to it; a void
invoice or a credit note owes nothing.

The models' properties call :func:`figures`, so this module imports no model: it reaches the
records it sums through the relations of the records it is given (an invoice's
``applications`` and ``credit_notes``, a payment's ``applications`` and ``refunds``). The
figures are the invoice's and the payment's own; this is how they are computed, below the
models that show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import Case, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Abs, Coalesce, Greatest

from .choices import InvoiceKind, InvoiceState, PayStatus

ZERO = Decimal("0.00")
_MONEY = models.DecimalField(max_digits=14, decimal_places=2)


def _related(model: type[models.Model], relation: str) -> type[models.Model]:
    """The model at the other end of ``model``'s reverse relation ``relation``."""
    related = model._meta.get_field(relation).related_model
    assert isinstance(related, type)  # a foreign key pointing at ``model``
    return related


def with_balance(qs: QuerySet[Any]) -> QuerySet[Any]:
    """``qs`` of invoices with ``paid_total``, ``credited_total``, ``balance_left`` and
    ``pay_status`` (a :class:`PayStatus` value) annotated — filterable and sortable."""
    invoices = qs.model
    applications = _related(invoices, "applications")
    paid = Coalesce(
        Subquery(
            applications._default_manager.filter(invoice=OuterRef("pk"))
            .order_by()
            .values("invoice")
            .annotate(s=Sum("amount"))
            .values("s")[:1],
            output_field=_MONEY,
        ),
        Value(ZERO),
        output_field=_MONEY,
    )
    credited = Coalesce(
        Subquery(
            invoices._default_manager.filter(
                credits=OuterRef("pk"),
                kind=InvoiceKind.CREDIT_NOTE,
                state=InvoiceState.ISSUED,
            )
            .order_by()
            .values("credits")
            .annotate(s=Sum(Abs("total")))
            .values("s")[:1],
            output_field=_MONEY,
        ),
        Value(ZERO),
        output_field=_MONEY,
    )
    owing = Q(kind=InvoiceKind.INVOICE, state=InvoiceState.ISSUED)
    annotated: QuerySet[Any] = qs.annotate(paid_total=paid, credited_total=credited).annotate(
        balance_left=Case(
            When(
                owing,
                then=Greatest(
                    models.F("total") - models.F("credited_total") - models.F("paid_total"),
                    Value(ZERO),
                    output_field=_MONEY,
                ),
            ),
            default=Value(ZERO),
            output_field=_MONEY,
        ),
        pay_status=Case(
            When(state=InvoiceState.VOID, then=Value(PayStatus.VOID.value)),
            When(kind=InvoiceKind.CREDIT_NOTE, then=Value(PayStatus.CREDIT_NOTE.value)),
            When(
                Q(total__lte=models.F("credited_total") + models.F("paid_total"))
                & Q(paid_total__gt=0),
                then=Value(PayStatus.PAID.value),
            ),
            When(
                total__lte=models.F("credited_total") + models.F("paid_total"),
                then=Value(PayStatus.CREDITED.value),
            ),
            When(paid_total__gt=0, then=Value(PayStatus.PART_PAID.value)),
            default=Value(PayStatus.ISSUED.value),
            output_field=models.CharField(),
        ),
    )
    return annotated


def figures(invoice: Any) -> tuple[Decimal, Decimal, str]:
    """``(paid, balance, status)`` of one invoice: the annotated values when the invoice came
    from :func:`with_balance`, else read by a query (a detail page, a PDF, the API)."""
    if getattr(invoice, "pay_status", None) is None:
        invoice = with_balance(type(invoice)._default_manager.filter(pk=invoice.pk)).get()
    return (
        Decimal(invoice.paid_total).quantize(ZERO),
        Decimal(invoice.balance_left).quantize(ZERO),
        str(invoice.pay_status),
    )


def sums_by(qs: QuerySet[Any], key: str, field: str = "amount") -> dict[int, Decimal]:
    """The sum of ``field`` of ``qs``'s rows for each value of ``key`` (one grouped query):
    what was applied to each invoice or payment, refunded out of each payment, credited
    against each invoice. A key with no row is absent (read it with ``.get(k) or 0``)."""
    grouped = qs.order_by().values(key).annotate(s=Sum(field)).values_list(key, "s")
    return {k: Decimal(v) for k, v in grouped}


def unapplied_of(payments: Sequence[Any]) -> dict[int, Decimal]:
    """What of each payment is not applied to an invoice nor refunded out of it."""
    if not payments:
        return {}
    ids = [p.pk for p in payments]
    model = type(payments[0])
    applications = _related(model, "applications")._default_manager
    refunds = _related(model, "refunds")._default_manager
    applied = sums_by(applications.filter(payment_id__in=ids), "payment_id")
    refunded = sums_by(refunds.filter(payment_id__in=ids), "payment_id")
    return {
        p.pk: Decimal(p.amount) - (applied.get(p.pk) or 0) - (refunded.get(p.pk) or 0)
        for p in payments
    }
