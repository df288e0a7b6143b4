"""Reading sewer district polygons (districts, improvement areas, their phases).

A district file is a GeoJSON file, a zipped Shapefile or a GeoPackage (a CSV file with a WKT
column and the ``crs`` argument is read too), one feature per district: its code from a column
CODE, DISTRICT, DIST_CODE or DISTRICT_CODE, made a slug (lower case letters, digits and
hyphens, at most 40 characters: the office's service area code), its name from NAME,
DIST_NAME or DISTRICT_NAME (the code as given when there is none). The polygon is checked as a
parcel's is (:mod:`.geometry`) and kept as GeoJSON text in WGS 84.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Final

import numpy as np
import polars as pl

from . import geometry
from .model import DISTRICT_COLUMNS, DistrictFile, ParcelFileError, Refusal
from .opening import open_file

CODE_FIELDS: Final = ("CODE", "DISTRICT", "DIST_CODE", "DISTRICT_CODE")
NAME_FIELDS: Final = ("NAME", "DIST_NAME", "DISTRICT_NAME")
#: The longest code the office's service areas take (a SlugField of 40 characters).
CODE_LENGTH: Final = 40


def slug(value: str) -> str:
    """Letters without accents, lower case; runs of spaces and hyphens become one hyphen;
    anything else but letters, digits, underscores and hyphens is dropped (as Django's
    ``slugify``, which this layer cannot import)."""
    ascii_text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    ascii_text = re.sub(r"[^\w\s-]", "", ascii_text.lower())
    return re.sub(r"[-\s]+", "-", ascii_text).strip("-_")


def _column(names: list[str], accepted: tuple[str, ...]) -> str | None:
    upper = {n.upper(): n for n in names}
    return next((upper[a] for a in accepted if a in upper), None)


def _holds(names: list[str]) -> bool:
    return _column(names, CODE_FIELDS) is not None


def read_districts(
    path: str | Path, *, name: str | None = None, crs: str | None = None
) -> DistrictFile:
    """Read district polygons; :class:`ParcelFileError` for a file that cannot be used."""
    opened = open_file(path, name=name, crs=crs, holds=_holds)
    source = opened.source
    code_col = _column(opened.table.columns, CODE_FIELDS)
    if code_col is None:
        raise ParcelFileError(f"{source}: missing column CODE (or DISTRICT, DIST_CODE)")
    if opened.geometry is None or opened.crs is None:
        raise ParcelFileError(f"{source}: the file has no polygons")
    name_col = _column(opened.table.columns, NAME_FIELDS)
    codes = opened.table[code_col].cast(pl.String).str.strip_chars().to_list()
    names = (
        opened.table[name_col].cast(pl.String).str.strip_chars().to_list()
        if name_col
        else [None] * len(codes)
    )
    geoms, problems = geometry.polygons(opened.geometry, opened.geometry_format)
    for absent in np.flatnonzero(np.array([v is None for v in opened.geometry], dtype=bool)):
        problems[int(absent)] = "no polygon for this district"
    moved, far = geometry.to_wgs84(geoms, opened.crs)
    problems.update(far)
    texts = geometry.geojson(moved)
    refused: list[Refusal] = []
    kept: list[tuple[int, str, str, str]] = []
    first_row: dict[str, int] = {}
    for i, row in enumerate(opened.row.tolist()):
        code_text = codes[i] or ""
        code = slug(code_text)
        why: list[tuple[str, str]] = []
        if not code:
            why.append((code_col, "no district code"))
        elif len(code) > CODE_LENGTH:
            why.append((code_col, f"the code '{code}' is longer than {CODE_LENGTH} characters"))
        elif code in first_row:
            why.append((code_col, f"district {code} appears twice: first at row {first_row[code]}"))
        else:
            first_row[code] = row
        if i in problems:
            why.append((opened.geometry_field, problems[i]))
        if why:
            refused.extend(Refusal(row=row, field=f, message=m) for f, m in why)
            continue
        text = texts[i]
        assert text is not None
        kept.append((row, code, names[i] or code_text, text))
    frame = pl.DataFrame(
        kept, schema=dict.fromkeys(DISTRICT_COLUMNS, pl.String) | {"row": pl.Int64}, orient="row"
    ).select(DISTRICT_COLUMNS)
    return DistrictFile(
        source=source,
        sha256=opened.sha256,
        crs=opened.crs_text,
        rows=len(opened.row),
        districts=frame,
        refused=tuple(refused),
    )
