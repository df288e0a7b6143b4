"""The office's edits of its letters: a new template version, a new letterhead version.

Each edit is a new written-once version with its audit event, in one transaction; nothing
already stored changes, so every issued document still names the versions it was made with.
Only the Superintendent and the clerk edit (the views check it; these services check it too,
so no other caller can bypass it).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import acts_for
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT, has_role
from sewer_office.accounts.towns import installed, primary

from . import audit, letter_pdf, letters
from .attachments import kind_of
from .models import Letterhead, LetterTemplate

#: Who may change the Town's letters.
EDITORS = (SUPERINTENDENT, CLERK)
#: The largest logo accepted (a letterhead logo is a small picture; it is stored in the row).
LOGO_MAX_BYTES = 512 * 1024
LOGO_KINDS = ("PNG", "JPEG")


def may_edit(user: Actor) -> bool:
    return has_role(user, *EDITORS)


def _editor(actor: Actor) -> None:
    if not may_edit(actor):
        raise PermissionDenied("Only the Superintendent or the clerk may change the letters.")


def _kept_by(actor: Actor, jurisdiction: str, what: str) -> str:
    """The town (``jurisdiction``, else the primary) whose ``what`` the editor keeps: one of
    the office's, for which they act."""
    town = jurisdiction or primary()
    if town not in installed() or not acts_for(actor, town):
        raise PermissionDenied(f"Your account does not keep {town}'s {what}.")
    return town


def save_template(
    key: str,
    body: str,
    note: str,
    *,
    actor: Actor,
    preview: Any = None,
    jurisdiction: str = "",
) -> LetterTemplate:
    """Store ``body`` as the next version of ``key``'s template of a town (``jurisdiction``,
    else the primary), after the checks (forbidden tags, required fields, and that it renders
    on ``preview`` — else on the newest record). The editor acts for the town."""
    _editor(actor)
    town = _kept_by(actor, jurisdiction, "letters")
    kind = letters.kind(key)
    if not note.strip():
        raise ValidationError({"note": ["Say why the wording changes (kept with the version)."]})
    body = body.replace("\r\n", "\n")
    if preview is None:
        preview = next(iter(kind.records()[:1]), None)
    try:
        letters.validate_body(kind, body, preview)
    except ValidationError as e:
        raise ValidationError({"body": e.messages}) from e
    with transaction.atomic():
        last = (
            LetterTemplate.objects.filter(kind=key, jurisdiction=town).aggregate(v=Max("version"))[
                "v"
            ]
            or 0
        )
        return audit.create_recorded(
            LetterTemplate,
            {
                "jurisdiction": town,
                "kind": key,
                "version": last + 1,
                "body": body,
                "note": note.strip()[:300],
                "created_by": actor,
            },
            actor=actor,
            action="edit_letter_template",
            reason=note.strip(),
        )


def check_logo(upload: Any) -> tuple[bytes, str]:
    """The logo's bytes and kind, or a ValidationError naming the field: PNG or JPEG by its
    content, at most :data:`LOGO_MAX_BYTES`, and a picture the PDF library can read."""
    if upload.size == 0:
        raise ValidationError({"logo": [f"{upload.name}: an empty file."]})
    if upload.size > LOGO_MAX_BYTES:
        raise ValidationError(
            {
                "logo": [
                    f"{upload.name}: {upload.size:,} bytes; a logo may be at most "
                    f"{LOGO_MAX_BYTES // 1024} KB."
                ]
            }
        )
    found = kind_of(upload)
    if found not in LOGO_KINDS:
        raise ValidationError(
            {"logo": [f"{upload.name}: not a PNG or JPEG picture (its content is checked)."]}
        )
    data = upload.read()
    try:
        letter_pdf.render_pdf(
            [("text", "logo check")],
            title="logo check",
            created=timezone.now(),
            head=letter_pdf.Head("t", "o", (), "", "", "", "", logo=data),
        )
    except Exception as e:  # fpdf2 refuses a damaged or unsupported picture
        raise ValidationError(
            {"logo": [f"{upload.name}: the picture cannot be read ({e})."]}
        ) from e
    return data, str(found).lower()


def save_letterhead(
    fields: dict[str, Any],
    *,
    actor: Actor,
    logo: Any = None,
    keep_logo: bool = True,
    jurisdiction: str = "",
) -> Letterhead:
    """Store the next letterhead version of a town (``jurisdiction``, else the primary). Without
    a new ``logo``, the current logo is kept (unless ``keep_logo`` is false: the logo is
    removed). The editor acts for the town."""
    _editor(actor)
    town = _kept_by(actor, jurisdiction, "letterhead")
    errors: dict[str, list[str]] = {}
    for name, label in (
        ("town_name", "Town name"),
        ("office_name", "Office name"),
        ("address", "Mailing address"),
        ("note", "Note"),
    ):
        if not str(fields.get(name, "")).strip():
            errors[name] = [f"{label} is required."]
    if errors:
        raise ValidationError(errors)
    current = letter_pdf.current_letterhead(jurisdiction=town)
    data, kind = b"", ""
    if logo is not None:
        data, kind = check_logo(logo)
    elif keep_logo and current is not None:
        data, kind = bytes(current.logo or b""), current.logo_type
    with transaction.atomic():
        last = Letterhead.objects.filter(jurisdiction=town).aggregate(v=Max("version"))["v"] or 0
        values = {
            k: str(fields.get(k, "")).strip()
            for k in (
                "town_name",
                "office_name",
                "address",
                "phone",
                "email",
                "hours",
                "payment_instructions",
            )
        }
        values["address"] = "\n".join(
            ln.strip() for ln in values["address"].splitlines() if ln.strip()
        )
        return audit.create_recorded(
            Letterhead,
            {
                **values,
                "jurisdiction": town,
                "version": last + 1,
                "logo": data,
                "logo_type": kind,
                "note": str(fields.get("note", "")).strip()[:300],
                "created_by": actor,
            },
            actor=actor,
            action="edit_letterhead",
            reason=str(fields.get("note", "")).strip(),
        )
