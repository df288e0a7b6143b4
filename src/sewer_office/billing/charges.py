"""Charges from every source, each with its citation, the dated parameters it used and its steps.

A charge is written once (:func:`.ledger.create_charge`) with its audit event; a source
(``source_key``) is charged once. Each is computed under the values of the town of what it is
for (the permit's, the facility's, the violation's: :mod:`.rules`), and refused for a record of
a town whose law is its own. When the Town Board's amount is not configured in that town's
parameters the charge is refused (:class:`~sewer_office.core.errors.Blocked`) with the
parameter's name and the resolution to record — never a made-up or zero amount.

Sources and their provisions:

- building sewer permit and inspection fee per class, on the application date (§ 196-18 B);
- industrial discharge approval fee (a Town Board resolution, ``fee.industrial_discharge_approval``:
  § 196-16 E requires the approval but sets no fee);
- subdivision sewer permit fee by estimated construction cost (§ 196-23 C);
- copies of the article (§ 196-23 D, ``fee.article_copy`` × copies);
- other fees the jurisdiction defines (``fee.reinspection``...);
- the Town's expense, loss or damage recorded on a violation (§ 196-22 C), with its evidence;
- a fine the court imposed on conviction, when the Town collects it (§ 196-22 B);
- the extra-strength surcharge of a billing run (§ 196-19 E(1)(d); :mod:`.runs`).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from sewer_office.accounts.actors import Actor
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.models import Attachment
from sewer_office.core.town_law import require_article, require_article_for, town_of
from sewer_office.enforcement.models import Cost
from sewer_office.permits.models.building_sewer import BuildingSewerPermit
from sewer_office.permits.models.industrial import IndustrialDischargeApproval
from sewer_office.permits.models.subdivision import SubdivisionSewer
from sewer_office.registry.models import Person
from sewer_rules.ordinance.s196_18_building_sewers.permit_class import permit_fee
from sewer_rules.ordinance.s196_23_developers import subdivision_sewer_fee

from .choices import ChargeSource
from .ledger import BILLING_ROLES as BILLING_ROLES
from .ledger import cents, create_charge, require_biller
from .ledger import may_bill as may_bill
from .models import Charge
from .rules import not_configured_message, parameter_dict, params, person_fee_town, value_in


def _key(obj: models.Model) -> str:
    return f"{obj._meta.label_lower}:{obj.pk}"


def _fixed_fee(pv: Any, on: date, what: str, town: str) -> Decimal:
    if pv.value is None:
        raise Blocked(not_configured_message(pv, on, what, town))
    return Decimal(pv.value)


def building_sewer_fee(permit: BuildingSewerPermit, actor: Actor) -> Charge:
    """§ 196-18 B: the permit and inspection fee of the permit's class by the rule (the declared
    class for records filed before the rule decided it), on its application date — due "at the
    time the application is filed": the payment files the application."""
    require_biller(actor)
    town = require_article_for(permit, "A building sewer permit fee (§ 196-18 B)")
    on = permit.filed_on
    cls = permit.charged_class
    pv = permit_fee(cls, params(town), on)
    amount = _fixed_fee(pv, on, f"Building sewer permit {permit.number}", town)
    steps = [f"{permit.class_text}"]
    if permit.class_disagrees:
        steps.append(
            f"the applicant declared class {permit.permit_class}; the rule gives class {cls} "
            "from what the application states, and the fee is that class's"
        )
    steps.append(
        f"fee in force on the application date {on}: {pv.name} = USD {amount} "
        f"({pv.authority or 'no authority recorded'}, since {pv.effective})"
    )
    return create_charge(
        source=ChargeSource.BUILDING_SEWER_FEE,
        source_key=_key(permit),
        person=permit.applicant,
        amount=amount,
        description=f"Permit and inspection fee, building sewer permit {permit.number} "
        f"(class {cls})",
        assessed_on=on,
        parameters=[parameter_dict(pv)],
        steps=steps,
        citation=f"§ 196-18 B({cls})",
        actor=actor,
        obj=permit,
        property=permit.property,
        town=town,
    )


def industrial_approval_fee(approval: IndustrialDischargeApproval, actor: Actor) -> Charge:
    """The fee for the engineer's written approval (§ 196-16 E) that the Town Board's resolution
    sets (the article sets none), on the application date."""
    require_biller(actor)
    town = require_article_for(approval, "A discharge approval fee (§ 196-16 E)")
    on = approval.filed_on
    pv = params(town).get("fee.industrial_discharge_approval", on)
    amount = _fixed_fee(pv, on, f"Industrial discharge approval {approval.number}", town)
    return create_charge(
        source=ChargeSource.INDUSTRIAL_APPROVAL_FEE,
        source_key=_key(approval),
        person=approval.applicant,
        amount=amount,
        description=f"Industrial discharge approval fee, {approval.number}",
        assessed_on=on,
        parameters=[parameter_dict(pv)],
        steps=[
            f"fee in force on the application date {on}: {pv.name} = USD {amount} "
            f"({pv.authority or 'no authority recorded'}, since {pv.effective})"
        ],
        actor=actor,
        obj=approval,
        establishment=approval.establishment,
        property=approval.property,
        town=town,
    )


def subdivision_fee(subdivision: SubdivisionSewer, actor: Actor) -> Charge:
    """§ 196-23 C: the fee by the estimated cost of the sewer construction."""
    require_biller(actor)
    town = require_article_for(subdivision, "A subdivision sewer permit fee (§ 196-23 C)")
    on = subdivision.filed_on
    fee = subdivision_sewer_fee(subdivision.estimated_cost, params(town), on)
    if fee.fee is None:
        what = f"Subdivision {subdivision.number}"
        raise Blocked(not_configured_message(fee.rate, on, what, town))
    return create_charge(
        source=ChargeSource.SUBDIVISION_FEE,
        source_key=_key(subdivision),
        person=subdivision.applicant,
        amount=fee.fee,
        description=f"Subdivision sewer permit fee, {subdivision.name} ({subdivision.number})",
        assessed_on=on,
        parameters=[parameter_dict(fee.basis)],
        steps=[*fee.steps, fee.message],
        actor=actor,
        obj=subdivision,
        property=subdivision.property,
        extra={"fee": fee.as_dict()},
        town=town,
    )


def article_copies(
    person: Person, copies: int, on: date, actor: Actor, *, town: str | None = None
) -> Charge:
    """§ 196-23 D: ``fee.article_copy`` × the number of copies, at ``town``'s fee (named in an
    office of several towns: :func:`.rules.person_fee_town`)."""
    require_biller(actor)
    town = person_fee_town(town, "Copies of the article")
    require_article(town, "Copies of the article (§ 196-23 D)")
    if copies < 1:
        raise InvalidInput({"copies": ["At least one copy."]})
    pv = params(town).get("fee.article_copy", on)
    unit = _fixed_fee(pv, on, "Copies of the article", town)
    amount = unit * copies
    return create_charge(
        source=ChargeSource.ARTICLE_COPY,
        source_key=f"article_copy:{person.pk}:{on.isoformat()}",
        person=person,
        amount=amount,
        description=f"{copies} cop{'y' if copies == 1 else 'ies'} of the article",
        assessed_on=on,
        parameters=[parameter_dict(pv)],
        steps=[f"{copies} × USD {unit} ({pv.name}, since {pv.effective}) = USD {cents(amount)}"],
        actor=actor,
        check_once=False,
        town=town,
    )


def other_fee(
    person: Person,
    parameter: str,
    on: date,
    actor: Actor,
    *,
    description: str = "",
    quantity: int = 1,
    source_key: str = "",
    obj: models.Model | None = None,
    town: str | None = None,
) -> Charge:
    """Another fee the jurisdiction file defines (``fee.*``, e.g. ``fee.reinspection``): the
    fee of the town of ``obj`` when it is charged for a record, else of ``town``."""
    require_biller(actor)
    if not parameter.startswith("fee."):
        raise InvalidInput({"parameter": [f"{parameter!r} is not a fee (fee.*)."]})
    town = town_of(obj) if obj is not None else person_fee_town(town, parameter)
    try:
        declared = params(town).parameter(parameter)
    except ValueError as e:
        raise InvalidInput({"parameter": [str(e)]}) from None
    if declared.unit != "USD":
        raise InvalidInput({"parameter": [f"{parameter} is not an amount in USD."]})
    if quantity < 1:
        raise InvalidInput({"quantity": ["At least one."]})
    pv = value_in(town, parameter, on, declared.description)
    unit = _fixed_fee(pv, on, declared.description, town)
    amount = unit * quantity
    key = source_key or (_key(obj) + f":{parameter}" if obj is not None else "")
    return create_charge(
        source=ChargeSource.OTHER_FEE,
        source_key=key or f"{parameter}:{person.pk}:{on.isoformat()}",
        person=person,
        amount=amount,
        description=description or declared.description,
        assessed_on=on,
        parameters=[parameter_dict(pv)],
        steps=[f"{quantity} × USD {unit} ({pv.name}, since {pv.effective}) = USD {cents(amount)}"],
        citation=declared.reference,
        actor=actor,
        obj=obj,
        check_once=bool(key),
        town=town,
    )


def attachments_of(*records: models.Model) -> list[Attachment]:
    """The files attached to ``records`` (in the order given, each record's oldest first)."""
    out: list[Attachment] = []
    for record in records:
        out += Attachment.objects.filter(
            content_type=ContentType.objects.get_for_model(record), object_id=str(record.pk)
        ).order_by("created_at", "id")
    return out


def cost_recovery(cost: Cost, actor: Actor) -> Charge:
    """§ 196-22 C: an item of the Town's expense, loss or damage recorded on a violation.

    The charge carries its evidence, so that the invoice line shows what the person is billed
    for: the cost as recorded (what, the day, the hours), and the documents filed on the cost
    or on the violation, by name (with their SHA-256, which proves which file it was)."""
    require_biller(actor)
    violation = cost.violation
    town = require_article_for(violation, "Recovering the Town's costs (§ 196-22 C)")
    hours = f", {cost.hours} h" if cost.hours else ""
    evidence = attachments_of(cost, violation)
    steps = [
        f"{cost.get_category_display()}: {cost.description}",
        f"incurred on {cost.incurred_on:%Y-%m-%d}{hours}: USD {cost.amount}",
        f"cost recorded on violation {violation.number} ({violation.section})",
    ]
    if evidence:
        steps.append("evidence on file: " + "; ".join(a.title for a in evidence))
    steps.append("§ 196-22 C: the violator is liable for the expense, loss or damage occasioned")
    return create_charge(
        source=ChargeSource.COST_RECOVERY,
        source_key=_key(cost),
        person=violation.person,
        amount=cost.amount,
        description=f"Town's {cost.get_category_display().lower()}: {cost.description}",
        assessed_on=cost.incurred_on,
        parameters=[],
        steps=steps,
        actor=actor,
        obj=cost,
        establishment=violation.establishment,
        property=violation.property,
        extra={
            "violation": violation.number,
            "cost": {
                "category": cost.category,
                "description": cost.description,
                "incurred_on": cost.incurred_on.isoformat(),
                "hours": None if cost.hours is None else str(cost.hours),
                "amount": str(cost.amount),
            },
            "evidence": [
                {"title": a.title, "file": a.filename, "sha256": a.sha256} for a in evidence
            ],
        },
        town=town,
    )


def fine_judgment(judgment: Any, amount: Decimal, actor: Actor) -> Charge:
    """§ 196-22 B: a fine the court imposed on conviction, to be collected by the Town — the
    judgment is the debt (court, docket, date); ``amount`` is what of it the Town collects
    (the fine less what the court itself received before). Never the office's own count."""
    require_biller(actor)
    violation = judgment.violation
    town = require_article_for(violation, "Collecting a fine on conviction (§ 196-22 B)")
    steps = [
        f"judgment of {judgment.court}, docket {judgment.docket}, on "
        f"{judgment.judgment_on:%Y-%m-%d}: fine imposed USD {judgment.fine_amount}",
    ]
    if amount != judgment.fine_amount:
        steps.append(
            f"less USD {judgment.fine_amount - amount} received by the court: "
            f"USD {amount} collected by the Town"
        )
    steps.append(
        f"violation {violation.number} of {violation.section}; § 196-22 B: fined on conviction"
    )
    return create_charge(
        source=ChargeSource.FINE_JUDGMENT,
        source_key=_key(judgment),
        person=violation.person,
        amount=amount,
        description=f"Fine imposed by {judgment.court}, docket {judgment.docket} "
        f"({violation.number}, {violation.section})",
        assessed_on=judgment.judgment_on,
        parameters=[],
        steps=steps,
        actor=actor,
        obj=judgment,
        establishment=violation.establishment,
        property=violation.property,
        extra={"violation": violation.number, "judgment": judgment.pk},
        town=town,
    )
