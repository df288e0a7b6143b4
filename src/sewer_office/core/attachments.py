"""Files attached to a record: stored with their SHA-256 (to prove what was filed), checked for
size and, where the caller says which, for their type by their first bytes (a renamed program
or page is refused whatever its name), all or none, each with its audit event. Every file is
stored under a generated name with the extension of its checked kind, the sender's name kept
as data (:func:`sewer_office.core.storage.store_upload`)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from sewer_office.accounts.actors import Actor, person_or_none

from . import audit, filetypes
from .errors import InvalidInput, shorten, upload_refused
from .models import Attachment
from .storage import files_of_transaction, store_upload

#: The longest title an attachment keeps (its field's length; a longer file name is cut).
TITLE_LENGTH = 200
#: What documents and plans sent through the portal may be.
DOCUMENT_KINDS = ("PDF", "PNG", "JPEG", "TIFF")


def kind_of(upload: Any) -> str | None:
    """The kind of ``upload`` by its first bytes (None: none of
    :data:`sewer_office.core.filetypes.TYPES`)."""
    found = filetypes.sniff_upload(upload)
    return None if found is None else found.kind


def check_upload(upload: Any, kinds: tuple[str, ...] | None = None, field: str = "files") -> None:
    """Refuse an empty file, one over ``SEWER_USE_MAX_UPLOAD_BYTES`` (by its declared size,
    before it is read) or, with ``kinds``, of another kind."""
    refusal = upload_refused(str(upload.name or "file"), int(upload.size))
    if refusal:
        raise InvalidInput({field: [refusal + "."]})
    if kinds is not None and kind_of(upload) not in kinds:
        raise InvalidInput(
            {
                field: [
                    f"{shorten(str(upload.name))}: not a {', '.join(kinds[:-1])} or {kinds[-1]} file (its "
                    "content, not its name, is checked); scan or save the document as PDF."
                ]
            }
        )


def attach(
    record: Any,
    upload: Any,
    actor: Actor | None,
    *,
    title: str = "",
    at: datetime | None = None,
    kinds: tuple[str, ...] | None = None,
) -> Attachment:
    """Store an uploaded file with the record (with a sha256 to prove what was filed)."""

    check_upload(upload, kinds)
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    att = Attachment(
        content_type=ContentType.objects.get_for_model(record),
        object_id=str(record.pk),
        title=shorten(title or upload.name, TITLE_LENGTH),
        size=upload.size,
        sha256=digest.hexdigest(),
        uploaded_by=person_or_none(actor),
    )
    if at is not None:
        att.created_at = at
    store_upload(att, upload, "files", kinds)
    att.save()
    audit.record(
        actor=actor,
        action="attach_file",
        obj=record,
        after={"attachment": att.pk, "title": att.title, "sha256": att.sha256},
        at=at,
    )
    return att


def attach_all(
    record: Any,
    uploads: list[Any],
    actor: Actor | None,
    *,
    title: str = "",
    kinds: tuple[str, ...] | None = None,
) -> list[Attachment]:
    """Store several files with the record, all or none (a refused file keeps none)."""
    with files_of_transaction(), transaction.atomic():
        return [attach(record, f, actor, title=title or f.name or "", kinds=kinds) for f in uploads]
