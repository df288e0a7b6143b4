"""Opening a parcel or district file: its format, its layer, its columns, its geometry, its CRS.

Layers (GeoJSON, GeoPackage, a zipped Shapefile) are read by GDAL through pyogrio into Arrow
(``pyogrio.read_arrow``: columns, not features one by one) and the geometry comes as WKB
exactly as the file holds it: GDAL accepts a polygon ring that does not close and passes it
on unclosed (it warns, and ``OGR_GEOMETRY_ACCEPT_UNCLOSED_RING`` is left at its default), so
that :mod:`.geometry` can refuse that feature by itself instead of the whole file failing or
the ring being closed silently. A CSV file is read by polars, every column as text, with an
optional WKT geometry column.

The coordinate reference system is the one the file declares: a GeoJSON file's legacy
``"crs"`` member (GDAL reads it; without one, RFC 7946 says WGS 84), a Shapefile's ``.prj``,
a GeoPackage layer's spatial reference. A CSV file declares none: its WKT coordinates need the
``crs`` argument. A file that declares a CRS and an argument that names another is refused
rather than one of them being chosen.
"""

from __future__ import annotations

import hashlib
import io
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
from pyproj import CRS
from pyproj.exceptions import CRSError

from .model import ParcelFileError

#: Names a CSV file's WKT geometry column may have (compared in upper case).
WKT_COLUMNS = ("WKT", "GEOMETRY", "GEOM", "THE_GEOM", "SHAPE", "WKT_GEOMETRY")

#: What a file name may end with, and how it is read.
FORMATS = {
    ".csv": "csv",
    ".geojson": "layer",
    ".json": "layer",
    ".gpkg": "layer",
    ".zip": "zip",
    ".shp": "layer",
}

#: GDAL's warning for a ring that does not close: the ring is refused per feature instead.
_UNCLOSED_WARNING = "Non closed ring detected"


@dataclass(frozen=True)
class Opened:
    """A file opened: its attribute columns and geometry, before any column is interpreted.

    ``table``: the attribute columns under the file's own names, as typed by the file (a CSV
    file: every column text). ``numeric``: the columns the file typed as numbers.
    ``row``: each record's number for refusals (CSV: its line; layers: 1-based feature).
    ``geometry``: per record, WKB bytes (layers) or WKT text (CSV) or None; the whole array is
    None when the file has no geometry. ``geometry_field``: the name a refusal gives it.
    """

    source: str
    sha256: str
    table: pl.DataFrame
    numeric: frozenset[str]
    row: npt.NDArray[np.int64]
    geometry: npt.NDArray[np.object_] | None
    geometry_format: str
    geometry_field: str
    crs: CRS | None
    crs_text: str


def open_file(
    path: str | Path,
    *,
    name: str | None,
    crs: str | None,
    holds: Callable[[list[str]], bool],
) -> Opened:
    """Open ``path``; ``holds(field names)`` tells whether a layer holds the wanted fields
    (used to choose among a GeoPackage's layers or a zip file's shapefiles)."""
    p = Path(path)
    source = name or p.name
    suffix = p.suffix.lower()
    kind = FORMATS.get(suffix)
    if kind is None:
        known = ", ".join(sorted(FORMATS))
        raise ParcelFileError(f"{source}: a '{suffix or p.name}' file cannot be read (use {known})")
    if not p.is_file():
        raise ParcelFileError(f"{source}: no such file")
    if p.stat().st_size == 0:
        raise ParcelFileError(f"{source}: the file is empty")
    if kind == "csv":
        data = p.read_bytes()
        return _open_csv(source, data, crs)
    digest, has_crs_member = _hash(p, look_for=b'"crs"' if suffix in (".geojson", ".json") else b"")
    if kind == "zip":
        target = _shapefile_in_zip(p, source, holds)
        return _open_layer(source, digest, target, None, crs, declared_default=False)
    layer = _choose_layer(p, source, holds) if suffix == ".gpkg" else None
    default = suffix in (".geojson", ".json") and not has_crs_member
    return _open_layer(source, digest, str(p), layer, crs, declared_default=default)


def _hash(path: Path, look_for: bytes) -> tuple[str, bool]:
    """The file's SHA-256 and whether ``look_for`` occurs in it (read once, in blocks)."""
    h = hashlib.sha256()
    found = False
    tail = b""
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            if look_for and not found:
                found = look_for in tail + block
                tail = block[-len(look_for) :]
    return h.hexdigest(), found


# --- layers ------------------------------------------------------------------------------


def _gdal() -> Any:
    """pyogrio (GDAL), imported when a file is first opened rather than when the office starts:
    its import loads GDAL and probes for pandas (0.1 s, 0.9 s where pandas is installed), which
    every process of the office would otherwise pay, most of them never reading a roll."""
    import pyogrio
    import pyogrio.errors

    # GDAL's default, set in case the environment says otherwise: an unclosed ring is passed
    # on as it is (and refused per feature by .geometry), not dropped by GDAL
    pyogrio.set_gdal_config_options({"OGR_GEOMETRY_ACCEPT_UNCLOSED_RING": "YES"})
    return pyogrio


def _gdal_read(source: str, what: str, call: Callable[[Any], Any]) -> Any:
    """``call(pyogrio)``, GDAL's refusals told as the file's (:class:`ParcelFileError`)."""
    gdal = _gdal()
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=_UNCLOSED_WARNING, category=RuntimeWarning)
            return call(gdal)
    except (gdal.errors.DataSourceError, gdal.errors.DataLayerError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ParcelFileError(f"{source}: unreadable as {what}: {first}") from None
    except (gdal.errors.GeometryError, gdal.errors.FieldError, OSError) as e:
        raise ParcelFileError(f"{source}: unreadable: {e}") from None


def _fields(source: str, what: str, target: str, layer: str | None = None) -> list[str]:
    """The names of the fields of a layer of ``target``."""
    info = _gdal_read(source, what, lambda gdal: gdal.read_info(target, layer=layer))
    return [str(f) for f in info["fields"]]


def _choose(source: str, candidates: list[str], holding: list[str], what: str) -> str:
    if len(candidates) == 1:
        return candidates[0]
    if len(holding) == 1:
        return holding[0]
    if not holding:
        return candidates[0]
    raise ParcelFileError(
        f"{source}: several {what}s hold the fields ({', '.join(holding)}): give a file with one"
    )


def _choose_layer(path: Path, source: str, holds: Callable[[list[str]], bool]) -> str:
    layers = _gdal_read(source, "a GeoPackage", lambda gdal: gdal.list_layers(path))
    names = [str(row[0]) for row in layers]
    if not names:
        raise ParcelFileError(f"{source}: the GeoPackage holds no layer")
    holding = [n for n in names if holds(_fields(source, "a GeoPackage", str(path), n))]
    return _choose(source, names, holding, "layer")


def _shapefile_in_zip(path: Path, source: str, holds: Callable[[list[str]], bool]) -> str:
    try:
        with zipfile.ZipFile(path) as z:
            members = [m for m in z.namelist() if not m.startswith("__MACOSX/")]
    except (zipfile.BadZipFile, OSError) as e:
        raise ParcelFileError(f"{source}: not a zip archive ({e})") from None
    lowered = {m.lower(): m for m in members}
    shapes = [m for m in members if m.lower().endswith(".shp")]
    if not shapes:
        raise ParcelFileError(f"{source}: the zip archive holds no Shapefile (.shp)")
    for shp in shapes:
        stem = shp[:-4].lower()
        for part in (".dbf", ".shx"):
            if stem + part not in lowered:
                raise ParcelFileError(
                    f"{source}: the Shapefile {shp} in the archive lacks its {part}"
                )
    targets = {shp: f"/vsizip/{path.resolve()}/{shp}" for shp in shapes}
    holding = []
    for shp, target in targets.items():
        if holds(_fields(source, "a Shapefile", target)):
            holding.append(shp)
    return targets[_choose(source, shapes, holding, "Shapefile")]


def _open_layer(
    source: str,
    digest: str,
    target: str,
    layer: str | None,
    crs: str | None,
    *,
    declared_default: bool,
) -> Opened:
    meta, table = _gdal_read(
        source, "a GIS layer", lambda gdal: gdal.read_arrow(target, layer=layer)
    )
    geometry_type = meta.get("geometry_type")
    geom_name = meta.get("geometry_name") or "wkb_geometry"
    wkb: npt.NDArray[np.object_] | None = None
    if geometry_type is not None and geom_name in table.column_names:
        wkb = np.asarray(table.column(geom_name).to_numpy(zero_copy_only=False), dtype=object)
        table = table.drop([geom_name])
        if not any(g is not None for g in wkb):  # features without any geometry: a table
            wkb = None
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    if frame.height == 0 and (wkb is None or len(wkb) == 0):
        raise ParcelFileError(f"{source}: the file holds no features")
    # A layer without attribute columns gives an empty frame: the missing columns say so.
    rows = np.arange(1, (frame.height if wkb is None else len(wkb)) + 1, dtype=np.int64)
    _check_names(source, frame.columns)
    numeric = frozenset(c for c, t in frame.schema.items() if t.is_numeric())
    resolved, text = resolve_crs(
        source,
        meta.get("crs"),
        crs,
        has_geometry=wkb is not None,
        declared_default=declared_default,
    )
    return Opened(
        source=source,
        sha256=digest,
        table=frame,
        numeric=numeric,
        row=rows,
        geometry=wkb,
        geometry_format="wkb",
        geometry_field="geometry",
        crs=resolved,
        crs_text=text,
    )


# --- CSV ---------------------------------------------------------------------------------


def _open_csv(source: str, data: bytes, crs: str | None) -> Opened:
    digest = hashlib.sha256(data).hexdigest()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # County extracts written by Windows programs: Windows-1252 when not UTF-8.
        text = data.decode("cp1252", errors="replace")
    try:
        frame = pl.read_csv(io.StringIO(text), infer_schema=False, raise_if_empty=False)
    except pl.exceptions.PolarsError as e:
        raise ParcelFileError(f"{source}: unreadable as CSV: {str(e).splitlines()[0]}") from None
    if not frame.columns or frame.columns == [""]:
        raise ParcelFileError(f"{source}: the file is empty (no header)")
    frame = frame.rename({c: c.strip() for c in frame.columns})
    _check_names(source, frame.columns)
    if frame.height == 0:
        raise ParcelFileError(f"{source}: the file holds a header but no rows")
    rows = _line_numbers(frame)
    # a line with no value in any cell (a blank line, a spreadsheet's ",,,") is no record
    filled = frame.select(
        pl.any_horizontal(pl.col(c).str.strip_chars().fill_null("") != "" for c in frame.columns)
    ).to_series()
    if not filled.all():
        frame, rows = frame.filter(filled), rows[filled.to_numpy()]
        if frame.height == 0:
            raise ParcelFileError(f"{source}: the file holds a header but no rows")
    wkt_column = next((c for c in frame.columns if c.upper() in WKT_COLUMNS), None)
    wkt: npt.NDArray[np.object_] | None = None
    if wkt_column is not None:
        values = frame[wkt_column].str.strip_chars()
        frame = frame.drop(wkt_column)
        if values.str.len_chars().fill_null(0).sum() > 0:
            wkt = np.asarray(values.replace("", None).to_numpy(), dtype=object)
    resolved, crs_text = resolve_crs(
        source, None, crs, has_geometry=wkt is not None, declared_default=False, csv=True
    )
    return Opened(
        source=source,
        sha256=digest,
        table=frame,
        numeric=frozenset(),
        row=rows,
        geometry=wkt,
        geometry_format="wkt",
        geometry_field=wkt_column or "geometry",
        crs=resolved,
        crs_text=crs_text,
    )


def _line_numbers(frame: pl.DataFrame) -> npt.NDArray[np.int64]:
    """Each record's first line (header = 1), counting line breaks inside quoted cells."""
    breaks = frame.select(
        pl.sum_horizontal(
            pl.col(c).str.count_matches("\n").fill_null(0) for c in frame.columns
        ).alias("n")
    )["n"].to_numpy()
    start = 2 + np.arange(frame.height, dtype=np.int64)
    if breaks.any():
        start = start + np.concatenate(([0], np.cumsum(breaks)[:-1])).astype(np.int64)
    return start


def _check_names(source: str, columns: list[str]) -> None:
    seen: dict[str, str] = {}
    for c in columns:
        if c.upper() in seen:
            raise ParcelFileError(
                f"{source}: the column {c} appears twice ({seen[c.upper()]}, {c})"
            )
        seen[c.upper()] = c


# --- CRS ---------------------------------------------------------------------------------


def _crs(source: str, value: str, whose: str) -> CRS:
    try:
        return CRS.from_user_input(value)
    except CRSError:
        raise ParcelFileError(f"{source}: {whose} CRS '{value}' is not one pyproj knows") from None


def crs_name(crs: CRS) -> str:
    """``"EPSG:2260"`` when the CRS has an EPSG code, else another authority's, else its name."""
    epsg = crs.to_epsg(min_confidence=70)
    if epsg is not None:
        return f"EPSG:{epsg}"
    authority = crs.to_authority(min_confidence=70)
    return f"{authority[0]}:{authority[1]}" if authority else crs.name


def resolve_crs(
    source: str,
    declared: str | None,
    given: str | None,
    *,
    has_geometry: bool,
    declared_default: bool,
    csv: bool = False,
) -> tuple[CRS | None, str]:
    """The CRS to read the coordinates in, and its name (module docstring)."""
    if not has_geometry:
        return None, ""
    given_crs = _crs(source, given, "the given") if given else None
    declared_crs = _crs(source, declared, "the file's") if declared else None
    if declared_crs is not None and not declared_default:
        if given_crs is not None and not given_crs.equals(declared_crs, ignore_axis_order=True):
            raise ParcelFileError(
                f"{source}: the file declares the CRS {crs_name(declared_crs)} but "
                f"{crs_name(given_crs)} was given: give the file's own or none"
            )
        chosen = declared_crs
    elif given_crs is not None:
        chosen = given_crs
    elif declared_crs is not None:
        chosen = declared_crs
    elif csv:
        raise ParcelFileError(
            f"{source}: the CSV file has a WKT geometry column but a CSV file cannot say which "
            "coordinate reference system it is in: give it (--crs, for example EPSG:2260)"
        )
    else:
        raise ParcelFileError(
            f"{source}: the file does not say which coordinate reference system its "
            "coordinates are in (no .prj or CRS): give it (--crs, for example EPSG:2260)"
        )
    return chosen, crs_name(chosen)
