"""Billing on the dashboard (see core.panels): the overdue invoices — for staff every one,
longest overdue first; for an outside user its own, when it has any. On a facility's page
(staff): its surcharge decisions and agreements (§ 196-19 E(1)(d), J) and the way to record
one. On a violation's page (enforcement's, through ``violation_context``): the invoices of its
costs and of the fine the Town collects, the "Bill the Town's costs" button and the "Record a
collection" form (§ 196-22 B, C)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone

from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel
from sewer_office.enforcement.money import collected, may_record_judgment

from .charges import may_bill
from .enforcement import invoices_of, unbilled_costs
from .enforcement_forms import CollectionForm
from .statements import overdue
from .surcharge_basis import records_of

DASHBOARD_ROWS = 8


def dashboard_panel(request: Any) -> Panel | None:
    staff = is_staff_member(request.user)
    found = overdue(timezone.localdate(), request.user)
    if not found and not staff:
        return None
    return Panel(
        "Overdue invoices",
        "billing/panel_overdue.html",
        {
            "title": "Overdue invoices" if staff else "My overdue invoices",
            "rows": found[:DASHBOARD_ROWS],
            "count": len(found),
            "amount": sum((a.outstanding for a in found), Decimal("0.00")),
            "staff": staff,
        },
        order=75 if staff else 25,
    )


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    """Staff see the facility's surcharge records (what a billing run bills it under)."""
    if not is_staff_member(request.user):
        return None
    return Panel(
        "Surcharge",
        "billing/panel_surcharge.html",
        {"records": records_of(establishment), "establishment": establishment},
        order=80,
    )


def money_context(
    request: Any, violation: Any, collection_form: CollectionForm | None = None
) -> dict[str, Any]:
    """The violation's money in the Town's books, for its page: the invoices billing its costs
    (§ 196-22 C) or the fine the Town collects (§ 196-22 B) with where each stands, the costs
    not yet billed and whether this user may bill them, and the form recording a collection on
    a fine not wholly collected (``collection_form``: the one just refused, with its errors).
    ``costs_panel`` and ``fine_panel`` are the partial templates the page includes."""
    user = request.user
    allowed = may_bill(user)
    if collection_form is None and may_record_judgment(user):
        collectable = [j for j in violation.judgments.all() if collected(j) < j.fine_amount]
        if collectable:
            collection_form = CollectionForm(judgments=collectable)
    return {
        "billed": invoices_of(violation),
        "unbilled_costs": unbilled_costs(violation) if allowed else [],
        "may_bill": allowed and violation.state != "dismissed",
        "collection_form": collection_form,
        "costs_panel": "billing/violation_costs.html",
        "fine_panel": "billing/violation_collection.html",
    }


def violation_context(request: Any, violation: Any) -> dict[str, Any]:
    return money_context(request, violation)


def violation_data(request: Any, violation: Any) -> dict[str, Any]:
    """The violation's API record: its invoices (``invoices``), as its page lists them."""
    return {
        "invoices": [
            {
                "id": b.invoice.pk,
                "number": b.invoice.number,
                "kind": b.invoice.kind,
                "bills": b.what,
                "issued_on": b.invoice.issued_on.isoformat(),
                "total": str(b.invoice.total),
                "outstanding": str(b.outstanding),
                "status": b.status,
            }
            for b in invoices_of(violation)
        ]
    }
