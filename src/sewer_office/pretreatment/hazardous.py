"""Hazardous-waste notifications of the users (40 CFR 403.12(p)), recorded on the facility.

A user discharging a substance that would be a hazardous waste if disposed of otherwise tells
the Town (and EPA's regional division and the State) in writing: the waste, its EPA number, the
type of discharge, and above 100 kg a month its constituents and estimates; every notice
certifies a waste-reduction program ((p)(4)). The office records a notice received on paper
(the Superintendent, the engineer or the clerk, with the day of the notice and, if kept, its
scan); a facility's own account sends its notice through the office's site (the day it arrives
is the day of the notice). Either way the rule (:mod:`sewer_rules.federal.cfr403_hazardous`)
refuses a notice missing an element, naming the field. A notice is written once; a correction
or a changed discharge is a new notice, and the facility's page lists them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from sewer_office.accounts.access import can_see
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role, is_staff_member
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.registry.models import Establishment
from sewer_rules.federal import cfr403_hazardous as rule

from .choices import NotificationChannel
from .models import HazardousWasteNotification

CITATION = str(rule.CITATION)
#: Who records a notice received in writing.
RECORDERS = (SUPERINTENDENT, ENGINEER, CLERK)
TEXTS = (
    "waste_name",
    "discharge_type",
    "discharge_detail",
    "constituents",
    "month_estimate",
    "year_estimate",
    "not_known",
)


def may_record(user: Actor, establishment: Establishment) -> bool:
    """Staff who record paper notices, or the facility's own account."""
    if has_role(user, *RECORDERS):
        return True
    return not is_staff_member(user) and can_see(user, establishment)


def _check_actor(actor: Actor, establishment: Establishment) -> str:
    """The channel the notice comes by, or Forbidden."""
    if has_role(actor, *RECORDERS):
        return NotificationChannel.PAPER
    if is_staff_member(actor):
        raise Forbidden(
            f"Recording a hazardous-waste notification ({CITATION}) is for the "
            "Superintendent, the engineer or the clerk."
        )
    if not can_see(actor, establishment):
        raise Forbidden("This facility is another's.")
    return NotificationChannel.PORTAL


class NotificationValues(TypedDict, total=False):
    """What a notice says (the model's fields), as the form or a test gives them: any may be
    missing or empty, for the rule to name what the notice lacks. ``notified_on`` is read on
    paper only (a notice sent through the site is dated the day it arrives)."""

    waste_name: str
    waste_number: str
    discharge_type: str
    discharge_detail: str
    monthly_kg: Decimal | str | None
    constituents: str
    month_estimate: str
    year_estimate: str
    not_known: str
    minimization_certified: bool
    discharge_began_on: date | None
    notified_on: date | None
    epa_notified_on: date | None
    state_notified_on: date | None


def _text(values: Mapping[str, object], name: str) -> str:
    value = values.get(name)
    return "" if value is None else str(value).strip()


def _mass(values: NotificationValues) -> Decimal | None:
    raw = values.get("monthly_kg")
    if raw is None or raw == "":
        return None
    try:
        return Decimal(str(raw))
    except ArithmeticError:
        raise InvalidInput({"monthly_kg": ["A mass in kilograms, e.g. 120.5."]}) from None


def _dates(values: NotificationValues, notified_on: date, today: date) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if notified_on > today:
        errors["notified_on"] = ["A notice cannot be dated in the future."]
    for name, day in (
        ("epa_notified_on", values.get("epa_notified_on")),
        ("state_notified_on", values.get("state_notified_on")),
    ):
        if day is not None and day > today:
            errors[name] = ["A notice cannot be sent in the future."]
    return errors


def record_notification(
    actor: Actor,
    establishment: Establishment,
    values: NotificationValues,
    *,
    document: Any = None,
    at: datetime | None = None,
) -> HazardousWasteNotification:
    """Record one notice of ``establishment`` (``values``: the fields of the model; dates as
    dates), refusing one that misses an element of 403.12(p), naming the field."""
    channel = _check_actor(actor, establishment)
    today = timezone.localdate(at) if at is not None else timezone.localdate()
    notified_on = values.get("notified_on") if channel == NotificationChannel.PAPER else today
    if notified_on is None:
        raise InvalidInput({"notified_on": ["The day of the written notice."]})
    texts = {name: _text(values, name) for name in TEXTS}
    notice = rule.Notice(
        waste_number=rule.normal_number(_text(values, "waste_number")),
        monthly_kg=_mass(values),
        minimization_certified=bool(values.get("minimization_certified")),
        **texts,
    )
    errors = {lack.field: [lack.message] for lack in rule.lacks(notice, notified_on)}
    errors.update(_dates(values, notified_on, today))
    if errors:
        raise InvalidInput(errors)
    with files_of_transaction(), transaction.atomic():
        made = audit.create_recorded(
            HazardousWasteNotification,
            {
                "establishment": establishment,
                **texts,
                "waste_number": notice.waste_number,
                "monthly_kg": notice.monthly_kg,
                "acute": rule.is_acute(notice.waste_number),
                "minimization_certified": True,
                "notified_on": notified_on,
                "discharge_began_on": values.get("discharge_began_on"),
                "epa_notified_on": values.get("epa_notified_on"),
                "state_notified_on": values.get("state_notified_on"),
                "channel": channel,
                "recorded_by": actor,
                **({"recorded_at": at} if at is not None else {}),
            },
            actor=actor,
            action="record_hazardous_waste_notification",
            citation=CITATION,
            at=at,
        )
        if document is not None:
            attach(
                made, document, actor, title=f"Notice: {document.name}", at=at, kinds=DOCUMENT_KINDS
            )
    return made


def notifications_of(establishment: Establishment) -> QuerySet[HazardousWasteNotification]:
    return HazardousWasteNotification.objects.filter(establishment=establishment).order_by(
        "-notified_on", "-id"
    )


def notifications_in(year: int) -> QuerySet[HazardousWasteNotification]:
    """The notices dated in ``year``, by facility (for the annual report: 40 CFR 403.12(i)
    asks the Control Authority to report on its program)."""
    return (
        HazardousWasteNotification.objects.filter(notified_on__year=year)
        .select_related("establishment")
        .order_by("establishment__name", "notified_on", "id")
    )
