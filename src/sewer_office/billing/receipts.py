"""The receipt of a payment, on the letters engine (the statement is :mod:`.statement_letter`).

- ``billing.receipt`` — a document of record, kept when the payment is recorded
  (:func:`issue_receipt`, called by :mod:`.payments`): who paid, when, how much and how, what
  it paid (the invoices it was applied to at that moment), what is left as credit. A later
  refund or application is on the payment's page and the statement, not on the receipt.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from sewer_office.accounts.actors import Actor
from sewer_office.core import letters
from sewer_office.core.letters import LetterKind, long_date, signer
from sewer_office.core.models import IssuedDocument
from sewer_office.enforcement.letters import usd
from sewer_office.registry.addresses import mailing_lines

from .balances import unapplied_of
from .models import Payment

RECEIPT = "billing.receipt"


# --- the receipt (of record) -------------------------------------------------------------------


def _method(payment: Payment) -> str:
    method = payment.get_method_display()
    if payment.reference:
        label = "check no." if payment.method == "check" else "reference"
        method += f" ({label} {payment.reference})"
    return method


def receipt_context(payment: Payment) -> Mapping[str, str]:
    applied = list(payment.applications.select_related("invoice").order_by("id"))
    rows = ["|| Applied to invoice | Amount"] if applied else []
    rows += [f"| {a.invoice.number} | {usd(a.amount)}" for a in applied]
    left = unapplied_of([payment])[payment.pk]
    return {
        "receipt": f"Receipt {payment.receipt_number}",
        "date": long_date(payment.received_on),
        "payer": "\n".join(mailing_lines(payment.person)),
        "received": (
            f"Received on {long_date(payment.received_on)} from {payment.person.name} the sum "
            f"of {usd(Decimal(payment.amount))}, by {_method(payment)}."
        ),
        "applied": "\n".join(rows) if rows else "Not applied to an invoice.",
        "credit": (
            f"Not applied to an invoice: {usd(left)}, held as credit of the payer."
            if left > 0
            else ""
        ),
        "notes": payment.notes,
        "recorded_by": (
            f"Recorded by {signer(payment.recorded_by)} on {long_date(payment.recorded_at)}."
        ),
    }


RECEIPT_BODY = """## {{ receipt }}
Date: {{ date }}

{{ payer }}

{{ received }}

{{ applied }}
{% if credit %}{{ credit }}
{% endif %}{% if notes %}Notes: {{ notes }}
{% endif %}
~ {{ recorded_by }}
"""

RECEIPT_KIND = letters.register(
    LetterKind(
        key=RECEIPT,
        name="Receipt of a payment",
        fields={
            "receipt": "the receipt's number",
            "date": "the day the money was received, written out",
            "payer": "the payer and its mailing address (several lines)",
            "received": "from whom, how much (to the cent), by what method and reference",
            "applied": "the invoices the payment was applied to, with the amounts",
            "credit": "what was not applied, held as credit (empty when none)",
            "notes": "the notes recorded with the payment",
            "recorded_by": "who recorded the payment, and when",
        },
        required=("receipt", "received", "applied"),
        default_body=RECEIPT_BODY,
        context=receipt_context,
        records=lambda: Payment.objects.order_by("-recorded_at", "-id"),
        title=lambda p: f"Receipt {p.receipt_number}",
        filename=lambda p: f"receipt-{p.receipt_number}.pdf",
        created=lambda p: p.recorded_at,
    )
)


def issue_receipt(payment: Payment, actor: Actor) -> IssuedDocument:
    """The receipt of record, kept when the payment is recorded (its applications made)."""
    return letters.issue(RECEIPT, payment, actor=actor)


def receipt_document(payment: Payment) -> IssuedDocument:
    """The kept receipt (a payment recorded before receipts were kept: on first request)."""
    return letters.issued_or_issue(RECEIPT, payment, actor=payment.recorded_by)


def receipt_pdf(payment: Payment) -> bytes:
    """The receipt's PDF: the bytes kept when the payment was recorded."""
    return bytes(receipt_document(payment).content)
