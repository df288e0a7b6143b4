"""The invoice (or credit note) as a document of record, on the letters engine.

The kind ``billing.invoice``: the office may reword it; the lines, the total and the billing
address are required merge values. Every word comes from the stored invoice and its lines, in
plain words: amounts to the cent, dates written out, concentrations and pounds rounded for
reading (the exact values stay in the stored computation), parameters by their descriptions
and authorities, never their keys. The document is kept when the invoice is issued
(:func:`issue_document`, called by :mod:`.invoices`); it is a document of its issue date, so
what is paid since, the balance and a void are on the invoice's page, not on it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from sewer_office.accounts.actors import Actor
from sewer_office.core import letter_pdf, letters
from sewer_office.core.letters import LetterKind, long_date, signer
from sewer_office.core.models import IssuedDocument
from sewer_office.enforcement.letters import usd
from sewer_office.registry.addresses import mailing_lines
from sewer_rules.parameters import ParameterError

from .models import Invoice
from .rules import charge_town, params

INVOICE = "billing.invoice"

_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_USD = re.compile(r"USD\s*(-?\d[\d,]*(?:\.\d+)?)")
_LONG = re.compile(r"(?<![\d.])(-?\d+\.\d{5,})(?![\d.])")


def _iso_words(match: re.Match[str]) -> str:
    try:
        return long_date(date(int(match[1]), int(match[2]), int(match[3])))
    except ValueError:
        return match[0]


def _round_reading(match: re.Match[str]) -> str:
    """A long computed decimal rounded for reading: two decimals from 1 up, else four
    significant digits (a small volume in million gallons keeps its digits)."""
    value = Decimal(match[1])
    if abs(value) >= 1:
        return f"{value.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)}"
    return f"{value:.4g}" if value else "0"


def town_of_invoice(invoice: Invoice) -> str:
    """The town whose values the invoice's charges were computed under (an invoice bills one
    town's: :func:`.rules.one_town`), read from its first line's charge."""
    first = invoice.lines.select_related("charge").order_by("position").first()
    assert first is not None, "an invoice bills at least one charge"
    return charge_town(first.charge)


def _keys(town: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """Every parameter key of ``town``'s values, and its description (a key in a stored step
    is printed as what it is, not as the key)."""
    names = {p.name: p.description for p in params(town)}
    ordered = sorted(names, key=len, reverse=True)
    pattern = r"(?<![\w.])(" + "|".join(re.escape(n) for n in ordered) + r")(?![\w])"
    return re.compile(pattern), names


def readable(text: str, town: str) -> str:
    """A stored computation step as the document prints it: parameter keys by their
    descriptions in ``town``'s values, amounts to the cent, long decimals rounded for
    reading, ISO dates written out."""
    keys, names = _keys(town)
    text = keys.sub(lambda m: names[m[1]].split(" (")[0].split(", set by")[0], text)
    text = _USD.sub(lambda m: _usd_words(m[1]), text)
    text = _LONG.sub(_round_reading, text)
    return _ISO.sub(_iso_words, text)


def _usd_words(number: str) -> str:
    try:
        return usd(Decimal(number.replace(",", "")))
    except InvalidOperation:
        return f"USD {number}"


def parameter_words(p: Mapping[str, Any], town: str) -> str:
    """A dated parameter of ``town``'s values as the document names it: its description, value
    and unit, the provision it rests on, since when and on whose authority — not its key."""
    name = str(p.get("name", ""))
    try:
        meta = params(town).parameter(name)
        description, reference = meta.description, meta.reference
    except ParameterError:
        description, reference = name.replace("_", " ").replace(".", ", "), ""
    unit = str(p.get("unit") or "")
    value = p.get("value")
    if value is None:
        amount = "not configured"
    elif unit == "USD":
        amount = usd(Decimal(str(value)))
    else:
        amount = f"{value}{'' if unit in ('', '1') else ' ' + unit}"
    since = p.get("effective")
    parts = [reference or str(p.get("reference") or "")]
    if since:
        parts.append(f"in force since {long_date(date.fromisoformat(str(since)))}")
    if p.get("authority"):
        parts.append(str(p["authority"]))
    where = "; ".join(x for x in parts if x)
    return f"{description}: {amount}" + (f" ({where})" if where else "")


def due_words(invoice: Invoice) -> str:
    """The due date and the parameter it rests on, in words."""
    if invoice.due_on is None:
        return ""
    basis = invoice.due_basis or {}
    days = basis.get("value")
    why = f"{days} days after issue" if days not in (None, "") else "after issue"
    authority = basis.get("authority") or basis.get("reference") or ""
    return (
        f"Due on {long_date(invoice.due_on)}: {why}"
        + (f", as set by {authority}" if authority else "")
        + "."
    )


def lines_text(invoice: Invoice) -> str:
    """Each line: what, the amount to the cent, the provision, its parameters and steps."""
    out: list[str] = []
    town = town_of_invoice(invoice)
    for ln in invoice.lines.order_by("position"):
        out.append(f"# {ln.position}. {ln.description}: {usd(ln.amount)}")
        if ln.citation:
            out.append(f"~ Town Code {ln.citation}")
        comp = ln.computation or {}
        for p in comp.get("parameters", []):
            out.append(f"~ {parameter_words(p, town)}")
        for step in comp.get("steps", []):
            out.append(f"~ {readable(str(step), town)}")
        if comp.get("credits"):
            out.append(f"~ Credits line {comp.get('line')} of invoice {comp['credits']}")
    return "\n".join(out)


def how_to_pay(invoice: Invoice) -> str:
    """Where and how to pay: the payment instructions of the letterhead of the invoice's
    charges' town (the Town paid is the one whose charges they are)."""
    head = letter_pdf.town_head(town_of_invoice(invoice))
    quote = f"Quote {invoice.get_kind_display().lower()} {invoice.number} with your payment."
    if head.payment_instructions.strip():
        return "\n".join([*head.payment_instructions.strip().splitlines(), quote])
    office = ", ".join([head.office_name, *head.address_lines])
    return f"Pay the Town at the {office}. {quote}"


def invoice_context(invoice: Invoice) -> Mapping[str, str]:
    premises = None
    if invoice.establishment is not None:
        premises = invoice.establishment.building.property
    kind = invoice.get_kind_display()
    credits = ""
    if invoice.credits is not None:
        credits = (
            f"This credit note credits invoice {invoice.credits.number} of "
            f"{long_date(invoice.credits.issued_on)}: {invoice.reason}"
        )
    return {
        "document": f"{kind} {invoice.number}",
        "date": long_date(invoice.issued_on),
        "due": due_words(invoice),
        "billed_to": "\n".join(mailing_lines(invoice.person, premises)),
        "facility": invoice.establishment.name if invoice.establishment is not None else "",
        "credits": credits,
        "lines": lines_text(invoice),
        "total": f"Total: {usd(invoice.total)}",
        "how_to_pay": how_to_pay(invoice) if invoice.total > 0 else "",
        "issued_by": signer(invoice.issued_by),
    }


INVOICE_BODY = """## {{ document }}
Date of issue: {{ date }}
{% if due %}{{ due }}
{% endif %}
Billed to:
{{ billed_to }}
{% if facility %}Facility: {{ facility }}
{% endif %}{% if credits %}{{ credits }}
{% endif %}
{{ lines }}

# {{ total }}
{% if how_to_pay %}
# How to pay
{{ how_to_pay }}
{% endif %}"""


INVOICE_KIND = letters.register(
    LetterKind(
        key=INVOICE,
        name="Invoice or credit note",
        fields={
            "document": "invoice or credit note, and its number",
            "date": "the day of issue, written out",
            "due": "the due date and the resolution it rests on",
            "billed_to": "the person billed and its complete mailing address (several lines)",
            "facility": "the facility billed for (empty when none)",
            "credits": "for a credit note: the invoice it credits and why",
            "lines": "each line: what, amount, provision, parameters in words, computation",
            "total": "the total to the cent",
            "how_to_pay": "how to pay (the letterhead's payment instructions)",
            "issued_by": "who issued it",
        },
        required=("document", "billed_to", "lines", "total"),
        default_body=INVOICE_BODY,
        context=invoice_context,
        records=lambda: Invoice.objects.order_by("-issued_at", "-id"),
        title=lambda i: f"{i.get_kind_display()} {i.number}",
        filename=lambda i: f"{i.get_kind_display().lower().replace(' ', '-')}-{i.number}.pdf",
    )
)


def issue_document(invoice: Invoice, actor: Actor) -> IssuedDocument:
    """The invoice's document of record, kept when it is issued."""
    return letters.issue(INVOICE, invoice, actor=actor)


def document(invoice: Invoice) -> IssuedDocument:
    """The stored document (an invoice issued before documents were kept: on first request)."""
    return letters.issued_or_issue(INVOICE, invoice, actor=invoice.issued_by)


def invoice_pdf(invoice: Invoice) -> bytes:
    """The invoice's PDF: the bytes kept at issue."""
    return bytes(document(invoice).content)
