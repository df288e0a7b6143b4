"""Creating an application: the checks common to every kind, number, audit event.

Every kind the office files is a determination of Town Code Chapter 196, Article VII (its
permits, approvals and notices); each filing service refuses a parcel or facility of a town
whose law is its own (:func:`~sewer_office.core.town_law.require_article_for`) before it
computes anything, and :func:`create_application`, where every kind passes, refuses it again
so that no path writes one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.access import person_ids
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import APPLICANT, VIEWER, has_role, roles_of
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.core.town_law import require_acting_for, require_article_for
from sewer_office.permits.models.base import Application

A = TypeVar("A", bound=Application)


def check_may_apply(
    actor: Actor, applicant_id: int, property_owner_id: int, staff_roles: tuple[str, ...], what: str
) -> None:
    """Staff in ``staff_roles`` file for anyone; an outside user only for a person they
    represent (the applicant must be one of theirs)."""
    if has_role(actor, *staff_roles):
        return
    if "applicant" in roles_of(actor):
        ids = person_ids(actor)
        if applicant_id in ids:
            return
        raise InvalidInput({"applicant": ["You may apply only for a person you represent."]})
    raise Forbidden(f"Filing {what} is for the applicant or the clerk.")


def create_application(
    record: A,
    actor: Actor,
    *,
    citation: str,
    files: list[Any] | None = None,
    at: datetime | None = None,
    initial_state: str | None = None,
    reason: str = "",
) -> A:
    """Save a new application in its initial state with its number and an audit event (refused
    for a record of a town under a law of its own: nothing is written)."""
    name = str(record._meta.verbose_name)
    a = "an" if name[0] in "aeiou" else "a"
    require_acting_for(actor, record, f"Filing {a} {name}")
    require_article_for(record, f"{a.capitalize()} {name} ({citation})")
    when = at or timezone.now()
    with files_of_transaction(), transaction.atomic():
        record.state = initial_state or record.WORKFLOW.initial
        if not record.filed_on:
            record.filed_on = timezone.localdate(when)
        record.submitted_by = person_or_none(actor)
        record.created_at = when
        record.save()
        record.assign_number()
        record.save(update_fields=["number"])
        audit.record(
            actor=actor,
            action="file",
            obj=record,
            after=audit.snapshot(record),
            citation=citation,
            state_to=record.state,
            reason=reason,
            at=when,
        )
        for f in files or []:
            attach(record, f, actor, at=when, kinds=DOCUMENT_KINDS)
    return record


def may_upload(user: Actor, record: Application) -> bool:
    """Whether ``user`` may add files to ``record``: while it is open, office staff (not a
    viewer) or the applicant."""
    if not record.is_open:
        return False
    if roles_of(user) - {VIEWER, APPLICANT}:
        return True
    return record.is_applicant(user)
