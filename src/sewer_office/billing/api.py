"""API of billing: charges, invoices, payments and statements.

``GET /api/billing/charges/``, ``/invoices/``, ``/payments/`` (the filters of the pages:
``?person=``, ``?state=``, ``?source=``...); ``GET /api/billing/statements/<person id>/``
(``?start=&end=``) — the statement with its running balance. ``POST /api/billing/payments/``
(``{"person": 3, "amount": "120.00", "method": "check", "reference": "1044",
"invoices": [12, 13]}``, or ``"applications": [{"invoice": 12, "amount": "50.00"}]``) records a
payment (clerk); ``GET /api/billing/payments/<id>/receipt/`` is its receipt PDF;
``POST /api/billing/statements/<person id>/refund/`` and ``.../apply-credit/`` refund credit
and apply it (clerk); ``POST /api/billing/permit-fees/<building-sewer|subdivision>/<id>/invoice/``
issues a permit's fee invoice (clerk); ``POST /api/billing/invoices/<id>/credit/``
(``{"reason": "...", "lines": [41, 42]}``, no ``lines``: every line) issues a credit note and
``POST /api/billing/invoices/<id>/void/`` (``{"reason": "..."}``) voids it (billing roles);
runs and surcharge decisions and agreements: :mod:`.surcharge_api`; a violation's
``bill-costs`` and ``collection`` (§ 196-22 B, C): :mod:`.enforcement_api`. Each record says
the member town whose books it is in (``jurisdiction``); a payment or refund applied to no
invoice may name it (``"town"``). Staff read the books of the towns they act for (a statement:
those towns' entries); outside users read their own persons' charges,
invoices, receipts and statements — another's is 404. Refusals answer with the services'
message (400, 403, 409). What the API reads and answers (the serializers): :mod:`.serializers`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action, api_view
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.accounts.jurisdictions import towns_seen
from sewer_office.permits.models import BuildingSewerPermit, SubdivisionSewer
from sewer_office.registry.models import Person

from . import (
    credit,
    enforcement_api,
    invoices,
    payments,
    permit_fees,
    receipts,
    statements,
    surcharge_api,
)
from .balances import with_balance
from .filters import ChargeFilter, InvoiceFilter, PaymentFilter
from .ledger import require_biller
from .models import Charge, Invoice, Payment
from .payments import Allocation
from .serializers import (
    ApplicationSerializer,
    ChargeSerializer,
    CreditInput,
    InvoiceCreditInput,
    InvoiceSerializer,
    InvoiceVoidInput,
    PaymentInput,
    PaymentSerializer,
    RefundInput,
)


class ChargeViewSet(viewsets.ReadOnlyModelViewSet[Charge]):
    """Charges with their citation, parameters and computation."""

    serializer_class = ChargeSerializer
    filterset_class = ChargeFilter

    def get_queryset(self) -> Any:
        return visible(Charge.objects.order_by("-assessed_on", "-id"), self.request.user)


class InvoiceViewSet(viewsets.ReadOnlyModelViewSet[Invoice]):
    """Invoices and credit notes, with their lines and what is still outstanding."""

    serializer_class = InvoiceSerializer
    filterset_class = InvoiceFilter

    def get_queryset(self) -> Any:
        return visible(
            with_balance(Invoice.objects.prefetch_related("lines")).order_by("-year", "-sequence"),
            self.request.user,
        )

    @extend_schema(request=InvoiceCreditInput, responses={201: InvoiceSerializer})
    @action(detail=True, methods=["post"])
    def credit(self, request: Request, pk: str | None = None) -> Response:
        """Issue a credit note against the invoice (the ``lines`` given, or all), with the
        reason (billing roles); answers the credit note."""
        invoice = self.get_object()
        require_biller(request.user)
        body = InvoiceCreditInput(data=request.data)
        body.is_valid(raise_exception=True)
        ids = body.validated_data["lines"]
        chosen = None
        if ids is not None:
            chosen = list(invoice.lines.filter(pk__in=ids))
            if len(chosen) != len(set(ids)) or not ids:
                raise serializers.ValidationError(
                    {"lines": [f"Give lines of {invoice.number} (at least one)."]}
                )
        note = invoices.credit_note(
            invoice, request.user, body.validated_data["reason"], lines=chosen
        )
        return Response(InvoiceSerializer(note).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=InvoiceVoidInput, responses={200: InvoiceSerializer})
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        """Void the invoice with the reason, while nothing is paid or credited on it (billing
        roles); answers the voided invoice."""
        invoice = self.get_object()
        require_biller(request.user)
        body = InvoiceVoidInput(data=request.data)
        body.is_valid(raise_exception=True)
        done = invoices.void_invoice(invoice, request.user, body.validated_data["reason"])
        return Response(InvoiceSerializer(done).data)


def _invoices_of(request: Request, person: Person, ids: list[int]) -> dict[int, Invoice]:
    found = {i.pk: i for i in visible(Invoice.objects.filter(pk__in=ids), request.user)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise serializers.ValidationError({"invoices": [f"No invoice {missing[0]}."]})
    return found


def _allocations(request: Request, person: Person, data: dict[str, Any]) -> list[Allocation]:
    explicit = data.get("applications") or []
    ids = [a["invoice"] for a in explicit] or list(data.get("invoices") or [])
    found = _invoices_of(request, person, ids)
    if explicit:
        return [Allocation(found[a["invoice"]], a.get("amount")) for a in explicit]
    return [Allocation(found[i]) for i in ids]


class PaymentViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[Payment]):
    """Payments received, with what each paid; POST records one (clerk)."""

    serializer_class = PaymentSerializer
    filterset_class = PaymentFilter

    def get_queryset(self) -> Any:
        return visible(
            Payment.objects.prefetch_related("applications__invoice").order_by(
                "-received_on", "-id"
            ),
            self.request.user,
        )

    @extend_schema(request=PaymentInput, responses={201: PaymentSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        payments.require_money_role(request.user, "Recording a payment")
        body = PaymentInput(data=request.data)
        body.is_valid(raise_exception=True)
        v = body.validated_data
        person = Person.objects.filter(pk=v["person"]).first()
        if person is None:
            raise serializers.ValidationError({"person": [f"No person {v['person']}."]})
        payment = payments.record_payment(
            request.user,
            person=person,
            amount=v["amount"],
            method=v["method"],
            received_on=v["received_on"],
            reference=v["reference"],
            notes=v["notes"],
            allocations=_allocations(request, person, v),
            town=v["town"],
        )
        return Response(PaymentSerializer(payment).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={(200, "application/pdf"): bytes})
    @action(detail=True, methods=["get"])
    def receipt(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The receipt as PDF."""
        payment = self.get_object()
        response = HttpResponse(receipts.receipt_pdf(payment), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="receipt-{payment.receipt_number}.pdf"'
        return response


def _person(request: Request, pk: int) -> Person:
    return get_object_or_404(visible(Person.objects.all(), request.user), pk=pk)


def _money(value: Decimal) -> str:
    return f"{value:.2f}"


class StatementQuery(serializers.Serializer[Any]):
    start = serializers.DateField(required=False, allow_null=True, default=None)
    end = serializers.DateField(required=False, allow_null=True, default=None)


@extend_schema(parameters=[StatementQuery], responses={200: dict})
@api_view(["GET"])
def statement(request: Request, person: int) -> Response:
    """The person's statement: every entry with its running balance, what is owed and the
    credit held (``?start=&end=`` for a span, with the balance brought forward)."""
    who = _person(request, person)
    q = StatementQuery(data=request.query_params)
    q.is_valid(raise_exception=True)
    st = statements.statement(
        who,
        q.validated_data["start"],
        q.validated_data["end"],
        towns=towns_seen(request.user),
    )
    return Response(
        {
            "person": {"id": who.pk, "name": who.name},
            "start": st.start,
            "end": st.end,
            "opening": _money(st.opening),
            "entries": [
                {
                    "date": e.on,
                    "kind": e.kind,
                    "reference": e.reference,
                    "description": e.description,
                    "charges": _money(e.charges),
                    "credits": _money(e.credits),
                    "balance": _money(e.balance),
                }
                for e in st.entries
            ],
            "balance": _money(st.balance),
            "owed": _money(st.owed),
            "credit": _money(st.credit),
        }
    )


@extend_schema(request=RefundInput, responses={201: dict})
@api_view(["POST"])
def refund(request: Request, person: int) -> Response:
    """Refund part of the person's credit, with the reason (clerk)."""
    who = _person(request, person)
    payments.require_money_role(request.user, "Recording a refund")
    body = RefundInput(data=request.data)
    body.is_valid(raise_exception=True)
    r = credit.refund(request.user, person=who, **body.validated_data)
    return Response(
        {"id": r.pk, "amount": _money(r.amount), "refunded_on": r.refunded_on, "reason": r.reason},
        status=status.HTTP_201_CREATED,
    )


@extend_schema(request=CreditInput, responses={201: ApplicationSerializer(many=True)})
@api_view(["POST"])
def apply_credit(request: Request, person: int) -> Response:
    """Apply the person's credit to invoices (clerk)."""
    who = _person(request, person)
    payments.require_money_role(request.user, "Applying credit")
    body = CreditInput(data=request.data)
    body.is_valid(raise_exception=True)
    done = credit.apply_credit(
        request.user, person=who, allocations=_allocations(request, who, body.validated_data)
    )
    return Response(ApplicationSerializer(done, many=True).data, status=status.HTTP_201_CREATED)


FEE_MODELS: dict[str, Any] = {
    "building-sewer": BuildingSewerPermit,
    "subdivision": SubdivisionSewer,
}


@extend_schema(request=None, responses={201: InvoiceSerializer})
@api_view(["POST"])
def permit_fee_invoice(request: Request, kind: str, pk: int) -> Response:
    """Issue the permit's fee invoice to its applicant, due on the application date (clerk);
    the payment that settles it makes the permit's fee step."""
    payments.require_money_role(request.user, "Issuing a permit's fee invoice")
    model = FEE_MODELS.get(kind)
    if model is None:
        raise NotFound(f"No fee is invoiced for {kind!r} records.")
    record = get_object_or_404(visible(model._default_manager.all(), request.user), pk=pk)
    invoice = permit_fees.issue_permit_fee_invoice(request.user, record)
    return Response(InvoiceSerializer(invoice).data, status=status.HTTP_201_CREATED)


ROUTES: list[tuple[str, Any, str]] = [
    ("billing/charges", ChargeViewSet, "billing-charge"),
    ("billing/invoices", InvoiceViewSet, "billing-invoice"),
    ("billing/payments", PaymentViewSet, "billing-payment"),
    *surcharge_api.ROUTES,
]
PATHS: list[URLPattern] = [
    path("billing/statements/<int:person>/", statement, name="billing-statement"),
    path("billing/statements/<int:person>/refund/", refund, name="billing-refund"),
    path(
        "billing/statements/<int:person>/apply-credit/", apply_credit, name="billing-apply-credit"
    ),
    path(
        "billing/permit-fees/<slug:kind>/<int:pk>/invoice/",
        permit_fee_invoice,
        name="billing-permit-fee-invoice",
    ),
    # a violation's money actions, at the violation's address (:mod:`.enforcement_api`)
    path(
        "enforcement/violations/<int:pk>/bill-costs/",
        enforcement_api.violation_bill_costs,
        name="billing-violation-bill-costs",
    ),
    path(
        "enforcement/violations/<int:pk>/collection/",
        enforcement_api.violation_collection,
        name="billing-violation-collection",
    ),
]
