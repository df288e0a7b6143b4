"""Writing a charge: the one place a :class:`~sewer_office.billing.models.Charge` is made, by
every source (:mod:`.charges`, a billing run's surcharges in :mod:`.runs`).

A charge is written once with its audit event; a source (``source_key``) is charged once
unless credited away. It records its citation, the dated parameters it used, its steps, and
the town whose values it was computed under with their version (:mod:`.rules`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.registry.models import Person

from .books import require_acting_for
from .choices import SOURCE_CITATIONS
from .models import Charge
from .rules import TOWN, StoredParameter, params

CENT = Decimal("0.01")
#: Who may assess charges and bill: the clerk takes fees (§ 196-18 B), the Superintendent and
#: the engineer assess the surcharge and the Town's costs (§ 196-19 E(1)(d), § 196-22 C).
BILLING_ROLES = (CLERK, SUPERINTENDENT, ENGINEER)


def may_bill(actor: Actor) -> bool:
    return has_role(actor, *BILLING_ROLES)


def require_biller(actor: Actor) -> None:
    if not may_bill(actor):
        raise Forbidden(
            "Billing: reserved to the clerk, the Superintendent and the engineer "
            "(§ 196-18 B, § 196-19 E(1)(d), § 196-22 C)."
        )


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def already_charged(source_key: str) -> bool:
    """Whether ``source_key`` has a charge not credited away (a source is billed once)."""
    charges = Charge.objects.filter(source_key=source_key)
    for charge in charges:
        credited = sum(
            (line.amount for line in charge.invoice_lines.filter(invoice__kind="credit_note")),
            Decimal(0),
        )
        voided = charge.invoice_lines.filter(invoice__kind="invoice", invoice__state="void")
        if charge.amount + credited > 0 and not voided.exists():
            return True
    return False


def create_charge(
    *,
    source: str,
    source_key: str,
    person: Person,
    amount: Decimal,
    description: str,
    assessed_on: date,
    parameters: Sequence[StoredParameter | Mapping[str, object]],
    steps: list[str],
    actor: Actor,
    citation: str = "",
    obj: models.Model | None = None,
    establishment: Any = None,
    property: Any = None,
    period: tuple[date, date] | None = None,
    extra: dict[str, Any] | None = None,
    run: Any = None,
    check_once: bool = True,
    town: str,
) -> Charge:
    """Write one charge and its audit event (in one transaction). ``town`` is the town whose
    values the amount was computed under (the town of what the charge is for): recorded with
    the version of its values, and the town whose books the charge is in."""
    require_acting_for(actor, town, "Charging")
    if amount < 0:
        raise InvalidInput({"amount": ["A charge is not negative (a credit is a credit note)."]})
    if check_once and already_charged(source_key):
        raise Blocked(f"{source_key} is already charged (a correction is a credit note).")
    cite = citation or SOURCE_CITATIONS.get(source, "")
    computation: dict[str, Any] = {
        "citation": cite,
        "parameters": list(parameters),
        "steps": steps,
        "jurisdiction": params(town).version,
        TOWN: town,
        **(extra or {}),
    }
    fields: dict[str, Any] = {
        "source": source,
        "source_key": source_key,
        "citation": cite,
        "description": description[:300],
        "person": person,
        "establishment": establishment,
        "property": property,
        "assessed_on": assessed_on,
        "amount": cents(amount),
        "computation": computation,
        "run": run,
        "created_by": person_or_none(actor),
        "jurisdiction": town,
    }
    if obj is not None:
        fields["content_type"] = ContentType.objects.get_for_model(obj)
        fields["object_id"] = str(obj.pk)
    if period is not None:
        fields["period_start"], fields["period_end"] = period
    with transaction.atomic():
        return audit.create_recorded(
            Charge, fields, actor=actor, action="billing.charge_created", citation=cite
        )
