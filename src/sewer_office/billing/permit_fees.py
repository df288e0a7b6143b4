"""Permit fee invoices: the invoice that bills a building sewer permit's permit and inspection
fee (§ 196-18 B) or a subdivision sewer's fee (§ 196-23 C), issued by the clerk.

Decided: the fee invoice is issued by the clerk (the billing page of permit fees, linked from
the permit page), not at filing: filing stays a permits service (permits never import billing),
and an application filed while the fee is not configured gets its invoice once the Town
Board's resolution is recorded. The charge is billing-core's (charges.py: citation, the dated
fee of the application date, steps), the invoice too (invoices.issue_invoice: numbered, due
after ``invoice.due_days``). The law wants the fee with the application (§ 196-18 B, § 196-23
C): the permit waits in its fee step until the invoice is paid, and the payment that settles
it makes the step (:func:`.payments.settle_permit_fees`). Apart from :mod:`.payments` because
it is about permits' fees, not about money received.
"""

from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core.amounts import CENT
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.town_law import article_refusal, require_article_for, town_of
from sewer_office.permits.rules import subdivision_fee as subdivision_fee_rule
from sewer_office.permits.services.building_sewer import assess_fee as bs_fee
from sewer_office.permits.services.building_sewer import (
    fee_not_configured_message as bs_not_configured,
)

from .charges import building_sewer_fee, subdivision_fee
from .choices import ChargeSource, InvoiceKind, InvoiceState
from .invoices import issue_invoice
from .models import Invoice
from .payments import FEE_STEPS, lock_person, require_money_role, today_of
from .rules import parameter_dict


def fee_invoices_of(record: Any) -> list[Invoice]:
    """The invoices that bill ``record``'s fee (a permit), newest first."""
    ct = ContentType.objects.get_for_model(record)
    return list(
        Invoice.objects.filter(
            lines__charge__content_type=ct,
            lines__charge__object_id=str(record.pk),
            kind=InvoiceKind.INVOICE,
        )
        .distinct()
        .order_by("-issued_on", "-id")
    )


#: What each permit kind's fee is, as a refusal for a town of another law names it.
FEE_WHAT: dict[str, str] = {
    "permits.buildingsewerpermit": "A building sewer permit fee (§ 196-18 B)",
    "permits.subdivisionsewer": "A subdivision sewer permit fee (§ 196-23 C)",
}

#: The permit kinds whose fee billing invoices, with the source and what the law says of
#: when it is paid.
FEE_KINDS: dict[str, tuple[str, str]] = {
    "permits.buildingsewerpermit": (
        ChargeSource.BUILDING_SEWER_FEE,
        "§ 196-18 B: the permit and inspection fee shall be paid to the Town at the time the "
        "application is filed",
    ),
    "permits.subdivisionsewer": (
        ChargeSource.SUBDIVISION_FEE,
        "§ 196-23 C: the fee to accompany the application",
    ),
}


#: billing-core's charge of each fee source (citation, dated parameter, steps).
FEE_CHARGES: dict[str, Any] = {
    ChargeSource.BUILDING_SEWER_FEE: building_sewer_fee,
    ChargeSource.SUBDIVISION_FEE: subdivision_fee,
}


def fee_key(record: Any) -> str:
    return f"{record._meta.label_lower}:{record.pk}"


def fee_assessment(record: Any) -> tuple[Decimal | None, dict[str, Any], str]:
    """The permit's fee on its application date: amount (None: not configured), the
    computation (parameters and steps) and, when not configured, the message that says which
    resolution to record. Read through the permit's own fee services (the rules), by the
    permit's town's values; for a permit of a town under a law of its own, no amount and the
    refusal."""
    label = record._meta.label_lower
    town = town_of(record)
    if why := article_refusal(town, FEE_WHAT.get(label, "A permit fee")):
        return None, {}, why
    if label == "permits.buildingsewerpermit":
        fee = bs_fee(record)
        param = parameter_dict(fee)
        if fee.value is None:
            return None, {"parameters": [param]}, bs_not_configured(record, fee)
        steps = [
            f"class {record.charged_class} permit and inspection fee in force on "
            f"{record.filed_on:%Y-%m-%d}: USD {fee.value:,} ({fee.name}, {fee.authority}, "
            f"effective {fee.effective:%Y-%m-%d})",
            f"amount: USD {fee.value.quantize(CENT, rounding=ROUND_HALF_UP):,}",
        ]
        return (
            fee.value.quantize(CENT, rounding=ROUND_HALF_UP),
            {
                "parameters": [param],
                "steps": steps,
            },
            "",
        )
    if label == "permits.subdivisionsewer":
        result = subdivision_fee_rule(town, record.estimated_cost, record.filed_on)
        param = parameter_dict(result.basis)  # the bracket schedule if in force, else the rate
        computation = {"parameters": [param], "inputs": result.as_dict()}
        if result.fee is None:
            return (
                None,
                computation,
                (
                    f"{result.message}. The Town Board sets the rate by resolution: record it in "
                    "the parameter file before invoicing the fee."
                ),
            )
        computation["steps"] = [*result.steps, result.message]
        return Decimal(result.fee).quantize(CENT, rounding=ROUND_HALF_UP), computation, ""
    raise InvalidInput(
        {"permit": [f"{record._meta.verbose_name} carries no fee billing invoices."]}
    )


def issue_permit_fee_invoice(actor: Actor, record: Any, *, at: datetime | None = None) -> Invoice:
    """Charge the permit's fee and issue its invoice to the applicant (the clerk). Refused when the fee is not configured (naming the resolution to
    record), when the step is past, or when an invoice not void already bills it."""
    require_money_role(actor, "Issuing a permit's fee invoice")
    label = record._meta.label_lower
    if label not in FEE_KINDS:
        raise InvalidInput({"permit": [f"{record._meta.verbose_name} carries no fee."]})
    require_article_for(record, FEE_WHAT[label])
    source = FEE_KINDS[label][0]
    step = record.WORKFLOW.get(FEE_STEPS[source])
    if record.state not in step.sources:
        raise Blocked(
            f"{record.number} is {record.WORKFLOW.label(record.state).lower()}: its fee step is "
            "past, there is no fee to invoice."
        )
    amount, _, blocked = fee_assessment(record)
    if amount is None:
        raise Blocked(blocked)
    when = at or timezone.now()
    with transaction.atomic():
        who = lock_person(record.applicant)
        if any(i.state == InvoiceState.ISSUED for i in fee_invoices_of(record)):
            raise Blocked(f"The fee of {record.number} is already invoiced.")
        charge = FEE_CHARGES[source](record, actor)
        invoice = issue_invoice(who, [charge], actor, today_of(when))
    return invoice
