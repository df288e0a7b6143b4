"""Charges, billing runs, invoices, payments — the Town's books for the article.

A :class:`Charge` is one amount owed, with the provision it rests on, the dated parameter
values it used and its computation step by step (exact; cents half-up once, at the end). It is
written once. An :class:`Invoice` bills charges to one person (§ 196-15 PERSON); it is numbered
without gaps per year (:class:`NumberSequence`), never edited after issue: a mistake is a
credit note (an invoice of kind ``credit_note`` against it) or a void, each with a reason. A
:class:`BillingRun` (:mod:`.run_models`) computes every facility's surcharge of a period as
:class:`RunLine` rows the clerk reviews before issue. A :class:`Payment` is recorded by the
clerk and applied to invoices (:class:`PaymentApplication`); what is not applied is the
person's credit; a :class:`Refund` returns money with a reason.

In an office of several member towns each town keeps its own books: a charge, an invoice, a
payment and a refund are of one town (``jurisdiction``, written with the record), a payment
pays invoices of its own town only, and a staff member sees the books of the towns they act
for (:mod:`.books`).

Written-once records refuse updates and deletes (:class:`~sewer_office.core.models.
ImmutableRecord`); the only change an issued invoice takes is its void, through the services.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from sewer_office.accounts.towns import primary
from sewer_office.core.models import ImmutableRecord, WrittenOnce

# What an invoice has become since its issue (paid, balance, status) is computed there.
from .balances import figures

# The records a surcharge rests on (§ 196-19 E(1)(d), J) and the billing runs live in their
# own modules; imported here so that the app's models are registered with it and reachable
# from ``.models``.
from .basis_models import SurchargeAgreement, SurchargeDecision, SurchargeEnding
from .choices import ChargeSource, InvoiceKind, InvoiceState, PaymentMethod, PayStatus, Series
from .run_models import BillingRun, RunLine

__all__ = ["BillingRun", "RunLine", "SurchargeAgreement", "SurchargeDecision", "SurchargeEnding"]

#: Outside users reach billing records as the person billed.
PERSON_PATHS = ("person",)
#: Each member town keeps its own books: a charge, an invoice, a payment and a refund are of
#: one town, written with it (:mod:`.books`), and a staff member sees those of the towns they
#: act for (docs/jurisdictions.md).
OWN_TOWN = ("jurisdiction",)


def town_column(what: str) -> models.CharField[str, str]:
    """The member town whose books a record is in, set when it is written and never changed
    (``registry.Property.jurisdiction``'s column; rows written before it: the primary town)."""
    return models.CharField(
        max_length=40, default=primary, db_index=True, editable=False, help_text=what
    )


class NumberSequence(models.Model):
    """The last number used in one series and year; locked FOR UPDATE to take the next one,
    so that numbers are never skipped or used twice, whatever issues at the same time."""

    JURISDICTION_SHARED: ClassVar[str] = (
        "one numbering per installation and year: every member town's invoices and receipts "
        "take their numbers from it"
    )

    series = models.CharField(max_length=20, choices=Series.choices)
    year = models.PositiveIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["series", "year"], name="billing_sequence_once"),
        )

    def __str__(self) -> str:
        return f"{self.series} {self.year}: {self.last}"


class Charge(WrittenOnce):
    """One amount owed under the article, and everything it rests on."""

    source = models.CharField(max_length=30, choices=ChargeSource.choices)
    source_key = models.CharField(
        max_length=120,
        db_index=True,
        help_text="what was charged, e.g. 'permits.buildingsewerpermit:12' or "
        "'surcharge:7:2026-Q1' — a source is billed once unless credited",
    )
    citation = models.CharField(max_length=80)
    description = models.CharField(max_length=300)
    person = models.ForeignKey("registry.Person", on_delete=models.PROTECT, related_name="charges")
    establishment = models.ForeignKey(
        "registry.Establishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="charges",
    )
    property = models.ForeignKey(
        "registry.Property", null=True, blank=True, on_delete=models.PROTECT, related_name="charges"
    )
    content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    object_id = models.CharField(max_length=64, blank=True)
    assessed_on = models.DateField(help_text="the date whose parameters the amount rests on")
    period_start = models.DateField(null=True, blank=True)
    period_end = models.DateField(null=True, blank=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    computation = models.JSONField(
        default=dict, help_text="steps shown, parameters used (value, authority, effective)"
    )
    run = models.ForeignKey(
        BillingRun, null=True, blank=True, on_delete=models.PROTECT, related_name="charges"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    jurisdiction = town_column(
        "the member town whose books it is in: the town whose values it was computed under"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = PERSON_PATHS
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = OWN_TOWN

    class Meta:
        ordering = ("-assessed_on", "-id")

    def __str__(self) -> str:
        return f"{self.get_source_display()} USD {self.amount:,}"


class Invoice(models.Model):
    """An invoice or a credit note, numbered without gaps per year, never edited after issue.

    ``state`` changes once at most, from issued to void (with ``void_reason``), through the
    services; everything else is written at issue.
    """

    kind = models.CharField(max_length=20, choices=InvoiceKind.choices, default=InvoiceKind.INVOICE)
    number = models.CharField(max_length=20, unique=True, help_text="e.g. 2026-0001")
    year = models.PositiveIntegerField()
    sequence = models.PositiveIntegerField()
    person = models.ForeignKey("registry.Person", on_delete=models.PROTECT, related_name="invoices")
    establishment = models.ForeignKey(
        "registry.Establishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="invoices",
    )
    issued_on = models.DateField()
    due_on = models.DateField(null=True, blank=True)
    due_basis = models.JSONField(
        default=dict, help_text="the dated parameter the due date rests on"
    )
    total = models.DecimalField(max_digits=14, decimal_places=2)
    state = models.CharField(
        max_length=20, choices=InvoiceState.choices, default=InvoiceState.ISSUED
    )
    credits = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="credit_notes",
        help_text="for a credit note: the invoice it credits",
    )
    reason = models.TextField(blank=True, help_text="for a credit note: why")
    run = models.ForeignKey(
        BillingRun, null=True, blank=True, on_delete=models.PROTECT, related_name="invoices"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField(default=timezone.now)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    jurisdiction = town_column(
        "the member town whose books it is in: its charges' (a credit note: its invoice's)"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = PERSON_PATHS
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = OWN_TOWN

    class Meta:
        ordering = ("-year", "-sequence")
        constraints = (
            models.UniqueConstraint(fields=["year", "sequence"], name="billing_invoice_number"),
        )
        indexes = (models.Index(fields=["person", "issued_on"], name="billing_invoice_person"),)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.number}"

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("issued invoices are never deleted (void or credit them)")

    # What the invoice has become since its issue, read from the payments applied to it and
    # the credit notes against it (:mod:`.balances`), never stored on the invoice.

    def _figures(self) -> tuple[Any, Any, str]:
        cached = self.__dict__.get("_balance_figures")
        if cached is None:
            cached = self.__dict__["_balance_figures"] = figures(self)
        return cached

    @property
    def paid(self) -> Any:
        """What payments applied to this invoice sum to (Decimal)."""
        return self._figures()[0]

    @property
    def balance(self) -> Any:
        """What is still owed on it (Decimal; 0 for a void invoice or a credit note)."""
        return self._figures()[1]

    @property
    def status(self) -> str:
        """Issued, part paid, paid, credited, void or credit note (a ``PayStatus`` value)."""
        return self._figures()[2]

    @property
    def status_label(self) -> str:
        return str(PayStatus(self.status).label)


class InvoiceLine(WrittenOnce):
    """One line of an invoice: a charge (or its credit), with its citation and computation."""

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="lines")
    position = models.PositiveIntegerField()
    charge = models.ForeignKey(Charge, on_delete=models.PROTECT, related_name="invoice_lines")
    description = models.CharField(max_length=300)
    citation = models.CharField(max_length=80)
    amount = models.DecimalField(
        max_digits=12, decimal_places=2, help_text="negative on a credit note"
    )
    computation = models.JSONField(default=dict)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"invoice__{p}" for p in PERSON_PATHS)
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = ("invoice__jurisdiction",)

    class Meta:
        ordering = ("invoice", "position")
        constraints = (
            models.UniqueConstraint(fields=["invoice", "position"], name="billing_line_position"),
        )

    def __str__(self) -> str:
        return f"{self.invoice.number} #{self.position}"


class Payment(WrittenOnce):
    """Money received by the clerk from one person, with its receipt number."""

    receipt_number = models.CharField(max_length=20, unique=True, help_text="e.g. R2026-0001")
    person = models.ForeignKey("registry.Person", on_delete=models.PROTECT, related_name="payments")
    received_on = models.DateField()
    method = models.CharField(max_length=20, choices=PaymentMethod.choices)
    reference = models.CharField(
        max_length=60, blank=True, help_text="check number, card or transfer reference"
    )
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    jurisdiction = town_column(
        "the member town whose books received it: the town of the invoices it pays"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = PERSON_PATHS
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = OWN_TOWN

    class Meta:
        ordering = ("-received_on", "-id")

    def __str__(self) -> str:
        return f"Payment {self.receipt_number} USD {self.amount:,}"


class PaymentApplication(WrittenOnce):
    """Part of a payment applied to one invoice (partial payments; the rest is credit)."""

    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="applications")
    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="applications")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    applied_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"payment__{p}" for p in PERSON_PATHS)
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = ("payment__jurisdiction",)

    class Meta:
        ordering = ("applied_at", "id")

    def __str__(self) -> str:
        return f"{self.payment.receipt_number} → {self.invoice.number}: {self.amount}"


class Refund(WrittenOnce):
    """Money returned to a person out of its credit, with the reason."""

    person = models.ForeignKey("registry.Person", on_delete=models.PROTECT, related_name="refunds")
    payment = models.ForeignKey(
        Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="refunds"
    )
    refunded_on = models.DateField()
    method = models.CharField(max_length=20, choices=PaymentMethod.choices)
    reference = models.CharField(max_length=60, blank=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    reason = models.TextField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    jurisdiction = town_column("the member town whose books it is paid out of: its payment's")

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = PERSON_PATHS
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = OWN_TOWN

    class Meta:
        ordering = ("-refunded_on", "-id")

    def __str__(self) -> str:
        return f"Refund USD {self.amount:,} ({self.refunded_on})"
