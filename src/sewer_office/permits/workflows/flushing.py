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

from datetime import datetime
from typing import Any

from django import forms
from django.utils import timezone

from sewer_office.accounts.roles import CLERK, SUPERINTENDENT
from sewer_office.core.workflow import REASON_REQUIRED, State, Transition, Workflow

from .common import date_field, day, withdraw


class FlushedForm(forms.Form):
    flushed_on = date_field("Flushed on")


def _ack_effect(notice: Any, data: dict[str, Any], actor: Any, at: datetime) -> None:
    notice.acknowledged_on = timezone.localdate(at)


def _flushed_guard(notice: Any, data: dict[str, Any]) -> str | None:
    flushed = data.get("flushed_on")
    if flushed is not None and flushed < notice.filed_on:
        return "Flushing must follow the notice (§ 196-19 L): the date given is before it."
    return None


def _flushed_effect(notice: Any, data: dict[str, Any], actor: Any, at: datetime) -> None:
    notice.flushed_on = day(data, "flushed_on", at)


WORKFLOW = Workflow(
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
            guard=_flushed_guard,
            effect=_flushed_effect,
        ),
        withdraw(("submitted", "acknowledged"), "§ 196-19 L"),
    ],
)
