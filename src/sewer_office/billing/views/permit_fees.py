"""The permit fees page: each permit whose fee is due (§ 196-18 B), its amount, its invoice
(issued from here) and what is still outstanding on it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.billing import exports, payments
from sewer_office.billing import permit_fees as fees
from sewer_office.billing.payments import MONEY_ROLES
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import export
from sewer_office.permits.models import BuildingSewerPermit, SubdivisionSewer


def _fee_permits(user: Actor) -> list[Any]:
    rows = []
    for model in (BuildingSewerPermit, SubdivisionSewer):
        for record in visible(model.objects.filter(state="submitted"), user).select_related(
            "applicant", "property"
        ):
            amount, _, blocked = fees.fee_assessment(record)
            invoices = fees.fee_invoices_of(record)
            rows.append(
                {
                    "record": record,
                    "amount": amount,
                    "blocked": blocked,
                    "invoice": next((i for i in invoices if i.state == "issued"), None),
                }
            )
    return sorted(rows, key=lambda r: (r["record"].filed_on, r["record"].number))


@office_view(*STAFF_ROLES)
def permit_fees(request: HttpRequest) -> HttpResponse:
    """Permits whose fee is due: its amount, its invoice (issue it), then the payment."""
    rows = _fee_permits(request.user)
    left = payments.outstanding_of([r["invoice"] for r in rows if r["invoice"]])
    for r in rows:
        r["outstanding"] = left.get(r["invoice"].pk) if r["invoice"] else None
    if (download := export(request, rows, exports.PERMIT_FEE_COLUMNS, "permit-fees")) is not None:
        return download
    return render(
        request,
        "billing/payment_permit_fees.html",
        {"rows": rows, "may_record": payments.may_record_money(request.user)},
    )


@require_POST
@office_view(*MONEY_ROLES)
def permit_fee_invoice(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    model = {"building-sewer": BuildingSewerPermit, "subdivision": SubdivisionSewer}.get(kind)
    if model is None:
        return HttpResponse(status=404)
    record = get_object_or_404(visible(model._default_manager.all(), request.user), pk=pk)
    try:
        invoice = fees.issue_permit_fee_invoice(request.user, record)
    except OfficeError as e:
        messages.error(request, e.message)
    else:
        messages.success(
            request, f"Invoice {invoice.number} issued for the fee of {record.number}."
        )
    return redirect("billing:permit-fees")
