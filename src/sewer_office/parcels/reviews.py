"""The clerk's decision on parcels that left the roll (:class:`.models.ParcelReview`).

**Confirm**: the relation the review shows (split, merge, redrawn, gone) is recorded as the
clerk's; the held parcels are created as the roll gave them (a parcel with the same SWIS and
SBL created since — by hand, or by a later roll — is taken as it is, not made twice), their
owners found or created as an import finds them (:mod:`.owners`); the gone properties are
retired on the roll's date (:class:`.models.Retirement`): they stay, with everything that names
them, and the roll is no longer searched for them.

**Reject**: nothing is created or retired; the review is closed with the clerk's note. If the
roll still shows the same next year, the import opens a new review.

Each decision is one transaction with its audit event; a decided review never changes again
(the database refuses it on PostgreSQL, :mod:`sewer_office.core.protection`).
"""

from __future__ import annotations

from datetime import date
from typing import Any

import polars as pl
from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.core import audit
from sewer_office.core.errors import Blocked
from sewer_office.registry.models import Person, Property

from . import owners
from .choices import ReviewState
from .models import ParcelReview, Retirement
from .services import MAIL_FIELDS, PROPERTY_FIELDS, check_importer, persons_frame
from .services.common import area_towns, town_of

__all__ = ["confirm", "reject"]


def _pending(review: ParcelReview) -> ParcelReview:
    locked = ParcelReview.objects.select_for_update().get(pk=review.pk)
    if locked.state != ReviewState.PENDING:
        raise Blocked(
            f"{locked} was already {locked.get_state_display().lower()} on "
            f"{timezone.localtime(locked.decided_at):%Y-%m-%d}"
            if locked.decided_at
            else f"{locked} was already decided"
        )
    return locked


def _owner(row: dict[str, Any]) -> Person:
    """The held row's owner: the person of its identity, or a new one."""
    frame = pl.DataFrame({c: [row.get(c) or ""] for c in ("owner", *MAIL_FIELDS)})
    ident = frame.select(
        owners.identity(
            pl.col("owner"), pl.col("mail_street"), pl.col("mail_city"), pl.col("mail_zip")
        )
    ).item()
    persons = persons_frame().filter(pl.col("ident") == ident)
    if persons.height:
        return Person.objects.get(pk=int(persons.get_column("survivor").min()))  # type: ignore[arg-type]
    return Person.objects.create(
        name=str(row.get("owner") or ""),
        kind=owners.person_kind(str(row.get("owner") or "")),
        **{c: str(row.get(c) or "") for c in MAIL_FIELDS},
    )


def _create(row: dict[str, Any], towns: dict[int, str]) -> Property:
    swis, sbl = str(row["swis"]), str(row["sbl"])
    found = (
        Property.objects.filter(swis=swis, sbl=sbl, retirement__isnull=True).order_by("id").first()
    )
    if found is not None:
        return found
    taken = Property.objects.filter(parcel_id=row["parcel_id"]).first()
    if taken is not None:
        raise Blocked(
            f"The tax parcel id {row['parcel_id']} of SBL {sbl} is property #{taken.pk}'s "
            "now: correct that property first"
        )
    values = {c: row.get(c) for c in PROPERTY_FIELDS}
    for c in ("swis", "sbl", "parcel_id", "property_class", "address", "city", "state", "zip"):
        values[c] = values[c] or ""
    values["geometry"] = values["geometry"] or ""
    area = row.get("area")
    return Property.objects.create(
        **values,
        owner=_owner(row),
        service_area_id=area,
        jurisdiction=town_of(area, towns),  # the area's town, as the import's new parcels
    )


def confirm(review: ParcelReview, actor: Actor, note: str = "") -> ParcelReview:
    """Record the relation, create the held parcels, retire the gone ones (see the module)."""
    check_importer(actor)
    with transaction.atomic():
        locked = _pending(review)
        on: date = locked.roll_import.roll_date or timezone.localdate()
        towns = area_towns()
        created = [_create(row, towns).pk for row in locked.held]
        retired = [int(g["property"]) for g in locked.gone]
        already = set(
            Retirement.objects.filter(property_id__in=retired).values_list("property_id", flat=True)
        )
        Retirement.objects.bulk_create(
            Retirement(property_id=pk, review=locked, retired_on=on)
            for pk in retired
            if pk not in already
        )
        before = {"state": locked.state}
        locked.state = ReviewState.CONFIRMED
        locked.decided_by = person_or_none(actor)
        locked.decided_at = timezone.now()
        locked.note = note.strip()
        locked.created = created
        locked.save()
        audit.record(
            actor=actor,
            action="confirm_parcel_review",
            obj=locked,
            before=before,
            after={
                "state": locked.state,
                "kind": locked.kind,
                "created": created,
                "retired": [pk for pk in retired if pk not in already],
                "retired_on": on.isoformat(),
                "note": locked.note,
            },
            reason=locked.note,
            state_from=ReviewState.PENDING,
            state_to=ReviewState.CONFIRMED,
        )
    return locked


def reject(review: ParcelReview, actor: Actor, note: str = "") -> ParcelReview:
    """Close the review without creating or retiring anything (see the module)."""
    check_importer(actor)
    with transaction.atomic():
        locked = _pending(review)
        locked.state = ReviewState.REJECTED
        locked.decided_by = person_or_none(actor)
        locked.decided_at = timezone.now()
        locked.note = note.strip()
        locked.save()
        audit.record(
            actor=actor,
            action="reject_parcel_review",
            obj=locked,
            before={"state": ReviewState.PENDING},
            after={"state": locked.state, "note": locked.note},
            reason=locked.note,
            state_from=ReviewState.PENDING,
            state_to=ReviewState.REJECTED,
        )
    return locked
