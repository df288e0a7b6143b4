"""A person's statement of account and the aging of what is owed.

A statement (§ 196-15 PERSON: whoever is billed) lists, in date order, the person's invoices
(owed), credit notes (less owed), payments received (less owed), refunds (money returned out
of credit: owed again) and a running balance; void invoices are shown, with their reason, at
nothing. The closing balance is what the person owes less its credit: it equals the sum of
its invoices' outstanding amounts less its unapplied credit (a test holds it to that). In an
office of several member towns a statement is of the books of some towns (``towns``: those a
staff member keeps, :func:`~sewer_office.accounts.jurisdictions.towns_seen`): their invoices, payments and refunds only —
each town's money pays its own invoices, so the equality holds town by town.

The aging report sorts every outstanding amount by the days it is past its due date on a
day: current (not yet due), 1–30, 31–60, 61–90 and more than 90 days.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.registry.models import Person

from .books import in_towns
from .choices import ChargeSource, InvoiceKind, InvoiceState
from .models import Invoice, Payment, Refund
from .payments import ZERO, credit_of, outstanding_of

#: The aging buckets: label and the last day past due each holds (None: no end).
BUCKETS: tuple[tuple[str, int | None], ...] = (
    ("current", 0),
    ("1-30", 30),
    ("31-60", 60),
    ("61-90", 90),
    ("90+", None),
)
BUCKET_LABELS = {
    "current": "Current",
    "1-30": "1–30 days",
    "31-60": "31–60 days",
    "61-90": "61–90 days",
    "90+": "More than 90 days",
}


@dataclass(frozen=True)
class Entry:
    """One line of a statement."""

    on: date
    kind: str  # invoice, credit_note, void, payment, refund
    reference: str
    description: str
    charges: Decimal  # adds to the balance
    credits: Decimal  # takes from it
    balance: Decimal
    record: Any


@dataclass
class Statement:
    person: Person
    entries: list[Entry]
    balance: Decimal
    owed: Decimal
    credit: Decimal
    start: date | None = None
    end: date | None = None
    opening: Decimal = ZERO
    #: The towns whose books it shows (empty: every town's).
    towns: tuple[str, ...] = ()

    @property
    def charges(self) -> Decimal:
        return sum((e.charges for e in self.entries), ZERO)

    @property
    def credits(self) -> Decimal:
        return sum((e.credits for e in self.entries), ZERO)


#: How an invoice billing a source of enforcement reads on the statement.
ENFORCEMENT_SOURCES: dict[str, str] = {
    ChargeSource.FINE_JUDGMENT: "Fine judgment",
    ChargeSource.COST_RECOVERY: "The Town's costs",
}


def _what(invoice: Invoice) -> str:
    """What the invoice bills, when that is a fine judgment or the Town's costs of a violation
    (the court and docket, the citation), so the person can read the statement; else just
    "Invoice"."""
    lines = list(invoice.lines.all())
    sources = {ln.charge.source for ln in lines}
    if len(sources) != 1 or (source := sources.pop()) not in ENFORCEMENT_SOURCES:
        return "Invoice"
    label = ENFORCEMENT_SOURCES[source]
    cite = lines[0].citation
    if source == ChargeSource.FINE_JUDGMENT:
        return f"{label}: {lines[0].description} ({cite})"
    violations = sorted({str(ln.computation.get("violation", "")) for ln in lines} - {""})
    of = f" of {', '.join(violations)}" if violations else ""
    return f"Invoice: {label.lower()}{of} ({cite})"


def _raw(
    person: Person, towns: Collection[str] | None
) -> list[tuple[date, int, str, str, str, Decimal, Decimal, Any]]:
    rows: list[tuple[date, int, str, str, str, Decimal, Decimal, Any]] = []
    invoices = in_towns(Invoice.objects.filter(person=person), towns).select_related("credits")
    for inv in invoices.prefetch_related("lines__charge"):
        if inv.kind == InvoiceKind.CREDIT_NOTE:
            what = f"Credit note against {inv.credits.number}" if inv.credits else "Credit note"
            if inv.reason:
                what += f": {inv.reason}"
            amount = abs(Decimal(inv.total))
            if inv.state == InvoiceState.VOID:
                rows.append(
                    (inv.issued_on, 1, "void", inv.number, f"{what} (void)", ZERO, ZERO, inv)
                )
            else:
                rows.append((inv.issued_on, 1, "credit_note", inv.number, what, ZERO, amount, inv))
            continue
        due = f", due {inv.due_on:%Y-%m-%d}" if inv.due_on else ""
        if inv.state == InvoiceState.VOID:
            rows.append(
                (
                    inv.issued_on,
                    0,
                    "void",
                    inv.number,
                    f"Invoice (void: {inv.void_reason})",
                    ZERO,
                    ZERO,
                    inv,
                )
            )
        else:
            rows.append(
                (
                    inv.issued_on,
                    0,
                    "invoice",
                    inv.number,
                    f"{_what(inv)}{due}",
                    Decimal(inv.total),
                    ZERO,
                    inv,
                )
            )
    for p in in_towns(Payment.objects.filter(person=person), towns):
        ref = f" {p.reference}" if p.reference else ""
        rows.append(
            (
                p.received_on,
                2,
                "payment",
                p.receipt_number,
                f"Payment, {p.get_method_display().lower()}{ref}",
                ZERO,
                Decimal(p.amount),
                p,
            )
        )
    for r in in_towns(Refund.objects.filter(person=person), towns):
        rows.append(
            (
                r.refunded_on,
                3,
                "refund",
                f"refund #{r.pk}",
                f"Refund: {r.reason}",
                Decimal(r.amount),
                ZERO,
                r,
            )
        )
    rows.sort(key=lambda r: (r[0], r[1], r[7].pk))
    return rows


def statement(
    person: Person,
    start: date | None = None,
    end: date | None = None,
    *,
    towns: Collection[str] | None = None,
) -> Statement:
    """The person's statement, every entry or those from ``start`` to ``end`` (inclusive),
    with the balance brought forward from before ``start``: of the books of ``towns`` (every
    town's when ``None``)."""
    running = ZERO
    opening = ZERO
    entries: list[Entry] = []
    for on, _, kind, ref, what, charges, credits, record in _raw(person, towns):
        if end is not None and on > end:
            continue
        running += charges - credits
        if start is not None and on < start:
            opening = running
            continue
        entries.append(Entry(on, kind, ref, what, charges, credits, running, record))
    invoices = list(
        in_towns(
            Invoice.objects.filter(
                person=person, kind=InvoiceKind.INVOICE, state=InvoiceState.ISSUED
            ),
            towns,
        )
    )
    owed = sum(outstanding_of(invoices).values(), ZERO)
    return Statement(
        person=person,
        entries=entries,
        balance=running,
        owed=owed,
        credit=credit_of(person, towns),
        start=start,
        end=end,
        opening=opening,
        towns=tuple(sorted(towns or ())),
    )


# --- aging ------------------------------------------------------------------------------------


def bucket_of(days_past_due: int) -> str:
    for name, last in BUCKETS:
        if last is None or days_past_due <= last:
            return name
    return BUCKETS[-1][0]  # pragma: no cover - the last bucket has no end


@dataclass(frozen=True)
class AgedInvoice:
    invoice: Invoice
    outstanding: Decimal
    days_past_due: int
    bucket: str


@dataclass
class AgingRow:
    person: Person
    buckets: dict[str, Decimal] = field(default_factory=lambda: {b: ZERO for b, _ in BUCKETS})
    invoices: list[AgedInvoice] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum(self.buckets.values(), ZERO)


@dataclass
class Aging:
    on: date
    rows: list[AgingRow]

    @property
    def totals(self) -> dict[str, Decimal]:
        return {b: sum((r.buckets[b] for r in self.rows), ZERO) for b, _ in BUCKETS}

    @property
    def total(self) -> Decimal:
        return sum(self.totals.values(), ZERO)


def open_issued(user: Actor) -> QuerySet[Invoice]:
    return visible(
        Invoice.objects.filter(kind=InvoiceKind.INVOICE, state=InvoiceState.ISSUED), user
    )


def aged(invoices: Sequence[Invoice], on: date) -> list[AgedInvoice]:
    """The invoices with something outstanding, with their days past due on ``on``."""
    left = outstanding_of(invoices)
    out = []
    for inv in invoices:
        amount = left[inv.pk]
        if amount <= 0:
            continue
        days = (on - inv.due_on).days if inv.due_on is not None else 0
        out.append(AgedInvoice(inv, amount, days, bucket_of(days)))
    return out


def aging(on: date, user: Actor) -> Aging:
    """Every outstanding amount ``user`` may see, by person and bucket, on day ``on``."""
    invoices = list(
        open_issued(user)
        .filter(issued_on__lte=on)
        .select_related("person")
        .order_by("person__name", "person_id", "due_on", "id")
    )
    rows: dict[int, AgingRow] = {}
    for a in aged(invoices, on):
        row = rows.setdefault(a.invoice.person_id, AgingRow(a.invoice.person))
        row.buckets[a.bucket] += a.outstanding
        row.invoices.append(a)
    return Aging(on, list(rows.values()))


def overdue(on: date, user: Actor, limit: int | None = None) -> list[AgedInvoice]:
    """Invoices past their due date with something outstanding, longest overdue first."""
    qs = (
        open_issued(user)
        .filter(due_on__lt=on)
        .select_related("person", "establishment")
        .order_by("due_on", "id")
    )
    found = aged(list(qs), on)
    return found[:limit] if limit is not None else found
