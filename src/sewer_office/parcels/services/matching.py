"""A roll's rows matched to the register: each row's property and each row's owner.

The register is read whole into frames (:func:`register_frame`, :func:`persons_frame`) and
the file's rows are trimmed and keyed (:func:`prepared_rows`), so that a roll of 100,000 rows is
matched on whole columns. :func:`row_checks` and :func:`match_properties` refuse what only the
register can see; :func:`match_owners` finds each row's owner as :mod:`sewer_office.parcels.owners`
says (a person on record, the same person who moved, or a new person).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from sewer_io.parcels import PARCEL_COLUMNS
from sewer_office.parcels import owners
from sewer_office.parcels.models import Retirement
from sewer_office.registry.models import Person, Property

from .common import (
    ACRE_PLACES,
    DEGREE_PLACES,
    MAIL_FIELDS,
    NUMBER_COLUMNS,
    PROPERTY_FIELDS,
    TEXT_FIELDS,
)

#: A refusal: row, field, message.
Refusal = tuple[int, str, str]


# --- the register -------------------------------------------------------------------------------


def norm_id(col: pl.Expr) -> pl.Expr:
    """A tax parcel id compared without case, spaces, dashes, dots or slashes."""
    return col.fill_null("").str.to_uppercase().str.replace_all(r"[\s\-./]", "")


def retired_ids() -> set[int]:
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
    acres = columns.index("acreage")  # a Decimal in the database
    rows = [
        (*r[:acres], None if r[acres] is None else float(r[acres]), *r[acres + 1 :])
        for r in Property.objects.order_by("id").values_list(*columns)
    ]
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    retired = retired_ids()
    if retired:
        frame = frame.filter(~pl.col("id").is_in(sorted(retired)))
    return frame.with_columns(
        pl.when(pl.col("sbl") != "")
        .then(pl.concat_str(["swis", "sbl"], separator="/"))
        .otherwise(None)
        .alias("key"),
        norm_id(pl.col("parcel_id")).alias("pid_norm"),
    )


def persons_frame() -> pl.DataFrame:
    """Every person (those merged into another stand for the survivor), with the identity."""
    schema = {
        "pid": pl.Int64,
        "name": pl.String,
        **dict.fromkeys(MAIL_FIELDS, pl.String),
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


def prepared_rows(parcels: pl.DataFrame) -> pl.DataFrame:
    """The file's rows trimmed and rounded as the register keeps them, with their key
    (``SWIS/SBL``) and their owner's identity."""
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


#: Roll column → (model, field) whose length bounds it.
STORED_TEXT: dict[str, tuple[Any, str]] = {
    **{c: (Property, c) for c in TEXT_FIELDS},
    "owner": (Person, "name"),
    "mail_city": (Person, "mail_city"),
    "mail_state": (Person, "mail_state"),
    "mail_zip": (Person, "mail_zip"),
}


def row_checks(frame: pl.DataFrame) -> list[Refusal]:
    """What only the register can refuse: lengths, blanks it cannot keep, the same key twice."""
    errors: list[Refusal] = []
    for column, (model, name) in STORED_TEXT.items():
        if column not in frame.columns:
            continue
        limit = int(model._meta.get_field(name).max_length or 0)
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


def match_properties(frame: pl.DataFrame, reg: pl.DataFrame) -> tuple[pl.DataFrame, list[Refusal]]:
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
                out.with_columns(norm_id(pl.col(column)).alias("pid_norm"))
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
    errors: list[Refusal] = []
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
    retired = retired_ids()
    if retired:
        gone = Property.objects.filter(pk__in=sorted(retired)).values_list("parcel_id", "id")
        holder_of = dict(gone)
        for r, pid in out.filter(pl.col("pid").is_null()).select("row", "parcel_id").iter_rows():
            if pid in holder_of:
                what = f"'{pid}' is the tax parcel id of retired property #{holder_of[pid]}"
                errors.append((r, "parcel_id", what))
    return out, errors


# --- the owners ---------------------------------------------------------------------------------


def match_owners(
    rows: pl.DataFrame, reg: pl.DataFrame, persons: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Each row's owner: ``owner_id`` (a person on record) or ``owner_ident`` (a new person),
    and ``how`` it was found (``same``, ``known``, ``moved``, ``new``); the new persons; the
    mailing addresses to update (``id`` and :data:`MAIL_FIELDS`)."""
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
    how = pl.col("how")
    out = out.with_columns(
        pl.when(how.is_in(["same", "moved"]))
        .then(pl.col("cur"))
        .when(how == "known")
        .then(pl.col("by_ident"))
        .otherwise(None)
        .alias("owner_id"),
        pl.when(how == "new").then(pl.col("ident")).otherwise(None).alias("owner_ident"),
    )
    updates = (
        out.filter(how == "moved")
        .group_by("cur_survivor", maintain_order=True)
        .first()
        .select(pl.col("cur_survivor").alias("id"), *MAIL_FIELDS)
    )
    persons_new = (
        out.filter(how == "new")
        .sort("row")
        .group_by("ident", maintain_order=True)
        .first()
        .select("ident", pl.col("owner").alias("name"), *MAIL_FIELDS)
    )
    return out, persons_new, updates


def mail_changed(updates: pl.DataFrame) -> pl.DataFrame:
    """The movers whose recorded mailing address differs from the roll's (with the recorded
    one as ``old_*``)."""
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


def mover_rows(rows: pl.DataFrame, movers: pl.DataFrame) -> list[int]:
    """The rows whose owner is a person whose mailing address changes."""
    if movers.height == 0:
        return []
    ids = movers.get_column("id").to_list()
    return (
        rows.filter((pl.col("how") == "moved") & pl.col("owner_id").is_in(ids))
        .get_column("row")
        .to_list()
    )
