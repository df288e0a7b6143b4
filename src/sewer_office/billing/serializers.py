"""What billing's API answers and reads: the serializers of charges, invoices (with what is
paid and owed on each), payments (with their applications), and the inputs of recording a
payment, a refund, credit applied, a credit note and a void. Apart from :mod:`.api` (the
endpoints) so that each reads on its own; the field lists are the API's published shape.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from . import balances, payments
from .models import Charge, Invoice, InvoiceLine, Payment, PaymentApplication


class ChargeSerializer(serializers.ModelSerializer[Charge]):
    class Meta:
        model = Charge
        fields = (
            "id",
            "source",
            "source_key",
            "citation",
            "description",
            "person",
            "establishment",
            "property",
            "assessed_on",
            "period_start",
            "period_end",
            "amount",
            "computation",
            "run",
            "created_at",
            "jurisdiction",
        )


class LineSerializer(serializers.ModelSerializer[InvoiceLine]):
    class Meta:
        model = InvoiceLine
        fields = ("position", "charge", "description", "citation", "amount", "computation")


class InvoiceSerializer(serializers.ModelSerializer[Invoice]):
    lines = LineSerializer(many=True, read_only=True)
    outstanding = serializers.SerializerMethodField()
    paid = serializers.SerializerMethodField(help_text="payments applied to it")
    balance = serializers.SerializerMethodField(help_text="what is still owed on it")
    status = serializers.SerializerMethodField(
        help_text="issued, part_paid, paid, credited, void or credit_note"
    )
    status_label = serializers.SerializerMethodField()

    class Meta:
        model = Invoice
        fields = (
            "id",
            "kind",
            "number",
            "person",
            "establishment",
            "issued_on",
            "due_on",
            "due_basis",
            "total",
            "outstanding",
            "paid",
            "balance",
            "status",
            "status_label",
            "state",
            "credits",
            "reason",
            "void_reason",
            "run",
            "jurisdiction",
            "lines",
        )

    def get_outstanding(self, obj: Invoice) -> str:
        return str(payments.outstanding(obj))

    def get_paid(self, obj: Invoice) -> str:
        return str(obj.paid)

    def get_balance(self, obj: Invoice) -> str:
        return str(obj.balance)

    def get_status(self, obj: Invoice) -> str:
        return obj.status

    def get_status_label(self, obj: Invoice) -> str:
        return obj.status_label


class ApplicationSerializer(serializers.ModelSerializer[PaymentApplication]):
    invoice_number = serializers.CharField(source="invoice.number", read_only=True)

    class Meta:
        model = PaymentApplication
        fields = ("invoice", "invoice_number", "amount", "applied_at")


class PaymentSerializer(serializers.ModelSerializer[Payment]):
    applications = ApplicationSerializer(many=True, read_only=True)
    unapplied = serializers.SerializerMethodField()

    class Meta:
        model = Payment
        fields = (
            "id",
            "receipt_number",
            "person",
            "received_on",
            "method",
            "reference",
            "amount",
            "notes",
            "recorded_at",
            "jurisdiction",
            "applications",
            "unapplied",
        )

    def get_unapplied(self, obj: Payment) -> str:
        return str(balances.unapplied_of([obj])[obj.pk])


class AllocationInput(serializers.Serializer[Any]):
    invoice = serializers.IntegerField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, required=False)


class PaymentInput(serializers.Serializer[Any]):
    person = serializers.IntegerField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    method = serializers.CharField(max_length=20)
    reference = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    received_on = serializers.DateField(required=False, allow_null=True, default=None)
    notes = serializers.CharField(required=False, default="", allow_blank=True)
    invoices = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    applications = AllocationInput(many=True, required=False, default=list)
    town = serializers.CharField(
        max_length=40,
        required=False,
        default="",
        allow_blank=True,
        help_text="applied to no invoice: the member town whose books receive it",
    )


class RefundInput(serializers.Serializer[Any]):
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    reason = serializers.CharField()
    method = serializers.CharField(max_length=20)
    reference = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    refunded_on = serializers.DateField(required=False, allow_null=True, default=None)
    town = serializers.CharField(
        max_length=40,
        required=False,
        default="",
        allow_blank=True,
        help_text="without a payment: the member town whose credit it returns",
    )


class CreditInput(serializers.Serializer[Any]):
    applications = AllocationInput(many=True)


class InvoiceCreditInput(serializers.Serializer[Any]):
    reason = serializers.CharField()
    lines = serializers.ListField(child=serializers.IntegerField(), required=False, default=None)


class InvoiceVoidInput(serializers.Serializer[Any]):
    reason = serializers.CharField()
