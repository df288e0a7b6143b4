"""Reading a county's tax parcel roll: the fields of the State's parcel layer and of county
assessment (RPS) extracts, each row checked, good rows kept and the others refused.

Field names are those of the NYS statewide tax parcel layer published by NYS ITS Geospatial
Services with attributes from ORPTS assessment rolls (layer ``NYS_Tax_Parcels_Public``,
https://gisservices.its.ny.gov/arcgis/rest/services/NYS_Tax_Parcels_Public/MapServer/1:
SWIS, SBL, PRINT_KEY, PROP_CLASS, PARCEL_ADDR, LOC_ST_NBR, LOC_STREET, LOC_UNIT, LOC_ZIP,
CITYTOWN_NAME, MUNI_NAME, PRIMARY_OWNER, ADD_OWNER, MAIL_ADDR, PO_BOX, MAIL_CITY, MAIL_STATE,
MAIL_ZIP, ACRES, CALC_ACRES, ROLL_YR ...), plus the variants county extracts use; names are
compared without regard to case, and a Shapefile's ten-character names (``PRIMARY_OW`` for
PRIMARY_OWNER, ``CITYTOWN_N``) are recognised. docs/parcels.md, "Reading a roll", lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import polars as pl
import shapely

from sewer_io import orpts

from . import geometry
from .model import PARCEL_COLUMNS, PARCEL_SCHEMA, ParcelFile, ParcelFileError, Refusal
from .opening import Opened, open_file

#: Each value the reader takes → the column names that may carry it, in order of preference
#: (several present: the first non-empty one in that order is taken, row by row).
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "swis": ("SWIS", "SWIS_CODE", "SWIS_CD"),
    "sbl": ("SBL", "SECTION_BLOCK_LOT"),
    "print_key": ("PRINT_KEY", "PRINTKEY", "PRINT_KEY_CODE"),
    "property_class": ("PROP_CLASS", "PROPERTY_CLASS", "PROPCLASS"),
    "parcel_addr": ("PARCEL_ADDR", "PARCEL_ADDRESS", "LOC_ADDR"),
    "loc_number": ("LOC_ST_NBR", "LOC_ST_NO", "PARCEL_ADDRESS_NUMBER"),
    "loc_street": ("LOC_STREET", "LOC_ST_NAME", "PARCEL_ADDRESS_STREET"),
    "loc_unit": ("LOC_UNIT",),
    "zip": ("LOC_ZIP", "LOC_ZIP_CODE", "ZIP", "ZIP_CODE"),
    "loc_state": ("LOC_STATE",),
    "city": ("CITYTOWN_NAME", "MUNI_NAME", "LOC_CITY", "MUNICIPALITY_NAME", "CITY"),
    "owner": ("PRIMARY_OWNER", "OWNER", "OWNER_NAME", "OWNER1"),
    "mail_addr": ("MAIL_ADDR", "MAIL_ADDRESS", "MAIL_STREET"),
    "po_box": ("PO_BOX", "MAIL_PO_BOX"),
    "mail_city": ("MAIL_CITY",),
    "mail_state": ("MAIL_STATE",),
    "mail_zip": ("MAIL_ZIP", "MAIL_ZIP_CODE"),
    "acreage": ("ACRES", "ACREAGE", "CALC_ACRES", "CALCACRES", "GIS_ACRES"),
}

#: The key columns: a file with neither is refused whole.
KEY_FIELDS = ("sbl", "print_key")

_ZIP = r"^\d{5}(?:-?\d{4})?$"
_POSTAL_CA = r"^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$"
_ACRES = r"^(?:\d+(?:\.\d*)?|\.\d+)$"
_CLASS = r"^(\d{3})(?:[-./ ]?[0-9A-Za-z]{1,3})?$"
_PO_BOX = r"(?i)^(?:p\.?\s*o\.?\s*)?box\b"


@dataclass(frozen=True)
class Columns:
    """Which of the file's columns carries each value (:data:`FIELDS`), in preference order."""

    found: dict[str, list[str]]

    def first(self, key: str) -> str | None:
        names = self.found.get(key)
        return names[0] if names else None


def _matches(column: str, name: str) -> bool:
    """The file's column ``column`` is the field ``name`` (case aside), or its Shapefile
    truncation to ten characters."""
    c = column.upper()
    return c == name or (len(c) == 10 and len(name) > 10 and name.startswith(c))


def columns_of(names: list[str]) -> Columns:
    found: dict[str, list[str]] = {}
    taken: set[str] = set()
    for key, accepted in FIELDS.items():
        for name in accepted:
            for column in names:
                if column not in taken and _matches(column, name):
                    found.setdefault(key, []).append(column)
                    taken.add(column)
    return Columns(found)


def holds_parcels(names: list[str]) -> bool:
    """A layer holds parcels when it has an SBL or a print key column."""
    cols = columns_of(names)
    return any(cols.first(k) for k in KEY_FIELDS)


def _text(opened: Opened, column: str, *, pad: int = 0) -> pl.Expr:
    """A column as stripped text, empty → null. A number the file typed as such is written
    without a decimal point when whole (``210.0`` → ``"210"``); ``pad`` restores the leading
    zeros a number column loses (a SWIS, a ZIP code)."""
    dtype = opened.table.schema[column]
    c = pl.col(column)
    if dtype == pl.String:
        expr = c.str.strip_chars()
    elif dtype.is_integer():
        expr = c.cast(pl.String)
    elif dtype.is_float():
        whole = c.is_finite() & (c == c.round(0)) & (c.abs() < 1e15)
        expr = (
            pl.when(whole)
            .then(c.cast(pl.Int64, strict=False).cast(pl.String))
            .when(c.is_finite())
            .then(c.cast(pl.String))
            .otherwise(None)
        )
    else:
        expr = c.cast(pl.String).str.strip_chars()
    if pad and column in opened.numeric:
        longer = expr.str.zfill(9) if pad == 5 else expr  # a ZIP+4 written as one number
        expr = pl.when(expr.str.len_chars() <= pad).then(expr.str.zfill(pad)).otherwise(longer)
    return pl.when(expr == "").then(None).otherwise(expr)


def _value(opened: Opened, cols: Columns, key: str, *, pad: int = 0) -> pl.Expr:
    names = cols.found.get(key, [])
    if not names:
        return pl.lit(None, dtype=pl.String)
    return pl.coalesce([_text(opened, n, pad=pad) for n in names])


def _source(cols: Columns, key: str) -> pl.Expr:
    """The name of the column a coalesced value came from, row by row (for refusals)."""
    names = cols.found.get(key, [])
    if len(names) <= 1:
        return pl.lit(names[0] if names else key)
    expr: pl.Expr = pl.lit(names[-1])
    for n in reversed(names[:-1]):
        expr = pl.when(pl.col(f"__has_{key}_{n}")).then(pl.lit(n)).otherwise(expr)
    return expr


def read_parcels(
    path: str | Path, *, name: str | None = None, crs: str | None = None
) -> ParcelFile:
    """Read a tax parcel roll: CSV (optionally with a WKT geometry column, whose CRS is
    ``crs``), GeoJSON, GeoPackage (its only layer, or the one holding parcel fields) or a
    zipped Shapefile. Raises :class:`ParcelFileError` for a file that cannot be used at all;
    a row that cannot be used is refused (:class:`Refusal`), the others are read."""
    opened = open_file(path, name=name, crs=crs, holds=holds_parcels)
    cols = columns_of(opened.table.columns)
    source = opened.source
    if not any(cols.first(k) for k in KEY_FIELDS):
        raise ParcelFileError(f"{source}: missing column SBL or PRINT_KEY (the parcel's key)")
    if not cols.first("property_class"):
        raise ParcelFileError(f"{source}: missing column PROP_CLASS (the property class)")
    frame = _values(opened, cols)
    refusals = _checks(frame, cols)
    frame, geo_refusals = _geometry(opened, frame)
    refusals = pl.concat([refusals, geo_refusals])
    refused_rows = set(refusals["row"].to_list())
    good = frame.filter(~pl.col("row").is_in(list(refused_rows)))
    parcels = good.select(PARCEL_COLUMNS).cast(PARCEL_SCHEMA)  # type: ignore[arg-type]
    ordered = refusals.sort(["row", "order"])
    return ParcelFile(
        source=source,
        sha256=opened.sha256,
        crs=opened.crs_text,
        rows=len(opened.row),
        parcels=parcels,
        refused=tuple(
            Refusal(row=r, field=f, message=m)
            for r, f, m in ordered.select("row", "field", "message").iter_rows()
        ),
    )


def _values(opened: Opened, cols: Columns) -> pl.DataFrame:
    """Every value of :data:`PARCEL_COLUMNS` but the geometry, plus the raw cells the checks
    need (``__class``, ``__acres``, ``__zip``, ``__mail_zip``, ``__swis``)."""
    number = _value(opened, cols, "loc_number")
    street = _value(opened, cols, "loc_street")
    unit = _value(opened, cols, "loc_unit")
    parts = pl.concat_str([number, street], separator=" ", ignore_nulls=True)
    parts = pl.when(parts == "").then(None).otherwise(parts)
    parts = (
        pl.when(unit.is_not_null() & parts.is_not_null()).then(parts + ", " + unit).otherwise(parts)
    )
    box = _value(opened, cols, "po_box")
    box_text = pl.when(box.str.contains(_PO_BOX)).then(box).otherwise("PO Box " + box)
    mail_addr = _value(opened, cols, "mail_addr")
    swis = _value(opened, cols, "swis", pad=6)
    has_columns = [
        _text(opened, n, pad=0).is_not_null().alias(f"__has_{key}_{n}")
        for key in ("zip", "mail_zip", "acreage", "property_class", "swis")
        for n in cols.found.get(key, [])[:-1]
    ]
    frame = opened.table.select(
        *has_columns,
        pl.Series("row", opened.row, dtype=pl.Int64),
        swis.alias("__swis"),
        _value(opened, cols, "sbl").alias("sbl"),
        _value(opened, cols, "print_key").alias("print_key"),
        _value(opened, cols, "property_class").alias("__class"),
        pl.coalesce([_value(opened, cols, "parcel_addr"), parts]).alias("address"),
        _value(opened, cols, "city").alias("city"),
        pl.coalesce(
            [_value(opened, cols, "loc_state"), pl.when(swis.is_not_null()).then(pl.lit("NY"))]
        ).alias("state"),
        _value(opened, cols, "zip", pad=5).alias("__zip"),
        _value(opened, cols, "owner").alias("owner"),
        pl.when(mail_addr.is_not_null() & box.is_not_null())
        .then(mail_addr + ", " + box_text)
        .otherwise(pl.coalesce([mail_addr, box_text]))
        .alias("mail_street"),
        _value(opened, cols, "mail_city").alias("mail_city"),
        _value(opened, cols, "mail_state").str.to_uppercase().alias("mail_state"),
        _value(opened, cols, "mail_zip", pad=5).alias("__mail_zip"),
        _value(opened, cols, "acreage").alias("__acres"),
    )
    return frame.with_columns(
        pl.coalesce(["print_key", "sbl"]).alias("parcel_id"),
        pl.col("__swis").alias("swis"),
        pl.col("__class").str.extract(_CLASS, 1).alias("property_class"),
        _zip(pl.col("__zip")).alias("zip"),
        _zip(pl.col("__mail_zip"), foreign=True).alias("mail_zip"),
        pl.col("__acres").alias("acreage"),
        _source(cols, "zip").alias("__zip_field"),
        _source(cols, "mail_zip").alias("__mail_zip_field"),
        _source(cols, "acreage").alias("__acres_field"),
        _source(cols, "property_class").alias("__class_field"),
        _source(cols, "swis").alias("__swis_field"),
    )


def _zip(value: pl.Expr, *, foreign: bool = False) -> pl.Expr:
    """A ZIP code as ``12590`` or ``12590-1234`` (nine digits given without the hyphen get
    it); a mailing address may also carry a Canadian postal code, kept as given."""
    digits = value.str.replace("-", "")
    us = (
        pl.when(digits.str.len_chars() == 9)
        .then(digits.str.slice(0, 5) + "-" + digits.str.slice(5, 4))
        .otherwise(digits)
    )
    if foreign:
        return (
            pl.when(value.str.contains(_ZIP))
            .then(us)
            .when(value.str.contains(_POSTAL_CA))
            .then(value.str.to_uppercase())
            .otherwise(None)
        )
    return pl.when(value.str.contains(_ZIP)).then(us).otherwise(None)


def _checks(frame: pl.DataFrame, cols: Columns) -> pl.DataFrame:
    """The attribute refusals: row, field, message, and ``order`` (the field's place)."""
    key_field = cols.first("sbl") or cols.first("print_key") or "SBL"
    pieces: list[pl.DataFrame] = []

    def refuse(order: int, mask: pl.Expr, field: pl.Expr, message: pl.Expr) -> None:
        pieces.append(
            frame.filter(mask).select(
                "row",
                field.cast(pl.String).alias("field"),
                message.cast(pl.String).alias("message"),
                pl.lit(order, dtype=pl.Int64).alias("order"),
            )
        )

    no_key = pl.col("parcel_id").is_null()
    refuse(0, no_key, pl.lit(key_field), pl.lit("no SBL or print key"))
    if cols.first("swis"):
        bad = pl.col("__swis").is_not_null() & ~pl.col("__swis").str.contains(r"^\d{6}$")
        refuse(
            1, bad, pl.col("__swis_field"), "SWIS code '" + pl.col("__swis") + "' is not six digits"
        )
    # the key appearing twice (within one SWIS: a county roll spans several municipalities)
    key = pl.concat_str([pl.col("swis").fill_null(""), pl.col("parcel_id")], separator="\x1f")
    frame = frame.with_columns(pl.col("row").first().over(key).alias("__first"))
    first = pl.col("__first")
    twice = ~no_key & (first != pl.col("row"))
    id_field = (
        pl.when(pl.col("print_key").is_not_null())
        .then(pl.lit(cols.first("print_key") or "PRINT_KEY"))
        .otherwise(pl.lit(key_field))
    )
    refuse(
        2,
        twice,
        id_field,
        "parcel " + pl.col("parcel_id") + " appears twice: first at row " + first.cast(pl.String),
    )
    # property class
    no_class = pl.col("__class").is_null()
    refuse(3, no_class, pl.col("__class_field"), pl.lit("no property class"))
    pieces.append(_class_refusals(frame))
    # ZIP codes and acreage
    for order, raw, clean, field, what in (
        (4, "__zip", "zip", "__zip_field", "ZIP code"),
        (5, "__mail_zip", "mail_zip", "__mail_zip_field", "mailing ZIP code"),
    ):
        bad = pl.col(raw).is_not_null() & pl.col(clean).is_null()
        refuse(order, bad, pl.col(field), f"bad {what} '" + pl.col(raw) + "'")
    bad_acres = pl.col("__acres").is_not_null() & ~pl.col("__acres").str.contains(_ACRES)
    refuse(
        6,
        bad_acres,
        pl.col("__acres_field"),
        "acreage '" + pl.col("__acres") + "' is not a number of acres",
    )
    return pl.concat(pieces)


def _class_refusals(frame: pl.DataFrame) -> pl.DataFrame:
    """Property class values that are not a code of the ORPTS table (:mod:`sewer_io.orpts`)."""
    known = list(orpts.CODES)
    suspect = frame.filter(
        pl.col("__class").is_not_null()
        & (pl.col("property_class").is_null() | ~pl.col("property_class").is_in(known))
    )
    rows, fields, messages = [], [], []
    for row, value, field in suspect.select("row", "__class", "__class_field").iter_rows():
        _, why = orpts.read_class(value)
        rows.append(row)
        fields.append(field)
        messages.append(why or f"unknown property class '{value}'")
    return pl.DataFrame(
        {"row": rows, "field": fields, "message": messages, "order": [3] * len(rows)},
        schema={"row": pl.Int64, "field": pl.String, "message": pl.String, "order": pl.Int64},
    )


def _geometry(opened: Opened, frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The frame with ``geometry``, ``lon``, ``lat``; and the geometry refusals."""
    n = frame.height
    if opened.geometry is None or opened.crs is None:
        empty = pl.DataFrame(
            schema={"row": pl.Int64, "field": pl.String, "message": pl.String, "order": pl.Int64}
        )
        return frame.with_columns(
            pl.lit(None, dtype=pl.String).alias("geometry"),
            pl.lit(None, dtype=pl.Float64).alias("lon"),
            pl.lit(None, dtype=pl.Float64).alias("lat"),
        ), empty
    geoms, problems = geometry.polygons(opened.geometry, opened.geometry_format)
    for i in np.flatnonzero(np.array([v is None for v in opened.geometry], dtype=bool)):
        problems[int(i)] = "no polygon for this parcel"
    moved, far = geometry.to_wgs84(geoms, opened.crs)
    problems.update(far)
    if far and bool(np.all(shapely.is_missing(moved))):
        raise ParcelFileError(
            f"{opened.source}: no polygon's coordinates are a place on Earth in "
            f"{opened.crs_text}: is that the file's coordinate reference system?"
        )
    refused = np.isin(np.arange(n), list(problems))
    lon, lat = geometry.inner_points(geometry.blank(geoms, refused), opened.crs)
    text = geometry.geojson(geometry.blank(moved, refused))
    rows = opened.row
    refusals = pl.DataFrame(
        {
            "row": [int(rows[i]) for i in sorted(problems)],
            "field": [opened.geometry_field] * len(problems),
            "message": [problems[i] for i in sorted(problems)],
            "order": [9] * len(problems),
        },
        schema={"row": pl.Int64, "field": pl.String, "message": pl.String, "order": pl.Int64},
    )
    return frame.with_columns(
        pl.Series("geometry", text, dtype=pl.String),
        pl.Series("lon", lon, dtype=pl.Float64).fill_nan(None),
        pl.Series("lat", lat, dtype=pl.Float64).fill_nan(None),
    ), refusals
