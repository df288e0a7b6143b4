"""The roll's preview: every row of a read roll classified against the register; nothing written.

:func:`preview` says of every row whether it is **new**, **changed** (which fields),
**unchanged**, **refused** or held for **review**, and gathers what applying it would write
(:class:`RollPreview`, which :func:`sewer_office.parcels.services.apply` stores). The
matching is :mod:`.matching`'s, the reviews :mod:`.ground`'s; here are the service areas by
the districts' boundaries, the differences from the register, and the outcome of each row.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import polars as pl
from django.utils import timezone

from sewer_io.parcels import ParcelFile, district_of
from sewer_office.parcels.choices import ImportKind, Outcome, ReviewKind
from sewer_office.parcels.import_reports import ParcelChange, RollReport, RollRow
from sewer_office.parcels.models import RollImport
from sewer_office.registry.models import ServiceArea

from .common import ACRE_PLACES, DEGREE_PLACES, MAIL_FIELDS, PROPERTY_FIELDS, ImportPreview
from .ground import PlannedReview, planned_reviews
from .matching import (
    Refusal,
    mail_changed,
    match_owners,
    match_properties,
    mover_rows,
    persons_frame,
    prepared_rows,
    register_frame,
    row_checks,
)


@dataclass
class RollPreview(ImportPreview):
    """What applying a read roll would do (see :func:`preview`)."""

    file: ParcelFile
    taken_at: datetime
    previous: RollImport | None
    refusals: list[Refusal]
    #: one row per row of the file: ``row, key, parcel_id, outcome, property_id, review_kind``
    outcomes: pl.DataFrame
    #: rows to create: the roll's columns, ``owner_id`` (existing) or ``owner_ident`` (new),
    #: ``area`` (the service area's id)
    new: pl.DataFrame
    #: ``pid`` and the property columns to set on the changed properties
    changed: pl.DataFrame
    changes: list[ParcelChange]
    persons_new: pl.DataFrame
    person_updates: pl.DataFrame
    owner_changes: pl.DataFrame
    reviews: list[PlannedReview]
    held: pl.DataFrame
    areas_assigned: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> RollReport:
        """The import's report as the command line's JSON writes it."""
        keys = {
            r: (k or "", p or "")
            for r, k, p in self.outcomes.select("row", "key", "parcel_id").iter_rows()
        }
        rows: list[RollRow] = []
        for r, f, m in self.refusals:
            key, pid = keys.get(r, ("", ""))
            swis, sbl = _swis_sbl(key)
            rows.append(
                {
                    "row": r,
                    "sbl": sbl,
                    "swis": swis,
                    "parcel_id": pid,
                    "outcome": Outcome.REFUSED.value,
                    "field": f,
                    "message": m,
                }
            )
        by_row = {c["row"]: c for c in self.changes}
        for rec in self.outcomes.filter(
            pl.col("outcome").is_in([Outcome.NEW, Outcome.CHANGED, Outcome.REVIEW])
        ).iter_rows(named=True):
            swis, sbl = _swis_sbl(rec["key"] or "")
            item: RollRow = {
                "row": rec["row"],
                "swis": swis,
                "sbl": sbl,
                "parcel_id": rec["parcel_id"],
                "outcome": rec["outcome"],
            }
            if rec["property_id"] is not None:
                item["property"] = rec["property_id"]
            if rec["outcome"] == Outcome.CHANGED:
                item["changed"] = by_row[rec["row"]]["fields"]
            if rec["outcome"] == Outcome.REVIEW:
                item["review"] = rec["review_kind"]
            rows.append(item)
        rows.sort(key=lambda x: (x["row"], x["outcome"] != Outcome.REFUSED))
        out: RollReport = {
            "new": self.counts.get("new", 0),
            "changed": self.counts.get("changed", 0),
            "unchanged": self.counts.get("unchanged", 0),
            "refused": self.counts.get("refused", 0),
            "rows": rows,
            "file": self.source,
            "sha256": self.file.sha256,
            "crs": self.file.crs,
            "review": self.counts.get("review", 0),
            "owner_changes": self.owner_changes.height,
            "persons_new": self.persons_new.height,
            "splits": sum(1 for r in self.reviews if r.kind == ReviewKind.SPLIT),
            "merges": sum(1 for r in self.reviews if r.kind == ReviewKind.MERGE),
            "reviews": [
                {
                    "kind": r.kind,
                    "gone": [g["key"] for g in r.gone],
                    "continuing": [c["key"] for c in r.continuing],
                    "new": [keys.get(i, ("", ""))[0] for i in r.held_rows],
                    "existing_review": r.existing,
                }
                for r in self.reviews
            ],
            "areas_assigned": self.areas_assigned,
        }
        if self.previous is not None:
            out["already_imported"] = {
                "import": self.previous.pk,
                "at": self.previous.imported_at.isoformat(),
                "source_name": self.previous.source_name,
            }
        return out


def _swis_sbl(key: str) -> tuple[str, str]:
    """A key ``SWIS/SBL`` as its SWIS code and its SBL."""
    parts = key.split("/", 1)
    return parts[0], parts[-1]


def preview(pf: ParcelFile) -> RollPreview:
    """Classify every row of ``pf`` against the register (see the module); writes nothing."""
    taken_at = timezone.now()
    previous = RollImport.objects.filter(kind=ImportKind.ROLL, sha256=pf.sha256).first()
    refusals = [(int(r.row), r.field, r.message) for r in pf.refused]
    frame = prepared_rows(pf.parcels)
    file_refused = {r for r, _, _ in refusals}
    if file_refused:
        frame = frame.filter(~pl.col("row").is_in(sorted(file_refused)))
    refusals += row_checks(frame)
    reg = register_frame()
    matched, clashes = match_properties(frame, reg)
    refusals = sorted(set(refusals + clashes))
    refused_rows = sorted({r for r, _, _ in refusals})
    rows = matched.filter(~pl.col("row").is_in(refused_rows))
    rows = rows.with_columns(_areas(rows, boundaries()))
    rows, persons_new, mail_updates = match_owners(rows, reg, persons_frame())
    diffs = _differences(rows, reg)
    any_change = pl.any_horizontal(
        *[f"d_{c}" for c in PROPERTY_FIELDS], "d_owner", "d_service_area"
    )
    movers = mail_changed(mail_updates)
    changed = diffs.filter(any_change | pl.col("row").is_in(mover_rows(rows, movers)))
    swis = sorted(set(frame.get_column("swis").to_list()) - {""})
    reviews = planned_reviews(rows, reg, diffs, swis)
    review_kind = {r: p.kind for p in reviews for r in p.held_rows}
    held_rows = sorted(review_kind)
    changes = _changes(changed, movers)
    changed_rows = sorted({c["row"] for c in changes})
    new = rows.filter(pl.col("pid").is_null() & ~pl.col("row").is_in(held_rows))
    # a new person only for the rows that will be created or change owner now
    new_owner = rows.filter(pl.col("pid").is_not_null() & (pl.col("how") == "new"))
    wanted = {*new.get_column("ident").to_list(), *new_owner.get_column("ident").to_list()}
    persons_new = persons_new.filter(pl.col("ident").is_in(sorted(wanted)))
    owner_changes = diffs.filter(pl.col("d_owner")).select(
        pl.col("pid").alias("property_id"),
        pl.col("old_owner_id").alias("previous_owner_id"),
        "owner_id",
        "owner_ident",
        "row",
    )
    outcomes = _outcomes(matched, sorted(file_refused), refused_rows, review_kind, changed_rows)
    counts = dict(outcomes.get_column("outcome").value_counts().iter_rows())
    return RollPreview(
        file=pf,
        taken_at=taken_at,
        previous=previous,
        refusals=refusals,
        outcomes=outcomes,
        new=new,
        changed=changed.filter(pl.col("row").is_in(changed_rows)),
        changes=changes,
        persons_new=persons_new,
        person_updates=movers,
        owner_changes=owner_changes,
        reviews=reviews,
        held=rows.filter(pl.col("row").is_in(held_rows)),
        areas_assigned=diffs.filter(pl.col("d_service_area")).height
        + new.filter(pl.col("area").is_not_null()).height,
        counts={k: int(counts.get(k, 0)) for k in Outcome.values},
    )


def _outcomes(
    matched: pl.DataFrame,
    file_refused: list[int],
    refused_rows: list[int],
    review_kind: dict[int, str],
    changed_rows: list[int],
) -> pl.DataFrame:
    """Each row of the file: ``row, key, parcel_id, outcome, property_id, review_kind``."""
    outcome = (
        pl.when(pl.col("row").is_in(refused_rows))
        .then(pl.lit(Outcome.REFUSED.value))
        .when(pl.col("row").is_in(sorted(review_kind)))
        .then(pl.lit(Outcome.REVIEW.value))
        .when(pl.col("pid").is_null())
        .then(pl.lit(Outcome.NEW.value))
        .when(pl.col("row").is_in(changed_rows))
        .then(pl.lit(Outcome.CHANGED.value))
        .otherwise(pl.lit(Outcome.UNCHANGED.value))
    )
    outcomes = matched.select(
        "row",
        "key",
        "parcel_id",
        outcome.alias("outcome"),
        pl.col("pid").alias("property_id"),
        pl.col("row")
        .replace_strict(review_kind, default=None, return_dtype=pl.String)
        .alias("review_kind"),
    )
    if not file_refused:
        return outcomes
    # the rows the file refused itself are not matched: they are listed too
    refused = pl.DataFrame({"row": file_refused}, schema={"row": pl.Int64}).with_columns(
        pl.lit(Outcome.REFUSED.value).alias("outcome")
    )
    return pl.concat([outcomes, refused], how="diagonal").sort("row")


# --- the service areas and the differences ------------------------------------------------------


def boundaries() -> list[tuple[str, str]]:
    """The districts' boundaries on record: ``(code, GeoJSON)``."""
    return list(
        ServiceArea.objects.exclude(boundary="").order_by("code").values_list("code", "boundary")
    )


def _areas(frame: pl.DataFrame, drawn: list[tuple[str, str]]) -> pl.Series:
    """Each row's service area id by its outline (null: in none, or no boundaries)."""
    if not drawn or frame.height == 0:
        return pl.Series("area", [None] * frame.height, dtype=pl.Int64)
    ids = dict(ServiceArea.objects.values_list("code", "id"))
    codes = district_of(frame, drawn)
    return codes.replace_strict(ids, default=None, return_dtype=pl.Int64).alias("area")


def _rounded(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(
        pl.col("acreage").round(ACRE_PLACES),
        pl.col("lon").round(DEGREE_PLACES),
        pl.col("lat").round(DEGREE_PLACES),
    )


def _differences(rows: pl.DataFrame, reg: pl.DataFrame) -> pl.DataFrame:
    """For the matched rows: ``pid``, the register's values as ``old_*`` and, per property
    field, whether it differs (``d_*``, with ``d_owner`` and ``d_service_area``)."""
    old = _rounded(reg.select("id", *PROPERTY_FIELDS, "owner_id", "service_area_id"))
    old = old.rename({c: f"old_{c}" for c in old.columns if c != "id"}).rename({"id": "pid"})
    new = _rounded(rows.filter(pl.col("pid").is_not_null()))
    joined = new.join(old, on="pid", how="left", maintain_order="left")
    flags = [pl.col(c).ne_missing(pl.col(f"old_{c}")).alias(f"d_{c}") for c in PROPERTY_FIELDS]
    flags.append(pl.col("owner_id").ne_missing(pl.col("old_owner_id")).alias("d_owner"))
    flags.append(
        (
            pl.col("area").is_not_null() & pl.col("area").ne_missing(pl.col("old_service_area_id"))
        ).alias("d_service_area")
    )
    return joined.with_columns(flags)


def _plain_value(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 120:  # an outline: its digest, not its text
        return "sha256:" + hashlib.sha256(value.encode()).hexdigest()[:16]
    return value


def _changes(changed: pl.DataFrame, movers: pl.DataFrame) -> list[ParcelChange]:
    """Each changed row: its property and, per field, ``[before, after]``."""
    moved = {
        rec["id"]: {c: [rec[f"old_{c}"], rec[c]] for c in MAIL_FIELDS if rec[c] != rec[f"old_{c}"]}
        for rec in movers.iter_rows(named=True)
    }
    out: list[ParcelChange] = []
    for rec in changed.sort("row").iter_rows(named=True):
        fields: dict[str, list[Any]] = {}
        for c in PROPERTY_FIELDS:
            if rec[f"d_{c}"]:
                fields[c] = [_plain_value(rec[f"old_{c}"]), _plain_value(rec[c])]
        if rec["d_owner"]:
            fields["owner"] = [rec["old_owner_id"], rec["owner_id"] or rec["owner"]]
        if rec["d_service_area"]:
            fields["service_area"] = [rec["old_service_area_id"], rec["area"]]
        if rec["how"] == "moved" and rec["owner_id"] in moved:
            for c, pair in moved[rec["owner_id"]].items():
                fields[f"owner_{c}"] = pair
        if fields:
            out.append(
                {"row": rec["row"], "key": rec["key"], "property": rec["pid"], "fields": fields}
            )
    return out
