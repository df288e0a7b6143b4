"""Billing pages: runs (list, review with each line's computation, issue, discard), invoices
(list, detail, PDF) and charges (list). Staff see the books of the towns they act for; an
outside user sees only the invoices and charges of the persons they represent; runs are the
billing staff's, each seen by those acting for every town it lists (:func:`.runs.seen_by`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.billing import exports, invoices, runs
from sewer_office.billing.balances import with_balance
from sewer_office.billing.books import several_books
from sewer_office.billing.charges import BILLING_ROLES, may_bill
from sewer_office.billing.choices import InvoiceKind, InvoiceState, RunLineStatus
from sewer_office.billing.filters import InvoicePageFilter
from sewer_office.billing.models import BillingRun, Charge, Invoice
from sewer_office.billing.payments import may_record_money
from sewer_office.billing.pdf import invoice_pdf
from sewer_office.core import reading
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Amount, Column, export
from sewer_office.core.paging import page_of

PAGE_SIZE = 50


@office_view(*STAFF_ROLES)
def run_list(request: HttpRequest) -> HttpResponse:
    qs = runs.seen_by(BillingRun.objects.all(), request.user)
    if (download := export(request, qs, exports.RUN_LIST_COLUMNS, "billing-runs")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "billing/run_list.html",
        {"page": page, "query": query, "may_bill": may_bill(request.user)},
    )


@require_POST
@office_view(*BILLING_ROLES)
def run_create(request: HttpRequest) -> HttpResponse:
    try:
        run = runs.create_run(request.POST.get("period", ""), request.user)
    except OfficeError as e:
        messages.error(request, e.message)
        return redirect("billing:runs")
    messages.success(request, f"Draft run {run.period} computed: review it before issue.")
    return redirect("billing:run", pk=run.pk)


#: The run's download (``?format=csv|xlsx``): every line, with those listed for the
#: Superintendent ("abnormal strength, no surcharge decision") as the page shows them.
RUN_COLUMNS = (
    Column("Facility", "establishment.name"),
    Column("Person", "person.name"),
    Column("Status", "get_status_display"),
    Column("Flow", "get_flow_source_display"),
    Amount("Amount", "amount"),
    Column("Days not covered", lambda ln: ln.computation.get("uncovered_days")),
    Column(
        "Bases",
        lambda ln: "; ".join(
            f"{s['first_day']}–{s['last_day']} {s['basis']['label'] or s['basis']['id']}"
            for s in ln.computation.get("spans", [])
        ),
    ),
    Column("Message", lambda ln: reading.readable(ln.message)),
)


def _run(request: HttpRequest, pk: int) -> BillingRun:
    return get_object_or_404(runs.seen_by(BillingRun.objects.all(), request.user), pk=pk)


@office_view(*STAFF_ROLES)
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    lines = run.lines.select_related("establishment", "person")
    if (download := export(request, lines, RUN_COLUMNS, f"billing-run-{run.period}")) is not None:
        return download
    page, query = page_of(request, lines, PAGE_SIZE)
    return render(
        request,
        "billing/run_detail.html",
        {
            "run": run,
            "page": page,
            "query": query,
            "may_bill": may_bill(request.user) and run.state == "draft",
            "invoices": run.invoices.count(),
            "no_decision": lines.filter(status=RunLineStatus.NO_DECISION),
        },
    )


@require_POST
@office_view(*BILLING_ROLES)
def run_issue(request: HttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    try:
        run = runs.issue_run(run, request.user)
    except OfficeError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"Run {run.period} issued: {run.invoices.count()} invoice(s).")
    return redirect("billing:run", pk=pk)


@require_POST
@office_view(*BILLING_ROLES)
def run_discard(request: HttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    try:
        runs.discard_run(run, request.user, request.POST.get("reason", ""))
    except OfficeError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"Run {run.period} discarded.")
    return redirect("billing:run", pk=pk)


@office_view()
def invoice_list(request: HttpRequest) -> HttpResponse:
    """Invoices and credit notes with what is paid, what is left and their status (computed
    from the payments and credit notes: :mod:`sewer_office.billing.balances`), filterable."""
    base = with_balance(
        visible(Invoice.objects.select_related("person", "establishment", "credits"), request.user)
    )
    fs = InvoicePageFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, exports.INVOICE_COLUMNS, "invoices")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "billing/invoice_list.html",
        {"filter": fs, "page": page, "query": query, "town_column": several_books(request.user)},
    )


@office_view()
def invoice_detail(request: HttpRequest, pk: int) -> HttpResponse:
    qs = visible(Invoice.objects.select_related("person", "establishment", "credits"), request.user)
    invoice = get_object_or_404(with_balance(qs), pk=pk)
    biller = may_bill(request.user)
    return render(
        request,
        "billing/invoice_detail.html",
        {
            "invoice": invoice,
            "lines": invoice.lines.select_related("charge"),
            "credit_notes": invoice.credit_notes.all(),
            "credited": invoice.credited_total,
            "applications": invoice.applications.select_related("payment").order_by("id"),
            "may_credit": biller and _creditable(invoice),
            "may_void": biller and void_allowed(invoice),
            "may_record": may_record_money(request.user),
        },
    )


def _creditable(invoice: Invoice) -> bool:
    return invoice.kind == InvoiceKind.INVOICE and invoice.state == InvoiceState.ISSUED


def void_allowed(invoice: Invoice) -> bool:
    """Whether :func:`invoices.void_invoice` would accept ``invoice`` (the form is offered then)."""
    if invoice.state != InvoiceState.ISSUED or invoices.paid_on(invoice) != 0:
        return False
    return not (
        invoice.kind == InvoiceKind.INVOICE
        and invoice.credit_notes.filter(state=InvoiceState.ISSUED).exists()
    )


@require_POST
@office_view(*BILLING_ROLES)
def invoice_credit(request: HttpRequest, pk: int) -> HttpResponse:
    """Issue a credit note against the invoice: the lines ticked, or every line if none is."""
    invoice = get_object_or_404(visible(Invoice.objects.all(), request.user), pk=pk)
    ids = [int(i) for i in request.POST.getlist("lines") if i.isdigit()]
    chosen = list(invoice.lines.filter(pk__in=ids)) if ids else None
    if ids and chosen is not None and len(chosen) != len(set(ids)):
        messages.error(request, f"A line chosen is not on {invoice.number}.")
        return redirect("billing:invoice", pk=pk)
    try:
        note = invoices.credit_note(
            invoice, request.user, request.POST.get("reason", ""), lines=chosen
        )
    except OfficeError as e:
        messages.error(request, f"Credit refused: {e.message}")
        return redirect("billing:invoice", pk=pk)
    messages.success(request, f"Credit note {note.number} issued against {invoice.number}.")
    return redirect("billing:invoice", pk=note.pk)


@require_POST
@office_view(*BILLING_ROLES)
def invoice_void(request: HttpRequest, pk: int) -> HttpResponse:
    """Void the invoice with the reason (refused once anything is paid or credited on it)."""
    invoice = get_object_or_404(visible(Invoice.objects.all(), request.user), pk=pk)
    try:
        invoices.void_invoice(invoice, request.user, request.POST.get("reason", ""))
    except OfficeError as e:
        messages.error(request, f"Void refused: {e.message}")
    else:
        messages.success(request, f"{invoice.number} voided.")
    return redirect("billing:invoice", pk=pk)


@office_view()
def invoice_pdf_view(request: HttpRequest, pk: int) -> HttpResponse:
    invoice = get_object_or_404(visible(Invoice.objects.all(), request.user), pk=pk)
    response = HttpResponse(invoice_pdf(invoice), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{invoice.number}.pdf"'
    return response


@office_view()
def charge_list(request: HttpRequest) -> HttpResponse:
    qs = visible(Charge.objects.select_related("person", "establishment"), request.user)
    if (download := export(request, qs, exports.CHARGE_COLUMNS, "charges")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(request, "billing/charge_list.html", {"page": page, "query": query})
