"""The money pages of billing: payments and receipts, credit and refunds, statements, the
aging report, the permits' fee invoices and the accounting export. Every change calls the
services (:mod:`.payments`), so the pages refuse exactly what the API refuses.

Who sees what: staff see the payments, statements, aging report and export of the towns
whose books they keep (a person's statement shows those towns' entries only, :mod:`.books`);
the clerk records payments, applies credit, refunds and issues permit fee invoices. Outside
users see their own persons' statements and receipts (another's is 404), and not the aging
report, the export or the permit fee queue (403).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.jurisdictions import towns_seen
from sewer_office.accounts.roles import STAFF_ROLES, is_staff_member
from sewer_office.billing import (
    balances,
    credit,
    exports,
    payments,
    receipts,
    statement_letter,
    statements,
)
from sewer_office.billing.books import books_offered, several_books
from sewer_office.billing.filters import PaymentPageFilter
from sewer_office.billing.forms import AgingForm, CreditForm, PaymentForm, PeriodForm, RefundForm
from sewer_office.billing.models import Invoice, Payment, PaymentApplication, Refund
from sewer_office.billing.payments import MONEY_ROLES, Allocation
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of
from sewer_office.core.pickers import picked
from sewer_office.registry.models import Person


def _file(body: bytes, content_type: str, name: str, inline: bool = False) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    how = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{how}; filename="{name}"'
    return response


def _person(request: HttpRequest, pk: int) -> Person:
    return get_object_or_404(visible(Person.objects.all(), request.user), pk=pk)


def _open_invoices(request: HttpRequest, person: Person | None) -> Any:
    if person is None:
        return Invoice.objects.none()
    ids = [i.pk for i, _ in payments.open_invoices(person, towns_seen(request.user))]
    return Invoice.objects.filter(pk__in=ids).order_by("due_on", "id")


# --- payments ---------------------------------------------------------------------------------


@office_view()
def payment_list(request: HttpRequest) -> HttpResponse:
    base = visible(
        Payment.objects.select_related("person", "recorded_by").order_by("-received_on", "-id"),
        request.user,
    )
    fs = PaymentPageFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, exports.PAYMENT_COLUMNS, "payments")) is not None:
        return download
    page, query = page_of(request, qs)
    return render(
        request,
        "billing/payment_list.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "may_record": payments.may_record_money(request.user),
            "staff": is_staff_member(request.user),
            "town_column": several_books(request.user),
        },
    )


def _payment_form_page(
    request: HttpRequest, form: PaymentForm, person: Person | None, status: int = 200
) -> HttpResponse:
    towns = towns_seen(request.user)
    return render(
        request,
        "billing/payment_form.html",
        {
            "form": form,
            "person": person,
            "open": payments.open_invoices(person, towns) if person is not None else [],
            "credit": payments.credit_of(person, towns) if person is not None else None,
        },
        status=status,
    )


@office_view(*MONEY_ROLES)
def payment_new(request: HttpRequest) -> HttpResponse:
    """GET ``?person=<id>``: the form with that person's open invoices; POST records it."""
    raw = request.POST.get("person") or request.GET.get("person") or ""
    person = picked(request, PaymentForm.base_fields["person"], raw)
    if request.method != "POST":
        form = PaymentForm(
            open_invoices=_open_invoices(request, person),
            initial={"person": person, "received_on": timezone.localdate()},
            towns=books_offered(request.user),
        )
        return _payment_form_page(request, form, person)
    form = PaymentForm(
        request.POST,
        open_invoices=_open_invoices(request, person),
        towns=books_offered(request.user),
    )

    def record(d: dict[str, Any]) -> Payment:
        chosen = sorted(d["invoices"], key=lambda i: (i.due_on or i.issued_on, i.pk))
        return payments.record_payment(
            request.user,
            person=d["person"],
            amount=d["amount"],
            method=d["method"],
            received_on=d["received_on"],
            reference=d["reference"],
            notes=d["notes"],
            allocations=[Allocation(i) for i in chosen],
            town=d.get("town") or "",
        )

    def recorded(payment: Payment) -> HttpResponse:
        messages.success(
            request,
            f"Payment recorded: receipt {payment.receipt_number}, USD {payment.amount:,}.",
        )
        return redirect("billing:payment-detail", pk=payment.pk)

    return form_action(request, form, record).respond(
        then=recorded, show=lambda status: _payment_form_page(request, form, person, status)
    )


def _payment(request: HttpRequest, pk: int) -> Payment:
    return get_object_or_404(
        visible(Payment.objects.select_related("person", "recorded_by"), request.user), pk=pk
    )


@office_view()
def payment_detail(request: HttpRequest, pk: int) -> HttpResponse:
    payment = _payment(request, pk)
    return render(
        request,
        "billing/payment_detail.html",
        {
            "payment": payment,
            "applications": payment.applications.select_related("invoice").order_by("id"),
            "refunds": payment.refunds.order_by("id"),
            "unapplied": balances.unapplied_of([payment])[payment.pk],
        },
    )


@office_view()
def receipt_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    payment = _payment(request, pk)
    name = f"receipt-{payment.receipt_number}.pdf"
    return _file(receipts.receipt_pdf(payment), "application/pdf", name, True)


# --- credit and refunds -------------------------------------------------------------------


@require_POST
@office_view(*MONEY_ROLES)
def apply_credit(request: HttpRequest, pk: int) -> HttpResponse:
    person = _person(request, pk)
    form = CreditForm(request.POST, open_invoices=_open_invoices(request, person))

    def applied(done: list[PaymentApplication]) -> HttpResponse:
        total = sum(a.amount for a in done)
        messages.success(request, f"Credit of USD {total:,} applied.")
        return redirect("billing:statement", pk=person.pk)

    return form_action(
        request,
        form,
        lambda d: credit.apply_credit(
            request.user, person=person, allocations=[Allocation(d["invoice"], d["amount"])]
        ),
    ).respond(
        then=applied,
        show=lambda status: _statement_page(request, person, credit_form=form, status=status),
    )


@require_POST
@office_view(*MONEY_ROLES)
def refund(request: HttpRequest, pk: int) -> HttpResponse:
    person = _person(request, pk)
    form = RefundForm(request.POST)

    def refunded(r: Refund) -> HttpResponse:
        messages.success(request, f"Refund of USD {r.amount:,} recorded.")
        return redirect("billing:statement", pk=person.pk)

    return form_action(
        request,
        form,
        lambda d: credit.refund(
            request.user,
            person=person,
            amount=d["amount"],
            reason=d["reason"],
            method=d["method"],
            reference=d["reference"],
            refunded_on=d["refunded_on"],
        ),
    ).respond(
        then=refunded,
        show=lambda status: _statement_page(request, person, refund_form=form, status=status),
    )


# --- statements and aging -------------------------------------------------------------------


def _period(request: HttpRequest) -> tuple[PeriodForm, date | None, date | None]:
    form = PeriodForm(request.GET or None)
    if form.is_bound and form.is_valid():
        return form, form.cleaned_data["start"], form.cleaned_data["end"]
    return form, None, None


def _statement_page(
    request: HttpRequest,
    person: Person,
    credit_form: CreditForm | None = None,
    refund_form: RefundForm | None = None,
    status: int = 200,
) -> HttpResponse:
    period, start, end = _period(request)
    st = statements.statement(person, start, end, towns=towns_seen(request.user))
    may = payments.may_record_money(request.user)
    open_ = _open_invoices(request, person)
    return render(
        request,
        "billing/statement_detail.html",
        {
            "st": st,
            "person": person,
            "period": period,
            "query": request.GET.urlencode(),
            "may_record": may,
            "credit_form": (credit_form or CreditForm(open_invoices=open_))
            if may and st.credit > 0 and open_.exists()
            else credit_form,
            "refund_form": (refund_form or RefundForm()) if may and st.credit > 0 else refund_form,
        },
        status=status,
    )


@office_view()
def statement(request: HttpRequest, pk: int) -> HttpResponse:
    return _statement_page(request, _person(request, pk))


@office_view()
def statement_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    person = _person(request, pk)
    _, start, end = _period(request)
    st = statements.statement(person, start, end, towns=towns_seen(request.user))
    return _file(
        statement_letter.statement_pdf(st), "application/pdf", f"statement-{person.pk}.pdf", True
    )


@office_view()
def statement_index(request: HttpRequest) -> HttpResponse:
    """The persons with a billing record in the books of the user's towns (outside: theirs)."""
    user = request.user
    billed = Q(pk__in=visible(Invoice.objects.order_by(), user).values("person_id")) | Q(
        pk__in=visible(Payment.objects.order_by(), user).values("person_id")
    )
    persons = visible(Person.objects.filter(billed), request.user).order_by("name")
    if (download := export(request, persons, exports.STATEMENT_COLUMNS, "statements")) is not None:
        return download
    return render(request, "billing/statement_index.html", {"persons": persons})


@office_view(*STAFF_ROLES)
def aging(request: HttpRequest) -> HttpResponse:
    form = AgingForm(request.GET or None)
    on = timezone.localdate()
    if form.is_bound and form.is_valid() and form.cleaned_data["on"]:
        on = form.cleaned_data["on"]
    report = statements.aging(on, request.user)
    columns = exports.aging_columns()
    if (download := export(request, report.rows, columns, "aging")) is not None:
        return download
    return render(
        request,
        "billing/aging.html",
        {
            "report": report,
            "form": form,
            "buckets": [(b, statements.BUCKET_LABELS[b]) for b, _ in statements.BUCKETS],
            "query": request.GET.urlencode(),
        },
    )


@office_view(*STAFF_ROLES)
def accounting_export(request: HttpRequest) -> HttpResponse:
    """``/billing/export/?start=2026-01-01&end=2026-03-31[&format=xlsx]``: the accounting
    export (CSV unless Excel is asked for), layout in docs/billing-export.md."""
    form = PeriodForm(request.GET or None)
    start = end = None
    if form.is_bound and form.is_valid():
        start, end = form.cleaned_data["start"], form.cleaned_data["end"]
    elif form.is_bound:
        return HttpResponse(
            "; ".join(f"{k}: {' '.join(str(m) for m in v)}" for k, v in form.errors.items()),
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    get = request.GET.copy()
    get.setdefault("format", "csv")
    request.GET = get  # type: ignore[assignment]  # the export reads the format from GET
    rows = list(exports.rows(start, end, request.user))
    out = export(request, rows, exports.COLUMNS, "accounting")
    assert out is not None
    return out
