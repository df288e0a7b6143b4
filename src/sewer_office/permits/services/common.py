"""Creating an application: the checks common to every kind, number, audit event."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.access import person_ids
from sewer_office.accounts.roles import APPLICANT, VIEWER, has_role, roles_of
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import Attachment
from sewer_office.core.storage import files_of_transaction, store_upload
from sewer_office.permits.models.base import Application

A = TypeVar("A", bound=Application)


def check_may_apply(
    actor: Any, applicant_id: int, property_owner_id: int, staff_roles: tuple[str, ...], what: str
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
    actor: Any,
    *,
    citation: str,
    files: list[Any] | None = None,
    at: datetime | None = None,
    initial_state: str | None = None,
    reason: str = "",
) -> A:
    """Save a new application in its initial state with its number and an audit event."""
    when = at or timezone.now()
    with files_of_transaction(), transaction.atomic():
        record.state = initial_state or record.WORKFLOW.initial
        if not record.filed_on:
            record.filed_on = timezone.localdate(when)
        if getattr(actor, "is_authenticated", False):
            record.submitted_by = actor
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
            attach(record, f, actor, at=when)
    return record


def attach(
    record: Any, upload: Any, actor: Any, *, title: str = "", at: datetime | None = None
) -> Attachment:
    """Store an uploaded file with the record (with a sha256 to prove what was filed)."""

    if upload.size > settings.SEWER_USE_MAX_UPLOAD_BYTES:
        raise InvalidInput(
            {
                "files": [
                    f"{upload.name}: larger than the {settings.SEWER_USE_MAX_UPLOAD_BYTES // (1024 * 1024)} MB allowed."
                ]
            }
        )
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    att = Attachment(
        content_type=ContentType.objects.get_for_model(record),
        object_id=str(record.pk),
        title=title or upload.name,
        size=upload.size,
        sha256=digest.hexdigest(),
        uploaded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    if at is not None:
        att.created_at = at
    store_upload(att, upload, "files")
    att.save()
    audit.record(
        actor=actor,
        action="attach_file",
        obj=record,
        after={"attachment": att.pk, "title": att.title, "sha256": att.sha256},
        at=at,
    )
    return att


def attach_all(record: Any, uploads: list[Any], actor: Any, *, title: str = "") -> list[Attachment]:
    """Store several files with the record, all or none (a refused file keeps none)."""
    with files_of_transaction(), transaction.atomic():
        return [attach(record, f, actor, title=title or f.name or "") for f in uploads]


def may_upload(user: Any, record: Application) -> bool:
    """Whether ``user`` may add files to ``record``: while it is open, office staff (not a
    viewer) or the applicant."""
    if not record.is_open:
        return False
    if roles_of(user) - {VIEWER, APPLICANT}:
        return True
    return record.is_applicant(user)
