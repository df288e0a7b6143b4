"""Petitions against an order of a town's own ladder, and the official's decision on them.

The Town of Poughkeepsie's administrative order ([ecode360 6322621] B(1)) may be petitioned:
the user may ask the Town Engineer in writing, within 15 calendar days of receiving it, to
modify or suspend it (B(2)). Which step allows a petition, to whom, within how many days and
counted from what is the town's ``law.yaml``; this module only records what happened:

- :func:`record_petition` — the petition as received (by the clerk or the Superintendent),
  with its window computed from the day the order was received (its service as recorded: the
  day of delivery, or of personal service) and kept with its basis. A petition received after
  the window is recorded as late, not refused: the official decides what to do with it.
- :func:`decide_petition` — the decision (modified, suspended, denied) with its reasons, once.
  A modified order is issued as a new order superseding it (the violation's "Supersede" step).

Each writes its audit event in the same transaction, citing the petition's provision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.town_law import require_acting_for, town_of
from sewer_rules.enforcement_ladder import Step
from sewer_rules.law_package import LawPackage

from . import town_ladder
from .choices import PetitionAsks, PetitionDecision
from .liability import notices_in_force
from .models import Notice, Petition, Violation
from .states import ISSUERS, SERVERS

#: Who records a petition as received (the office's mail) and who decides it (the official the
#: order's law names; in the office, who issues the orders).
RECORDERS = SERVERS
DECIDERS = ISSUERS


def petitionable(violation: Violation) -> tuple[Notice, Step, LawPackage] | None:
    """The order in force on ``violation`` that its town's law allows a petition against, with
    its step and the law, once the order is received; else None."""
    found = town_ladder.own_law_of(violation)
    if found is None:
        return None
    law = found[1]
    for notice in reversed(notices_in_force(violation)):
        step = town_ladder.ladder_step(law, notice.response)
        if step.key == notice.response and step.petition is not None:
            return (notice, step, law) if notice.served_on is not None else None
    return None


@dataclass(frozen=True)
class Window:
    """The open order's petition window, for the violation page."""

    order: Notice
    received: date
    due: date
    days: int
    to: str
    citation: str


def window(violation: Violation) -> Window | None:
    """The window of a petition against the violation's order in force: the last day, the
    official and the citation (None when no order received allows a petition)."""
    found = petitionable(violation)
    if found is None:
        return None
    order, step, law = found
    assert step.petition is not None and order.served_on is not None
    due = town_ladder.petition_window(law, town_of(violation), step, order.served_on)
    return Window(
        order,
        order.served_on,
        due.due,
        due.days,
        law.ladder.official(step.petition.to).title,
        step.petition.citation,
    )


def may_record(user: Actor) -> bool:
    return has_role(user, *RECORDERS)


def may_decide(user: Actor) -> bool:
    return has_role(user, *DECIDERS)


def record_petition(
    violation: Violation,
    actor: Actor,
    *,
    asks: str,
    grounds: str,
    received_on: date,
    at: datetime | None = None,
) -> Petition:
    """Record a petition against the violation's order as received, with its window."""
    if not may_record(actor):
        raise Forbidden("Recording a petition: reserved to the Superintendent and the clerk.")
    require_acting_for(actor, violation, "Recording a petition")
    found = petitionable(violation)
    if found is None:
        raise Blocked(
            "No order on this violation allows a petition once received: a petition is "
            "recorded against an order of the town's law that allows one, after its receipt."
        )
    order, step, law = found
    assert step.petition is not None and order.served_on is not None
    errors: dict[str, list[str]] = {}
    if asks not in PetitionAsks.values:
        errors["asks"] = ["Say whether the petition asks to modify or to suspend the order."]
    if not grounds.strip():
        errors["grounds"] = ["Say what the petition asks and why."]
    if received_on < order.served_on:
        errors["received_on"] = [
            f"{order.number} was received on {order.served_on}: a petition against it cannot "
            f"have arrived on {received_on}."
        ]
    elif received_on > timezone.localdate(at):
        errors["received_on"] = [f"{received_on} is in the future: record it once received."]
    if order.petitions.exists():
        errors["received_on"] = [f"A petition against {order.number} is already recorded."]
    if errors:
        raise InvalidInput(errors)
    due = town_ladder.petition_window(law, town_of(violation), step, order.served_on)
    with transaction.atomic():
        petition = Petition.objects.create(
            violation=violation,
            order=order,
            asks=asks,
            grounds=grounds.strip(),
            received_on=received_on,
            due_on=due.due,
            window=due.as_dict(),
            timely=received_on <= due.due,
            citation=step.petition.citation,
            recorded_by=signed_in(actor),
            recorded_at=at or timezone.now(),
        )
        audit.record(
            actor=actor,
            action="record_petition",
            obj=violation,
            after=audit.snapshot(petition),
            citation=petition.citation,
            at=at,
        )
    return petition


def decide_petition(
    petition: Petition,
    actor: Actor,
    *,
    decision: str,
    decided_on: date,
    note: str,
    at: datetime | None = None,
) -> Petition:
    """Record the official's decision on a petition, once, with its reasons."""
    if not may_decide(actor):
        raise Forbidden("Deciding a petition: reserved to the official who issues the orders.")
    require_acting_for(actor, petition.violation, "Deciding a petition")
    errors: dict[str, list[str]] = {}
    if decision not in PetitionDecision.values:
        errors["decision"] = ["Choose the decision: modified, suspended or denied."]
    if not note.strip():
        errors["note"] = ["State the reasons for the decision."]
    if decided_on < petition.received_on:
        errors["decided_on"] = [
            f"The petition was received on {petition.received_on}: it cannot have been decided "
            f"on {decided_on}."
        ]
    elif decided_on > timezone.localdate(at):
        errors["decided_on"] = [f"{decided_on} is in the future: record it once decided."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        locked = Petition.objects.select_for_update().get(pk=petition.pk)
        if not locked.pending:
            raise Blocked(f"This petition was decided on {locked.decided_on}: {locked.decision}.")
        before = audit.snapshot(locked)
        locked.decision = decision
        locked.decided_on = decided_on
        locked.decided_by = signed_in(actor)
        locked.decision_note = note.strip()
        locked.save()
        audit.record(
            actor=actor,
            action="decide_petition",
            obj=locked.violation,
            before=before,
            after=audit.snapshot(locked),
            citation=locked.citation,
            at=at,
        )
    return locked
