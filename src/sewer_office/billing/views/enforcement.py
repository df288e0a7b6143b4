"""The money actions of a violation's page (enforcement's page, ``/enforcement/<id>/``): bill
the Town's costs (§ 196-22 C) and record a collection on the fine the court imposed (§ 196-22
B). They are billing's because they write the Town's books (charges, invoices, payments); the
page shows their buttons through billing's ``violation_context`` hook (:mod:`..panels`). Each
answers with the violation's page: the record made, or the page again with the refusal."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from sewer_office.billing.enforcement import bill_costs, record_collection
from sewer_office.billing.enforcement_forms import CollectionForm
from sewer_office.billing.panels import money_context
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.forms import add_office_error
from sewer_office.enforcement import services
from sewer_office.enforcement.models import Violation
from sewer_office.enforcement.queries import violations
from sewer_office.enforcement.views.violation import form_errors, refused


def _violation(request: HttpRequest, pk: int) -> Violation:
    """The violation if ``request.user`` may see it, else 404 (as its page does)."""
    return get_object_or_404(services.visible_violations(violations(), request.user), pk=pk)


@require_POST
@office_view()
def violation_bill_costs(request: HttpRequest, pk: int) -> HttpResponse:
    """§ 196-22 C: one invoice to the person responsible for the costs not yet billed."""
    violation = _violation(request, pk)
    try:
        invoice = bill_costs(violation, request.user)
    except OfficeError as e:
        return refused(request, violation, e, {})
    lines = invoice.lines.count()
    messages.success(
        request,
        f"Invoice {invoice.number} issued to {violation.person.name} for {lines} cost(s), "
        f"USD {invoice.total:,} (§ 196-22 C).",
    )
    return redirect(violation.get_absolute_url())


@require_POST
@office_view()
def violation_collection(request: HttpRequest, pk: int) -> HttpResponse:
    """Record money collected on the fine the court imposed (by the court or by the Town)."""
    violation = _violation(request, pk)
    judgments = list(violation.judgments.all())
    form = CollectionForm(request.POST, judgments=judgments)

    def again(error: OfficeError) -> HttpResponse:
        return refused(
            request, violation, error, {}, money_context(request, violation, collection_form=form)
        )

    if not form.is_valid():
        return again(form_errors(form))
    d = form.cleaned_data
    judgment = next(j for j in judgments if j.pk == d.pop("judgment"))
    try:
        c = record_collection(judgment, request.user, **d)
    except OfficeError as e:
        add_office_error(form, e)
        return again(e)
    receipt = f", receipt {c.payment.receipt_number}" if c.payment is not None else ""
    messages.success(
        request,
        f"{violation.number}: USD {c.amount:,} collected by {c.get_collected_by_display()}"
        f"{receipt} — recorded.",
    )
    return redirect(violation.get_absolute_url())
