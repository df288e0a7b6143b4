"""Importing the county's tax parcel roll: every row classified first, then applied at once.

:func:`preview` reads nothing but the database: it says of every row of a read roll
(:class:`sewer_io.parcels.ParcelFile`) whether it is **new** (no property has its SWIS and
SBL), **changed** (which fields), **unchanged**, **refused** (the file's own refusals, and
those only the office can see: the same SBL or tax parcel id twice, a tax parcel id another
property holds, a text longer than the register keeps) or held for **review** (a new SBL on
the ground of a parcel that left the roll). :func:`apply` stores the preview in one
transaction, with one audit event for the whole file — or nothing, when a row was refused,
when the same bytes were applied before, or when the register changed since the preview.

Matching. A row is the property with its SWIS code and SBL; a property entered by hand (no
SBL) is found by its tax parcel id, which the roll's parcel id or print key may equal (case,
spaces, dashes and dots aside); it takes the roll's keys then. Properties the clerk retired
(:class:`.models.Retirement`) are not looked for.

Owners. See :mod:`.owners`: one person per owner identity, found again every year. A row
whose owner is another person than the property's is an **owner change**: a dated event
(:class:`.models.OwnerChange`, effective on the roll's date); the property's owner becomes the
roll's. A row whose owner has the property owner's name but another mailing address is the
same person, who moved: the person's mailing address becomes the roll's.

Service areas. When districts' boundaries were imported (:mod:`.districts`), a parcel's area is
the district its outline lies in (:func:`sewer_io.parcels.district_of`); a parcel in none keeps
the area it has. Without boundaries, areas are left as they are.

Parcels that left the roll. A property whose SBL (of a SWIS code the file covers) is no longer
on the roll is kept as it is. The new SBLs on its ground (:func:`sewer_io.parcels.shared_ground`
over the outlines) are not created: one :class:`.models.ParcelReview` (split, merge, redrawn)
holds them for the clerk, who confirms or rejects it (:mod:`.reviews`). A gone parcel with no
new parcel on its ground gets a review of its own (gone). A pending review of the same parcels
is not made twice.

An unchanged roll (the same parcels, read from other bytes) changes nothing: no property, no
person, no owner change, no review; its import is recorded (:class:`.models.RollImport` and its
one audit event), which says that the roll of that date was read and found the same.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import polars as pl
from django.db import transaction
from django.utils import timezone

from sewer_io.parcels import PARCEL_COLUMNS, DistrictFile, ParcelFile, district_of, shared_ground
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit, bulk
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.registry.models import Person, Property, ServiceArea

from . import owners, store
from .choices import ImportKind, Outcome, ReviewKind, ReviewState
from .models import OwnerChange, ParcelReview, Retirement, RollImport

#: Who imports the roll and the districts, and decides the reviews (the office's clerk keeps
#: the register; the engineer and the Superintendent may do what the clerk does here).
IMPORTERS = (CLERK, ENGINEER, SUPERINTENDENT)

#: The owner's columns of the roll, kept on the person.
MAIL_FIELDS = ("mail_street", "mail_city", "mail_state", "mail_zip")
#: The roll's columns the office keeps on a property, compared to find what changed: all but
#: the row, the print key (only matched against a hand-entered parcel id) and the owner's
#: (kept on the person).
PROPERTY_FIELDS = tuple(
    c for c in PARCEL_COLUMNS if c not in ("row", "print_key", "owner", *MAIL_FIELDS)
)
TEXT_FIELDS = PROPERTY_FIELDS[:8]
#: The roll's columns the register keeps as numbers; every other one is text, trimmed.
NUMBER_COLUMNS = ("row", "acreage", "lon", "lat")
#: The least share of a gone parcel's area a new parcel must cover to be on its ground.
LEAST_SHARE = 0.05
#: Decimal places of the acreage (``Property.acreage``) and of a point's degrees compared.
ACRE_PLACES = 3
DEGREE_PLACES = 7
#: Values per ``IN (...)`` list: SQLite bounds the parameters of one statement.
IN_CHUNK = 500


class Stale(Blocked):
    """The register changed between the preview and its application: preview again."""


@dataclass(frozen=True)
class PlannedReview:
    """A review the import will open: the gone and continuing properties and the held rows."""

    kind: str
    gone: list[dict[str, Any]]
    continuing: list[dict[str, Any]]
    held_rows: list[int]
    shares: list[list[Any]]
    existing: int | None = None  # a pending review of the same parcels, not made twice


class ImportPreview:
    """What the previews of a roll and of a districts file share: the file read, the import of
    the same bytes already applied (if any), and the rows refused."""

    file: ParcelFile | DistrictFile
    previous: RollImport | None
    refusals: list[tuple[int, str, str]]

    @property
    def ok(self) -> bool:
        return not self.refusals and self.previous is None

    @property
    def source(self) -> str:
        return self.file.source

    def report_lines(self) -> list[str]:
        """Each refusal as "FILE, row N, field F: message"."""
        return [f"{self.source}, row {r}, field {f}: {m}" for r, f, m in self.refusals]

    def already_imported_message(self) -> str:
        prev = self.previous
        if prev is None:
            return ""
        return (
            f"{self.source}: this file was already imported on "
            f"{timezone.localtime(prev.imported_at):%Y-%m-%d %H:%M} (import #{prev.pk}, "
            f"{prev.source_name}); nothing was changed again"
        )

    def check_applicable(self) -> None:
        """:class:`Blocked` unless the file may be applied: not applied before, no row refused."""
        if self.previous is not None:
            raise Blocked(self.already_imported_message())
        if self.refusals:
            n = len(self.refusals)
            raise Blocked(
                f"{self.source}: {n} row error{'s' if n != 1 else ''}; nothing was applied"
            )


@dataclass
class RollPreview(ImportPreview):
    """What applying a read roll would do (see the module)."""

    file: ParcelFile
    taken_at: datetime
    previous: RollImport | None
    refusals: list[tuple[int, str, str]]
    #: one row per row of the file: ``row, key, parcel_id, outcome, property_id, fields``
    outcomes: pl.DataFrame
    #: rows to create: the roll's columns, ``owner_id`` (existing) or ``owner_ident`` (new),
    #: ``service_area_id``
    new: pl.DataFrame
    #: ``id`` and the property columns to set on the changed properties
    changed: pl.DataFrame
    changes: list[dict[str, Any]]
    persons_new: pl.DataFrame
    person_updates: pl.DataFrame
    owner_changes: pl.DataFrame
    reviews: list[PlannedReview]
    held: pl.DataFrame
    areas_assigned: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The import's report as the command line's JSON writes it."""
        rows: list[dict[str, Any]] = [
            {
                "row": r,
                "sbl": key.split("/", 1)[-1] if key else "",
                "swis": key.split("/", 1)[0] if key else "",
                "parcel_id": pid,
                "outcome": Outcome.REFUSED.value,
                "field": f,
                "message": m,
            }
            for r, f, m, key, pid in self._refused_rows()
        ]
        by_row = {c["row"]: c for c in self.changes}
        for rec in self.outcomes.filter(
            pl.col("outcome").is_in([Outcome.NEW, Outcome.CHANGED, Outcome.REVIEW])
        ).iter_rows(named=True):
            key = rec["key"] or ""
            item: dict[str, Any] = {
                "row": rec["row"],
                "swis": key.split("/", 1)[0],
                "sbl": key.split("/", 1)[-1],
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
        out: dict[str, Any] = {
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
                    "new": [self._key_of_row(i) for i in r.held_rows],
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

    def _refused_rows(self) -> list[tuple[int, str, str, str, str]]:
        keys = {
            r: (k or "", p or "")
            for r, k, p in self.outcomes.select("row", "key", "parcel_id").iter_rows()
        }
        return [(r, f, m, *keys.get(r, ("", ""))) for r, f, m in self.refusals]

    def _key_of_row(self, row: int) -> str:
        found = self.outcomes.filter(pl.col("row") == row).get_column("key")
        return str(found[0]) if found.len() else ""


# --- reading the register -----------------------------------------------------------------------


def _norm_id(col: pl.Expr) -> pl.Expr:
    """A tax parcel id compared without case, spaces, dashes, dots or slashes."""
    return col.fill_null("").str.to_uppercase().str.replace_all(r"[\s\-./]", "")


def _retired_ids() -> set[int]:
    return set(Retirement.objects.values_list("property_id", flat=True))


def register_frame() -> pl.DataFrame:
    """Every property the roll may name (retired ones left out), with its owner's identity."""
    columns = ("id", *PROPERTY_FIELDS, "owner_id", "service_area_id")
    schema: dict[str, Any] = dict.fromkeys(columns, pl.String)
    schema.update(
        id=pl.Int64,
        acreage=pl.Float64,
        lon=pl.Float64,
        lat=pl.Float64,
        owner_id=pl.Int64,
        service_area_id=pl.Int64,
    )
    rows = [
        (*r[:9], float(r[9]) if r[9] is not None else None, *r[10:])
        for r in Property.objects.order_by("id").values_list(*columns)
    ]
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    retired = _retired_ids()
    if retired:
        frame = frame.filter(~pl.col("id").is_in(sorted(retired)))
    return frame.with_columns(
        pl.when(pl.col("sbl") != "")
        .then(pl.concat_str(["swis", "sbl"], separator="/"))
        .otherwise(None)
        .alias("key"),
        _norm_id(pl.col("parcel_id")).alias("pid_norm"),
    )


def persons_frame() -> pl.DataFrame:
    """Every person (those merged into another stand for the survivor), with the identity."""
    schema = {
        "pid": pl.Int64,
        "name": pl.String,
        "mail_street": pl.String,
        "mail_city": pl.String,
        "mail_state": pl.String,
        "mail_zip": pl.String,
        "merged_into": pl.Int64,
    }
    frame = pl.DataFrame(
        list(
            Person.objects.order_by("id").values_list("id", "name", *MAIL_FIELDS, "merged_into_id")
        ),
        schema=schema,
        orient="row",
    )
    # a merged person is found as the one it was merged into (chains followed)
    survivor = dict(
        frame.filter(pl.col("merged_into").is_not_null()).select("pid", "merged_into").iter_rows()
    )

    def end(pid: int) -> int:
        seen = {pid}
        while pid in survivor and survivor[pid] not in seen:
            pid = survivor[pid]
            seen.add(pid)
        return pid

    return frame.with_columns(
        pl.col("pid").map_elements(end, return_dtype=pl.Int64).alias("survivor")
        if survivor
        else pl.col("pid").alias("survivor"),
        owners.identity(
            pl.col("name"), pl.col("mail_street"), pl.col("mail_city"), pl.col("mail_zip")
        ).alias("ident"),
        owners.name_key(pl.col("name")).alias("name_key"),
        (
            pl.concat_str([pl.col(c).fill_null("") for c in MAIL_FIELDS]).str.strip_chars() == ""
        ).alias("no_mail"),
    )


# --- the file's rows ----------------------------------------------------------------------------


def _prepared(parcels: pl.DataFrame) -> pl.DataFrame:
    text = [c for c in PARCEL_COLUMNS if c not in NUMBER_COLUMNS and c in parcels.columns]
    frame = parcels.with_columns(
        *[pl.col(c).cast(pl.String).fill_null("").str.strip_chars() for c in text],
        pl.col("row").cast(pl.Int64),
        pl.col("acreage").cast(pl.Float64, strict=False).round(ACRE_PLACES),
        # a point inside the parcel, kept to about a centimetre as the outline is
        pl.col("lon").cast(pl.Float64, strict=False).round(DEGREE_PLACES),
        pl.col("lat").cast(pl.Float64, strict=False).round(DEGREE_PLACES),
    )
    return frame.with_columns(
        pl.concat_str(["swis", "sbl"], separator="/").alias("key"),
        owners.identity(
            pl.col("owner"), pl.col("mail_street"), pl.col("mail_city"), pl.col("mail_zip")
        ).alias("ident"),
        owners.name_key(pl.col("owner")).alias("name_key"),
    )


def _limit(model: Any, name: str) -> int:
    return int(model._meta.get_field(name).max_length or 0)


#: Roll column → (model, field) whose length bounds it.
STORED_TEXT: dict[str, tuple[Any, str]] = {
    **{c: (Property, c) for c in TEXT_FIELDS},
    "owner": (Person, "name"),
    "mail_city": (Person, "mail_city"),
    "mail_state": (Person, "mail_state"),
    "mail_zip": (Person, "mail_zip"),
}


def _row_checks(frame: pl.DataFrame) -> list[tuple[int, str, str]]:
    """What only the register can refuse: lengths, blanks it cannot keep, the same key twice."""
    errors: list[tuple[int, str, str]] = []
    for column, (model, name) in STORED_TEXT.items():
        if column not in frame.columns:
            continue
        limit = _limit(model, name)
        n = pl.col(column).str.len_chars()
        for r, length in frame.filter(n > limit).select("row", n.alias("n")).iter_rows():
            errors.append((r, column, f"{length:,} characters, longer than the {limit} kept"))
    for column, what in (
        ("sbl", "an SBL"),
        ("owner", "the owner's name"),
        ("parcel_id", "a tax parcel id"),
    ):
        for (r,) in frame.filter(pl.col(column) == "").select("row").iter_rows():
            errors.append((r, column, f"missing ({what} is needed)"))
    big = 10 ** (9 - ACRE_PLACES)
    for r, a in (
        frame.filter((pl.col("acreage") < 0) | (pl.col("acreage") >= big))
        .select("row", "acreage")
        .iter_rows()
    ):
        errors.append((r, "acreage", f"{a} acres: not between 0 and {big:,}"))
    for column, key, label in (
        ("sbl", "key", "the same SWIS code and SBL"),
        ("parcel_id", "parcel_id", "the same tax parcel id"),
    ):
        keyed = frame.filter(pl.col(column) != "").with_columns(
            pl.col("row").first().over(key).alias("r0")
        )
        for r, r0 in keyed.filter(pl.col("row") != pl.col("r0")).select("row", "r0").iter_rows():
            errors.append((r, column, f"{label} as row {r0}"))
    return errors


# --- the preview --------------------------------------------------------------------------------


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


def _match(
    frame: pl.DataFrame, reg: pl.DataFrame
) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """Each row's property id (``pid``, null: new) by SWIS+SBL, else a hand-entered one by its
    tax parcel id; refusals for a tax parcel id another property holds."""
    keyed = reg.filter(pl.col("key").is_not_null()).select("key", pl.col("id").alias("pid"))
    out = frame.join(keyed, on="key", how="left", maintain_order="left")
    hand = reg.filter(pl.col("key").is_null()).select("pid_norm", pl.col("id").alias("hid"))
    if hand.height:
        for column in ("parcel_id", "print_key"):
            if column not in out.columns:
                continue
            out = (
                out.with_columns(_norm_id(pl.col(column)).alias("pid_norm"))
                .join(hand, on="pid_norm", how="left", maintain_order="left")
                .with_columns(pl.coalesce("pid", "hid").alias("pid"))
                .drop("hid", "pid_norm")
            )
        # one hand-entered property is one row: the first that found it
        out = out.with_columns(
            pl.when(pl.col("row") == pl.col("row").first().over("pid"))
            .then(pl.col("pid"))
            .otherwise(None)
            .alias("pid")
        )
    errors: list[tuple[int, str, str]] = []
    holders = reg.select(
        pl.col("parcel_id"), pl.col("id").alias("holder"), pl.col("key").alias("holder_key")
    )
    clash = out.join(holders, on="parcel_id", how="inner").filter(
        pl.col("pid").is_null() | (pl.col("pid") != pl.col("holder"))
    )
    for r, pid, holder, hkey in clash.select(
        "row", "parcel_id", "holder", "holder_key"
    ).iter_rows():
        where = f"SBL {hkey.split('/', 1)[-1]}" if hkey else "entered by hand"
        errors.append(
            (r, "parcel_id", f"'{pid}' is the tax parcel id of property #{holder} ({where})")
        )
    retired = _retired_ids()
    if retired:
        gone = Property.objects.filter(pk__in=sorted(retired)).values_list("parcel_id", "id")
        retired_ids = dict(gone)
        for r, pid in out.filter(pl.col("pid").is_null()).select("row", "parcel_id").iter_rows():
            if pid in retired_ids:
                errors.append(
                    (
                        r,
                        "parcel_id",
                        f"'{pid}' is the tax parcel id of retired property #{retired_ids[pid]}",
                    )
                )
    return out, errors


def _owners(
    rows: pl.DataFrame, reg: pl.DataFrame, persons: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Each row's owner: ``owner_id`` (a person on record) or ``owner_ident`` (a new person);
    the new persons; the mailing addresses to update (``id`` and :data:`MAIL_FIELDS`)."""
    by_ident = persons.group_by("ident").agg(pl.col("survivor").min().alias("by_ident"))
    current = reg.select(pl.col("id").alias("pid"), pl.col("owner_id").alias("cur")).join(
        persons.select(
            pl.col("pid").alias("cur"),
            pl.col("survivor").alias("cur_survivor"),
            pl.col("ident").alias("cur_ident"),
            pl.col("name_key").alias("cur_name"),
        ),
        on="cur",
        how="left",
    )
    out = rows.join(current, on="pid", how="left", maintain_order="left").join(
        by_ident, on="ident", how="left", maintain_order="left"
    )
    # the property's owner, or the one it was merged into, has the roll owner's identity
    same = pl.col("cur").is_not_null() & (
        (pl.col("cur_ident") == pl.col("ident"))
        | pl.col("by_ident").eq_missing(pl.col("cur_survivor"))
    )
    moved = (
        pl.col("cur").is_not_null()
        & pl.col("by_ident").is_null()
        & (pl.col("cur_name") == pl.col("name_key"))
        & (pl.col("name_key") != "")
    )
    out = out.with_columns(
        pl.when(same)
        .then(pl.lit("same"))
        .when(pl.col("by_ident").is_not_null())
        .then(pl.lit("known"))
        .when(moved)
        .then(pl.lit("moved"))
        .otherwise(pl.lit("new"))
        .alias("how")
    )
    # the same owner who moved: the person's new address is the one most of its rows give;
    # a row giving yet another address is another person
    movers = out.filter(pl.col("how") == "moved")
    chosen = (
        movers.group_by("cur_survivor", "ident")
        .agg(pl.len().alias("n"), pl.col("row").min().alias("first"))
        .sort(["cur_survivor", "n", "first"], descending=[False, True, False])
        .group_by("cur_survivor", maintain_order=True)
        .first()
        .select("cur_survivor", pl.col("ident").alias("chosen"))
    )
    out = out.join(chosen, on="cur_survivor", how="left", maintain_order="left").with_columns(
        pl.when((pl.col("how") == "moved") & (pl.col("ident") != pl.col("chosen")))
        .then(pl.lit("new"))
        .otherwise(pl.col("how"))
        .alias("how")
    )
    out = out.with_columns(
        pl.when(pl.col("how") == "same")
        .then(pl.col("cur"))
        .when(pl.col("how") == "known")
        .then(pl.col("by_ident"))
        .when(pl.col("how") == "moved")
        .then(pl.col("cur"))
        .otherwise(None)
        .alias("owner_id"),
        pl.when(pl.col("how") == "new").then(pl.col("ident")).otherwise(None).alias("owner_ident"),
    )
    updates = (
        out.filter(pl.col("how") == "moved")
        .group_by("cur_survivor", maintain_order=True)
        .first()
        .select(pl.col("cur_survivor").alias("id"), *MAIL_FIELDS)
    )
    persons_new = (
        out.filter(pl.col("how") == "new")
        .sort("row")
        .group_by("ident", maintain_order=True)
        .first()
        .select("ident", pl.col("owner").alias("name"), *MAIL_FIELDS)
    )
    return out, persons_new, updates


def _rounded(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(
        pl.col("acreage").round(ACRE_PLACES),
        pl.col("lon").round(DEGREE_PLACES),
        pl.col("lat").round(DEGREE_PLACES),
    )


def _differences(rows: pl.DataFrame, reg: pl.DataFrame) -> pl.DataFrame:
    """For the matched rows: ``pid`` and, per property field, whether it differs."""
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


def _reviews(
    rows: pl.DataFrame, reg: pl.DataFrame, diffs: pl.DataFrame, swis: list[str]
) -> list[PlannedReview]:
    """The parcels that left the roll and the new ones on their ground (see the module)."""
    seen = set(rows.filter(pl.col("pid").is_not_null()).get_column("pid").to_list())
    gone = reg.filter(
        pl.col("key").is_not_null() & pl.col("swis").is_in(swis) & ~pl.col("id").is_in(sorted(seen))
    )
    if gone.height == 0:
        return []
    fresh = rows.filter(pl.col("pid").is_null() & (pl.col("geometry") != ""))
    redrawn = diffs.filter(pl.col("d_geometry") & (pl.col("geometry") != ""))
    before: dict[str, str] = {}
    after: dict[str, str] = {}
    info: dict[str, dict[str, Any]] = {}
    for pid, key, geom, parcel, address in gone.select(
        "id", "key", "geometry", "parcel_id", "address"
    ).iter_rows():
        info[key] = {"property": pid, "key": key, "parcel_id": parcel, "address": address}
        if geom:
            before[key] = geom
    for pid, key, old_geom, geom, parcel, address in redrawn.select(
        "pid", "key", "old_geometry", "geometry", "parcel_id", "address"
    ).iter_rows():
        info[key] = {"property": pid, "key": key, "parcel_id": parcel, "address": address}
        if old_geom:
            before[key] = old_geom
        after[key] = geom
    row_of: dict[str, int] = {}
    for r, key, geom in fresh.select("row", "key", "geometry").iter_rows():
        after[key] = geom
        row_of[key] = r
    pairs = shared_ground(before, after, least=LEAST_SHARE) if before and after else []
    # parcels linked by shared ground, and a continuing parcel to itself, are one group
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        parent[find(a)] = find(b)

    continuing = set(redrawn.get_column("key").to_list())
    for key in continuing:
        union("b:" + key, "a:" + key)
    for b, a, _share in pairs:
        union("b:" + b, "a:" + a)
    groups: dict[str, set[str]] = defaultdict(set)
    for node in list(parent):
        groups[find(node)].add(node)
    shares_by_group: dict[str, list[list[Any]]] = defaultdict(list)
    for b, a, share in pairs:
        if b != a:
            shares_by_group[find("b:" + b)].append([b, a, round(float(share), 4)])
    gone_keys = set(gone.get_column("key").to_list())
    planned: list[PlannedReview] = []
    grouped: set[str] = set()
    for root, nodes in groups.items():
        keys_before = {n[2:] for n in nodes if n.startswith("b:")}
        keys_after = {n[2:] for n in nodes if n.startswith("a:")}
        g = sorted(keys_before & gone_keys)
        new = sorted(k for k in keys_after if k in row_of)
        if not g and not new:
            continue  # a parcel redrawn alone: its outline changes with the roll
        if not shares_by_group[root]:
            continue  # no ground shared: a gone parcel alone is reviewed below
        cont = sorted(keys_before & continuing)
        n_before, n_after = len(g) + len(cont), len(new) + len(cont)
        kind = (
            ReviewKind.SPLIT
            if n_before == 1 and n_after > 1
            else ReviewKind.MERGE
            if n_before > 1 and n_after == 1
            else ReviewKind.REDRAW
        )
        grouped.update(g)
        planned.append(
            PlannedReview(
                kind=kind,
                gone=[info[k] for k in g],
                continuing=[info[k] for k in cont],
                held_rows=[row_of[k] for k in new],
                shares=sorted(shares_by_group[root]),
            )
        )
    for key in sorted(gone_keys - grouped):
        planned.append(PlannedReview(ReviewKind.GONE, [info[key]], [], [], []))
    return _known(planned, rows)


def _known(planned: list[PlannedReview], rows: pl.DataFrame) -> list[PlannedReview]:
    """Each planned review, or the pending review already open on the same parcels."""
    keys = dict(rows.select("row", "key").iter_rows())
    pending = {
        (frozenset(r.gone_keys()), frozenset(r.new_keys())): r.pk
        for r in ParcelReview.objects.filter(state=ReviewState.PENDING)
    }
    out = []
    for p in planned:
        signature = (
            frozenset(g["key"] for g in p.gone),
            frozenset(keys[r] for r in p.held_rows),
        )
        existing = pending.get(signature)
        out.append(
            p
            if existing is None
            else PlannedReview(p.kind, p.gone, p.continuing, p.held_rows, p.shares, existing)
        )
    return out


def preview(pf: ParcelFile) -> RollPreview:
    """Classify every row of ``pf`` against the register (see the module); writes nothing."""
    taken_at = timezone.now()
    previous = RollImport.objects.filter(kind=ImportKind.ROLL, sha256=pf.sha256).first()
    refusals = [(int(r.row), r.field, r.message) for r in pf.refused]
    frame = _prepared(pf.parcels)
    file_refused = {r for r, _, _ in refusals}
    if file_refused:
        frame = frame.filter(~pl.col("row").is_in(sorted(file_refused)))
    refusals += _row_checks(frame)
    reg = register_frame()
    matched, clashes = _match(frame, reg)
    refusals += clashes
    refusals = sorted(set(refusals))
    refused_rows = sorted({r for r, _, _ in refusals})
    rows = matched.filter(~pl.col("row").is_in(refused_rows))
    drawn = boundaries()
    rows = rows.with_columns(_areas(rows, drawn))
    rows, persons_new, mail_updates = _owners(rows, reg, persons_frame())
    diffs = _differences(rows, reg)
    field_flags = [f"d_{c}" for c in PROPERTY_FIELDS]
    any_change = pl.any_horizontal(*field_flags, "d_owner", "d_service_area")
    mail_changed = _mail_changed(mail_updates)
    changed = diffs.filter(any_change | pl.col("row").is_in(_rows_of(rows, mail_changed)))
    swis = sorted(set(frame.get_column("swis").to_list()) - {""})
    reviews = _reviews(rows, reg, diffs, swis)
    held_rows = sorted({r for p in reviews for r in p.held_rows})
    review_kind = {r: p.kind for p in reviews for r in p.held_rows}
    changes = _changes(changed, mail_changed, rows)
    changed_rows = {c["row"] for c in changes}
    new = rows.filter(pl.col("pid").is_null() & ~pl.col("row").is_in(held_rows))
    # a new person only for the rows that will be created or change owner now
    wanted_idents = set(
        rows.filter(
            (pl.col("pid").is_null() & ~pl.col("row").is_in(held_rows))
            | (pl.col("pid").is_not_null() & (pl.col("how") == "new"))
        )
        .get_column("ident")
        .to_list()
    )
    persons_new = persons_new.filter(pl.col("ident").is_in(sorted(wanted_idents)))
    owner_changes = diffs.filter(pl.col("d_owner")).select(
        pl.col("pid").alias("property_id"),
        pl.col("old_owner_id").alias("previous_owner_id"),
        "owner_id",
        "owner_ident",
        "row",
    )
    outcome = (
        pl.when(pl.col("row").is_in(refused_rows))
        .then(pl.lit(Outcome.REFUSED.value))
        .when(pl.col("row").is_in(held_rows))
        .then(pl.lit(Outcome.REVIEW.value))
        .when(pl.col("pid").is_null())
        .then(pl.lit(Outcome.NEW.value))
        .when(pl.col("row").is_in(sorted(changed_rows)))
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
    # rows the file refused itself are not in ``matched``: list them too
    if file_refused:
        outcomes = pl.concat(
            [
                outcomes,
                pl.DataFrame(
                    {
                        "row": sorted(file_refused),
                        "key": [None] * len(file_refused),
                        "parcel_id": [None] * len(file_refused),
                        "outcome": [Outcome.REFUSED.value] * len(file_refused),
                        "property_id": [None] * len(file_refused),
                        "review_kind": [None] * len(file_refused),
                    },
                    schema=outcomes.schema,
                ),
            ]
        ).sort("row")
    counts = dict(outcomes.get_column("outcome").value_counts().iter_rows())
    result = RollPreview(
        file=pf,
        taken_at=taken_at,
        previous=previous,
        refusals=refusals,
        outcomes=outcomes,
        new=new,
        changed=changed.filter(pl.col("row").is_in(sorted(changed_rows))),
        changes=changes,
        persons_new=persons_new,
        person_updates=mail_changed,
        owner_changes=owner_changes,
        reviews=reviews,
        held=rows.filter(pl.col("row").is_in(held_rows)),
        areas_assigned=diffs.filter(pl.col("d_service_area")).height
        + new.filter(pl.col("area").is_not_null()).height,
        counts={k: int(counts.get(k, 0)) for k in Outcome.values},
    )
    return result


def _mail_changed(updates: pl.DataFrame) -> pl.DataFrame:
    """The movers whose recorded mailing address differs from the roll's."""
    if updates.height == 0:
        return updates
    ids = updates.get_column("id").to_list()
    old = pl.DataFrame(
        list(Person.objects.filter(pk__in=ids).values_list("id", *MAIL_FIELDS)),
        schema={"id": pl.Int64, **dict.fromkeys(MAIL_FIELDS, pl.String)},
        orient="row",
    ).rename({c: f"old_{c}" for c in MAIL_FIELDS})
    joined = updates.join(old, on="id", how="left")
    differs = pl.any_horizontal(*[pl.col(c).ne_missing(pl.col(f"old_{c}")) for c in MAIL_FIELDS])
    return joined.filter(differs)


def _rows_of(rows: pl.DataFrame, mail_changed: pl.DataFrame) -> list[int]:
    """The rows whose owner is a person whose mailing address changes."""
    if mail_changed.height == 0:
        return []
    ids = mail_changed.get_column("id").to_list()
    return (
        rows.filter((pl.col("how") == "moved") & pl.col("owner_id").is_in(ids))
        .get_column("row")
        .to_list()
    )


def _changes(
    changed: pl.DataFrame, mail_changed: pl.DataFrame, rows: pl.DataFrame
) -> list[dict[str, Any]]:
    """Each changed row: its property and, per field, ``[before, after]``."""
    movers = {
        rec["id"]: {c: [rec[f"old_{c}"], rec[c]] for c in MAIL_FIELDS if rec[c] != rec[f"old_{c}"]}
        for rec in mail_changed.iter_rows(named=True)
    }
    out: list[dict[str, Any]] = []
    for rec in changed.sort("row").iter_rows(named=True):
        fields: dict[str, list[Any]] = {}
        for c in PROPERTY_FIELDS:
            if rec[f"d_{c}"]:
                fields[c] = [_plain_value(rec[f"old_{c}"]), _plain_value(rec[c])]
        if rec["d_owner"]:
            fields["owner"] = [rec["old_owner_id"], rec["owner_id"] or rec["owner"]]
        if rec["d_service_area"]:
            fields["service_area"] = [rec["old_service_area_id"], rec["area"]]
        if rec["how"] == "moved" and rec["owner_id"] in movers:
            for c, pair in movers[rec["owner_id"]].items():
                fields[f"owner_{c}"] = pair
        if fields:
            out.append(
                {"row": rec["row"], "key": rec["key"], "property": rec["pid"], "fields": fields}
            )
    return out


# --- the application ----------------------------------------------------------------------------


def check_importer(actor: Any) -> None:
    """``actor`` None is the command line at the server, which acts for the office."""
    if actor is not None and not has_role(actor, *IMPORTERS):
        raise Forbidden("Importing the roll is for the clerk, the engineer and the Superintendent.")


def _stale(preview_at: datetime) -> str:
    if RollImport.objects.filter(imported_at__gt=preview_at).exists():
        return "another import was applied since the preview"
    if Property.objects.filter(updated_at__gt=preview_at).exists():
        return "a property was changed since the preview"
    if Person.objects.filter(updated_at__gt=preview_at).exists():
        return "a person was changed since the preview"
    if ServiceArea.objects.filter(updated_at__gt=preview_at).exists():
        return "a service area was changed since the preview"
    return ""


def _lock() -> None:
    """Hold the register's tables to the end of the transaction (one import at a time)."""
    bulk.reserve_ids(Property, 0)
    bulk.reserve_ids(Person, 0)


def apply(preview_: RollPreview, actor: Any, roll_date: date) -> RollImport:
    """Store ``preview_`` (see the module) in one transaction, with one audit event.

    Refused (:class:`Blocked`, nothing stored) when a row was refused, when the same bytes
    were applied before, or (:class:`Stale`) when the register changed since the preview.
    """
    check_importer(actor)
    p = preview_
    p.check_applicable()
    now = timezone.now()
    with transaction.atomic():
        _lock()
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
            imported_by=actor if getattr(actor, "is_authenticated", False) else None,
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
        _update_persons(p.person_updates, now)
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


def _person_rows(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(
        pl.col("name").map_elements(owners.person_kind, return_dtype=pl.String).alias("kind")
    )


def _create_persons(persons_new: pl.DataFrame, now: datetime) -> dict[str, int]:
    """The new persons, created; identity → id."""
    if persons_new.height == 0:
        return {}
    first = bulk.reserve_ids(Person, persons_new.height)
    frame = (
        _person_rows(persons_new)
        .with_row_index("id", offset=first)
        .with_columns(pl.col("id").cast(pl.Int64))
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


def _update_persons(updates: pl.DataFrame, now: datetime) -> None:
    if updates.height:
        store.update(Person, updates.select("id", *MAIL_FIELDS, pl.lit(now).alias("updated_at")))


def _owner_ids(frame: pl.DataFrame, idents: dict[str, int]) -> pl.Expr:
    del frame
    return pl.coalesce(
        pl.col("owner_id"),
        pl.col("owner_ident").replace_strict(idents, default=None, return_dtype=pl.Int64),
    ).alias("owner_id")


def _property_columns(frame: pl.DataFrame) -> list[pl.Expr]:
    return [
        *[pl.col(c) for c in TEXT_FIELDS],
        pl.col("acreage").round(ACRE_PLACES),
        pl.col("geometry"),
        pl.col("lon"),
        pl.col("lat"),
    ]


def _create_properties(new: pl.DataFrame, idents: dict[str, int], now: datetime) -> None:
    if new.height == 0:
        return
    first = bulk.reserve_ids(Property, new.height)
    frame = (
        new.sort("row")
        .with_row_index("id", offset=first)
        .with_columns(pl.col("id").cast(pl.Int64), _owner_ids(new, idents))
    )
    bulk.insert(
        Property,
        frame.select(
            "id",
            *_property_columns(frame),
            "owner_id",
            pl.col("area").alias("service_area_id"),
            pl.lit(now).alias("created_at"),
            pl.lit(now).alias("updated_at"),
        ),
    )


def _update_properties(changed: pl.DataFrame, idents: dict[str, int], now: datetime) -> None:
    if changed.height == 0:
        return
    frame = changed.with_columns(_owner_ids(changed, idents))
    store.update(
        Property,
        frame.select(
            pl.col("pid").alias("id"),
            *_property_columns(frame),
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
    first = bulk.reserve_ids(OwnerChange, changes.height)
    frame = (
        changes.sort("row")
        .with_row_index("id", offset=first)
        .with_columns(
            pl.col("id").cast(pl.Int64), _owner_ids(changes, idents).alias("new_owner_id")
        )
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


# --- reading a file for the office --------------------------------------------------------------


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def summary(counts: dict[str, int], keys: Iterable[str] = Outcome.values) -> str:
    return ", ".join(f"{counts.get(k, 0)} {k}" for k in keys)
