"""Scheduling, performing, cancelling and annotating inspections (§ 196-21).

Every function checks the actor's role (and town), changes the record and writes its audit
event in one transaction. Completing an inspection stores every checklist answer and turns each
failed item into a finding citing the item's section, so the facility page, the dashboard's
review queue and the report show the same determinations.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import (
    BUILDING_INSPECTOR,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
    is_staff_member,
)
from sewer_office.core import audit
from sewer_office.core.errors import (
    Blocked,
    Forbidden,
    InvalidInput,
    TransitionNotAllowed,
    shorten,
    upload_refused,
)
from sewer_office.core.models import Attachment
from sewer_office.core.storage import files_of_transaction, store_upload
from sewer_office.core.town_law import require_acting_for
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import record_finding

from .checklists import FACILITY_KINDS, items
from .choices import Answer, InspectionKind, InspectionState
from .models import Inspection, InspectionAddendum, InspectionAnswer
from .report import issue_report

#: Who schedules and performs inspections: the Superintendent and "other duly authorized
#: employees of the Town" (§ 196-21 A) — the engineer and the Building Inspector.
PERFORMERS = (SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR)
ENTRY_CITATION = "§ 196-21 A"
#: Photos: the image types a browser shows, and their first bytes (the declared type is
#: not trusted alone).
PHOTO_TYPES = {
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}
MAX_PHOTO_BYTES = 15 * 1024 * 1024


def require_performer(actor: Actor, what: str) -> None:
    if not has_role(actor, *PERFORMERS):
        raise Forbidden(
            f"{what}: reserved to the Superintendent, the engineer and the Building Inspector "
            f"({ENTRY_CITATION})."
        )


def _require_state(inspection: Inspection, state: str, what: str) -> None:
    if inspection.state != state:
        raise TransitionNotAllowed(
            f"{what}: not possible while the inspection is {inspection.get_state_display().lower()}."
        )


def visible_inspections(
    qs: models.QuerySet[Inspection], user: Actor
) -> models.QuerySet[Inspection]:
    """``qs`` narrowed to what ``user`` may see: outside users only completed inspections of
    their own facilities and properties (a scheduled inspection is never disclosed in advance)."""
    out = visible(qs, user)
    if not is_staff_member(user):
        out = out.filter(Inspection.OUTSIDE_FILTER)
    return out


def may_perform(user: Actor) -> bool:
    return has_role(user, *PERFORMERS)


def performer_by_id(user_id: int) -> Any:
    """The active user with that id holding a performer role, or None."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return user if user is not None and may_perform(user) else None


def schedule(
    actor: Actor,
    *,
    kind: str,
    establishment: Any = None,
    property: Any = None,
    location: str = "",
    on_easement: bool = False,
    scheduled_for: datetime | None = None,
    unscheduled: bool = False,
    inspector: Any = None,
    notes: str = "",
    at: datetime | None = None,
) -> Inspection:
    """Put an inspection on the calendar (or open an unscheduled one) for ``inspector``."""
    require_performer(actor, "Scheduling an inspection")
    require_acting_for(actor, establishment or property, "Scheduling an inspection")
    errors: dict[str, list[str]] = {}
    if kind not in InspectionKind.values:
        errors["kind"] = [f"'{kind}' is not a kind of inspection."]
    if establishment is None and property is None:
        errors["establishment"] = ["Name the facility or the property to inspect."]
    if kind in FACILITY_KINDS and establishment is None:
        errors["establishment"] = ["This kind of inspection is of a facility: name it."]
    if on_easement and not location.strip():
        errors["location"] = ["Describe where on the easement the works lie (§ 196-21 B)."]
    if not unscheduled and scheduled_for is None:
        errors["scheduled_for"] = ["Give the date and time (or mark the visit unscheduled)."]
    inspector = inspector or actor
    if not has_role(inspector, *PERFORMERS):
        errors["inspector"] = [
            "The inspector must be the Superintendent, the engineer or the Building Inspector."
        ]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        inspection = audit.create_recorded(
            Inspection,
            {
                "kind": kind,
                "unscheduled": unscheduled,
                "scheduled_for": scheduled_for,
                "establishment": establishment,
                "property": property,
                "location": location.strip(),
                "on_easement": on_easement,
                "inspector": inspector,
                "scheduled_by": actor,
                "notes": notes.strip(),
            },
            actor=actor,
            action="schedule_inspection",
            citation=lambda created: created.entry_citation,
            state_to=InspectionState.SCHEDULED,
            at=at,
        )
    return inspection


def _clean_answers(kind: str, answers: Mapping[str, Any]) -> list[tuple[Any, str, str]]:
    """(item, result, note) for every item of the checklist; InvalidInput when incomplete."""
    errors: dict[str, list[str]] = {}
    out = []
    known = {i.key for i in items(kind)}
    for key in answers:
        if key not in known:
            errors[key] = [f"'{key}' is not an item of this checklist."]
    for item in items(kind):
        given = answers.get(item.key)
        if isinstance(given, Mapping):
            result, note = str(given.get("result", "")), str(given.get("note", "") or "")
        elif isinstance(given, list | tuple):
            result, note = str(given[0]), str(given[1] if len(given) > 1 else "")
        else:
            result, note = str(given or ""), ""
        if result not in Answer.values:
            errors[item.key] = [f"Answer pass, fail or na ({item.citation})."]
            continue
        if result == Answer.FAIL and not note.strip():
            errors[item.key] = ["Say what was found (it becomes the finding's message)."]
            continue
        out.append((item, result, note.strip()))
    if errors:
        raise InvalidInput(errors)
    return out


def complete(
    inspection: Inspection,
    actor: Actor,
    *,
    credentials_presented: bool,
    credential: str,
    started_at: datetime,
    ended_at: datetime | None,
    answers: Mapping[str, Any],
    observations: str = "",
    samples: Iterable[Any] = (),
    samples_text: str = "",
    at: datetime | None = None,
    submission_key: str = "",
    photos: Iterable[Any] = (),
) -> Inspection:
    """Record the inspection as performed by ``actor``; failed items become findings.

    Refused (:class:`Blocked`) when the inspector did not present credentials: the article
    lets only employees "bearing proper credentials and identification" enter (§ 196-21 A, B).
    ``submission_key`` is the key of the form sent (see :func:`already_completed_by`): the
    same form sent again returns the inspection it completed and writes nothing. ``photos``
    (uploads taken on the visit) are stored with the answers, in the same transaction."""
    require_performer(actor, "Completing an inspection")
    submission_key = submission_key.strip()[:64]
    if already_completed_by(inspection, submission_key):
        return inspection
    _require_state(inspection, InspectionState.SCHEDULED, "Completing the inspection")
    if not credentials_presented or not credential.strip():
        raise Blocked(
            "The inspection cannot be recorded without the credentials presented: only an "
            "inspector bearing proper credentials and identification may enter "
            f"({inspection.entry_citation}). Record which credential or ID was shown."
        )
    errors: dict[str, list[str]] = {}
    if started_at > (at or timezone.now()):
        errors["started_at"] = ["An inspection cannot be recorded before it starts."]
    if ended_at is not None and ended_at < started_at:
        errors["ended_at"] = ["The end is before the start."]
    samples = list(samples)
    if any(
        s.establishment_id != inspection.establishment_id for s in samples
    ):  # a sample belongs to the facility inspected
        errors["samples"] = ["Only samples of the facility inspected can be listed."]
    if errors:
        raise InvalidInput(errors)
    photos = list(photos)
    for upload in photos:
        _check_photo(upload, field="photos")
    cleaned = _clean_answers(inspection.kind, answers)
    with files_of_transaction(), transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if already_completed_by(locked, submission_key):  # sent twice at once: the second waits
            return locked
        _require_state(locked, InspectionState.SCHEDULED, "Completing the inspection")
        before = audit.snapshot(locked)
        for upload in photos:
            _attach_photo(locked, actor, upload, "")
        locked.completion_key = submission_key
        locked.inspector = signed_in(actor)
        locked.credentials_presented = True
        locked.credential = credential.strip()
        locked.started_at = started_at
        locked.ended_at = ended_at
        locked.observations = observations.strip()
        locked.samples_text = samples_text.strip()
        locked.completed_at = at or timezone.now()
        locked.state = InspectionState.COMPLETED
        locked.save()
        locked.samples.set(samples)
        observed = ended_at or started_at
        for position, (item, result, note) in enumerate(cleaned):
            InspectionAnswer.objects.create(
                inspection=locked,
                position=position,
                key=item.key,
                question=item.question,
                citation=item.citation,
                result=result,
                note=note,
            )
            if result == Answer.FAIL:
                record_finding(
                    source=locked,
                    establishment=locked.establishment,
                    kind=FindingKind.INSPECTION,
                    status="review",
                    citation=item.citation,
                    message=f"{item.question}: not met — {note}",
                    observed_at=observed,
                )
        audit.record(
            actor=actor,
            action="complete_inspection",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            citation=locked.entry_citation,
            state_from=InspectionState.SCHEDULED,
            state_to=locked.state,
            at=at,
        )
        issue_report(locked, actor, at)  # the report of record, as completed
    return locked


def already_completed_by(inspection: Inspection, submission_key: str) -> bool:
    """Whether ``inspection`` was completed by the form of this key (a resend: nothing to do)."""
    return (
        bool(submission_key)
        and inspection.state == InspectionState.COMPLETED
        and inspection.completion_key == submission_key
    )


def cancel(inspection: Inspection, actor: Actor, reason: str) -> Inspection:
    """Take a scheduled inspection off the calendar, saying why."""
    require_performer(actor, "Cancelling an inspection")
    _require_state(inspection, InspectionState.SCHEDULED, "Cancelling the inspection")
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the inspection is cancelled."]})
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        _require_state(locked, InspectionState.SCHEDULED, "Cancelling the inspection")
        before = audit.snapshot(locked)
        locked.state = InspectionState.CANCELLED
        locked.cancel_reason = reason.strip()
        locked.save(update_fields=["state", "cancel_reason", "updated_at"])
        audit.record(
            actor=actor,
            action="cancel_inspection",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            state_from=InspectionState.SCHEDULED,
            state_to=locked.state,
        )
    return locked


def add_addendum(inspection: Inspection, actor: Actor, text: str) -> InspectionAddendum:
    """Append a note to a completed inspection (which itself is never edited)."""
    require_performer(actor, "Adding an addendum")
    _require_state(inspection, InspectionState.COMPLETED, "Adding an addendum")
    if not text.strip():
        raise InvalidInput({"text": ["Write the addendum."]})
    with transaction.atomic():
        addendum = InspectionAddendum.objects.create(
            inspection=inspection, text=text.strip(), by=signed_in(actor)
        )
        audit.record(
            actor=actor,
            action="add_addendum",
            obj=inspection,
            after={"addendum": addendum.pk, "text": addendum.text},
            reason=addendum.text,
        )
    return addendum


def _check_photo(upload: Any, field: str = "photo") -> None:
    name = shorten(str(getattr(upload, "name", "") or "photo"))
    refusal = upload_refused(name, int(upload.size))
    if refusal is None and upload.size > MAX_PHOTO_BYTES:
        refusal = f"{name}: larger than the {MAX_PHOTO_BYTES // (1024 * 1024)} MB a photo may be"
    if refusal:
        raise InvalidInput({field: [refusal + "."]})
    declared = (getattr(upload, "content_type", "") or "").split(";")[0].strip().lower()
    head = upload.read(16)
    upload.seek(0)
    signatures = PHOTO_TYPES.get(declared)
    ok = signatures is not None and any(head.startswith(s) for s in signatures)
    if ok and declared == "image/webp":
        ok = head[8:12] == b"WEBP"
    if not ok:
        raise InvalidInput({field: [f"{name}: not a JPEG, PNG, GIF or WebP image."]})


def add_photo(inspection: Inspection, actor: Actor, upload: Any, title: str = "") -> Attachment:
    """Store a photo taken during the inspection (before it is completed)."""
    require_performer(actor, "Adding a photo")
    _require_state(inspection, InspectionState.SCHEDULED, "Adding a photo")
    _check_photo(upload)
    with files_of_transaction(), transaction.atomic():
        return _attach_photo(inspection, actor, upload, title)


def _attach_photo(inspection: Inspection, actor: Actor, upload: Any, title: str) -> Attachment:
    """Store a checked photo and its audit event (inside the caller's transaction and
    :func:`~sewer_office.core.storage.files_of_transaction`, so a failed block keeps no file)."""
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    att = Attachment(
        content_type=ContentType.objects.get_for_model(inspection),
        object_id=str(inspection.pk),
        title=(title or upload.name)[:200],
        size=upload.size,
        sha256=digest.hexdigest(),
        uploaded_by=signed_in(actor),
    )
    store_upload(att, upload, "photo")
    att.save()
    audit.record(
        actor=actor,
        action="add_photo",
        obj=inspection,
        after={"attachment": att.pk, "title": att.title, "sha256": att.sha256},
    )
    return att
