"""Notice before flushing a nonresidential building sewer (§ 196-19 L).

"Notification to Tri-Municipal and the Superintendent thereof shall be executed prior to the
flushing of any nonresidential building sewer lines. All waters used in the aforementioned
flushing shall be unpolluted water, as defined in § 196-15."

::

    submitted ──acknowledge (superintendent)──▶ acknowledged
    acknowledged ──record_flushing (applicant/superintendent)──▶ completed
    submitted ──object (superintendent)──▶ objected
    submitted ──withdraw──▶ withdrawn
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from django import forms
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT
from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, State, Transition, Workflow
from sewer_office.permits.models import FlushingNotice

from .common import date_field, day, withdraw


class FlushedForm(forms.Form):
    flushed_on = date_field("Flushed on")


class Flushed(TypedDict):
    flushed_on: date | None


def _ack_effect(notice: FlushingNotice, facts: NoFacts, actor: Actor, at: datetime) -> None:
    notice.acknowledged_on = timezone.localdate(at)


def _flushed_guard(notice: FlushingNotice, facts: Flushed) -> str | None:
    flushed = facts["flushed_on"]
    if flushed is not None and flushed < notice.filed_on:
        return "Flushing must follow the notice (§ 196-19 L): the date given is before it."
    return None


def _flushed_effect(notice: FlushingNotice, facts: Flushed, actor: Actor, at: datetime) -> None:
    notice.flushed_on = day(facts["flushed_on"], at)


WORKFLOW = Workflow[FlushingNotice](
    name="flushing_notice",
    initial="submitted",
    states=[
        State("submitted", "Notice given"),
        State("acknowledged", "Acknowledged by the Superintendent"),
        State("completed", "Flushing done", terminal=True),
        State("objected", "Objected to (water not unpolluted / other)", terminal=True),
        State("withdrawn", "Withdrawn", terminal=True),
    ],
    transitions=[
        Transition(
            "acknowledge",
            "Acknowledge notice",
            ("submitted",),
            "acknowledged",
            "§ 196-19 L",
            roles=frozenset({SUPERINTENDENT}),
            effect=_ack_effect,
        ),
        Transition(
            "object",
            "Object to the flushing",
            ("submitted",),
            "objected",
            "§ 196-19 L",
            roles=frozenset({SUPERINTENDENT}),
            reason=REASON_REQUIRED,
            danger=True,
        ),
        Transition(
            "record_flushing",
            "Record flushing done",
            ("acknowledged",),
            "completed",
            "§ 196-19 L",
            roles=frozenset({SUPERINTENDENT, CLERK}),
            applicant=True,
            form=FlushedForm,
            facts=Flushed,
            guard=_flushed_guard,
            effect=_flushed_effect,
        ),
        withdraw(("submitted", "acknowledged"), "§ 196-19 L"),
    ],
)
