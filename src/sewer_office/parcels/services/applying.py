"""The roll's application: a preview stored in one transaction, with one audit event, or nothing.

Refused when a row was refused, when the same bytes were applied before, or when the register
changed since the preview (:class:`.common.Stale`). Persons, properties and owner changes are
written in bulk (:mod:`sewer_office.core.bulk`, :mod:`sewer_office.parcels.store`); the reviews
the preview planned are opened with the rows they hold.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import polars as pl
from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.core import audit, bulk
from sewer_office.core.errors import Blocked
from sewer_office.parcels import owners, store
from sewer_office.parcels.choices import ImportKind, Outcome
from sewer_office.parcels.models import OwnerChange, ParcelReview, RollImport
from sewer_office.registry.models import Person, Property, ServiceArea

from .classify import RollPreview
from .common import (
    ACRE_PLACES,
    MAIL_FIELDS,
    PROPERTY_FIELDS,
    TEXT_FIELDS,
    Stale,
    check_importer,
    lock_register,
    towns_of_areas,
)


def apply(preview_: RollPreview, actor: Actor, roll_date: date) -> RollImport:
    """Store ``preview_`` (see the module) in one transaction, with one audit event.

    Refused (:class:`Blocked`, nothing stored) when a row was refused, when the same bytes
    were applied before, or (:class:`Stale`) when the register changed since the preview.
    """
    check_importer(actor)
    p = preview_
    p.check_applicable()
    now = timezone.now()
    with transaction.atomic():
        lock_register()
        reason = _stale(p.taken_at)
        if reason:
            raise Stale(f"{p.source}: {reason}; preview the file again")
        if RollImport.objects.filter(kind=ImportKind.ROLL, sha256=p.file.sha256).exists():
            raise Blocked(f"{p.source}: this file was already imported; nothing was changed")
        counts = p.counts
        imp = RollImport.objects.create(
            kind=ImportKind.ROLL,
            source_name=p.source[:300],
            sha256=p.file.sha256,
            crs=p.file.crs[:80],
            roll_date=roll_date,
            imported_at=now,
            imported_by=person_or_none(actor),
            rows=p.file.rows,
            new_count=counts.get(Outcome.NEW, 0),
            changed_count=counts.get(Outcome.CHANGED, 0),
            unchanged_count=counts.get(Outcome.UNCHANGED, 0),
            review_count=counts.get(Outcome.REVIEW, 0),
            owner_change_count=p.owner_changes.height,
            persons_created=p.persons_new.height,
            areas_assigned=p.areas_assigned,
            changes=p.changes,
        )
        idents = _create_persons(p.persons_new, now)
        if p.person_updates.height:
            store.update(
                Person, p.person_updates.select("id", *MAIL_FIELDS, pl.lit(now).alias("updated_at"))
            )
        _create_properties(p.new, idents, now)
        _update_properties(p.changed, idents, now)
        _record_owner_changes(p.owner_changes, idents, imp, roll_date, now)
        reviews = _open_reviews(p, imp)
        audit.record(
            actor=actor,
            action="import_parcels",
            obj=imp,
            after={
                "source_name": p.source,
                "sha256": p.file.sha256,
                "crs": p.file.crs,
                "roll_date": roll_date.isoformat(),
                "rows": p.file.rows,
                "new": imp.new_count,
                "changed": imp.changed_count,
                "unchanged": imp.unchanged_count,
                "held_for_review": imp.review_count,
                "owner_changes": imp.owner_change_count,
                "persons_created": imp.persons_created,
                "service_areas_assigned": imp.areas_assigned,
                "reviews": [r.pk for r in reviews],
            },
            at=now,
        )
    return imp


def _stale(preview_at: datetime) -> str:
    """Why a preview taken at ``preview_at`` no longer holds ("" when it does)."""
    if RollImport.objects.filter(imported_at__gt=preview_at).exists():
        return "another import was applied since the preview"
    if Property.objects.filter(updated_at__gt=preview_at).exists():
        return "a property was changed since the preview"
    if Person.objects.filter(updated_at__gt=preview_at).exists():
        return "a person was changed since the preview"
    if ServiceArea.objects.filter(updated_at__gt=preview_at).exists():
        return "a service area was changed since the preview"
    return ""


def _with_ids(frame: pl.DataFrame, model: Any) -> pl.DataFrame:
    """``frame`` in the order of its rows, with an ``id`` reserved in ``model``'s table each."""
    first = bulk.reserve_ids(model, frame.height)
    return frame.with_row_index("id", offset=first).with_columns(pl.col("id").cast(pl.Int64))


def _create_persons(persons_new: pl.DataFrame, now: datetime) -> dict[str, int]:
    """The new persons, created; identity → id."""
    if persons_new.height == 0:
        return {}
    frame = _with_ids(persons_new, Person).with_columns(
        pl.col("name").map_elements(owners.person_kind, return_dtype=pl.String).alias("kind")
    )
    bulk.insert(
        Person,
        frame.select(
            "id",
            "kind",
            "name",
            *MAIL_FIELDS,
            pl.lit(now).alias("created_at"),
            pl.lit(now).alias("updated_at"),
        ),
    )
    return dict(frame.select("ident", "id").iter_rows())


def _owner_id(idents: dict[str, int]) -> pl.Expr:
    """The owner's id: the person on record, else the new person of the row's identity."""
    return pl.coalesce(
        pl.col("owner_id"),
        pl.col("owner_ident").replace_strict(idents, default=None, return_dtype=pl.Int64),
    ).alias("owner_id")


#: The property's columns as the roll gives them.
PROPERTY_COLUMNS = (
    *[pl.col(c) for c in TEXT_FIELDS],
    pl.col("acreage").round(ACRE_PLACES),
    pl.col("geometry"),
    pl.col("lon"),
    pl.col("lat"),
)


def _create_properties(new: pl.DataFrame, idents: dict[str, int], now: datetime) -> None:
    if new.height == 0:
        return
    frame = _with_ids(new.sort("row"), Property).with_columns(_owner_id(idents))
    bulk.insert(
        Property,
        frame.select(
            "id",
            *PROPERTY_COLUMNS,
            "owner_id",
            pl.col("area").alias("service_area_id"),
            towns_of_areas(pl.col("area")).alias("jurisdiction"),  # the area's town
            pl.lit(now).alias("created_at"),
            pl.lit(now).alias("updated_at"),
        ),
    )


def _update_properties(changed: pl.DataFrame, idents: dict[str, int], now: datetime) -> None:
    if changed.height == 0:
        return
    store.update(
        Property,
        changed.with_columns(_owner_id(idents)).select(
            pl.col("pid").alias("id"),
            *PROPERTY_COLUMNS,
            "owner_id",
            pl.coalesce("area", "old_service_area_id").alias("service_area_id"),
            pl.lit(now).alias("updated_at"),
        ),
    )


def _record_owner_changes(
    changes: pl.DataFrame, idents: dict[str, int], imp: RollImport, on: date, now: datetime
) -> None:
    if changes.height == 0:
        return
    frame = _with_ids(changes.sort("row"), OwnerChange).with_columns(
        _owner_id(idents).alias("new_owner_id")
    )
    bulk.insert(
        OwnerChange,
        frame.select(
            "id",
            "property_id",
            "previous_owner_id",
            "new_owner_id",
            pl.lit(on).alias("effective_on"),
            pl.lit(imp.pk).alias("roll_import_id"),
            pl.lit(now).alias("recorded_at"),
        ),
    )


def held_record(rec: dict[str, Any]) -> dict[str, Any]:
    """A held row as the review keeps it (what confirming creates)."""
    keep = ("row", "key", *PROPERTY_FIELDS, "owner", *MAIL_FIELDS, "area")
    return {k: rec.get(k) for k in keep}


def _open_reviews(p: RollPreview, imp: RollImport) -> list[ParcelReview]:
    held = {rec["row"]: held_record(rec) for rec in p.held.iter_rows(named=True)}
    made = [
        ParcelReview(
            kind=r.kind,
            roll_import=imp,
            gone=r.gone,
            continuing=r.continuing,
            held=[held[i] for i in r.held_rows],
            shares=r.shares,
        )
        for r in p.reviews
        if r.existing is None
    ]
    return ParcelReview.objects.bulk_create(made)
