"""Parcel and district polygons: checked, moved to WGS 84, written as GeoJSON; which district
holds a parcel; which old and new parcels share ground.

Everything runs on whole arrays (shapely 2's vectorised functions, pyproj on coordinate
arrays); only the rows already found wrong are looked at one by one, to say why.

What is refused, per row, never repaired: a ring that does not close (GDAL hands such a ring
on as the file has it, and GEOS will not build it: the raw WKB or WKT of that row is then read
here to say so), a ring of fewer than four points, a geometry that is not a polygon, an empty
one, and an invalid one (self-intersection and the like, with GEOS's reason; ``make_valid``
would guess the parcel's shape, so it is not used).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import polars as pl
import shapely
from pyproj import CRS, Transformer

#: Decimal places kept in WGS 84 longitude and latitude (about a centimetre).
DECIMALS = 7

#: An equal-area CRS for comparing areas (NSIDC EASE-Grid 2.0 Global, World Cylindrical
#: Equal Area): areas keep their proportions everywhere, which is all a share needs.
EQUAL_AREA = "EPSG:6933"

WGS84 = CRS.from_epsg(4326)

_POLYGON, _MULTIPOLYGON = 3, 6
_TYPE_NAMES = {
    0: "a point",
    1: "a line",
    2: "a ring",
    4: "several points",
    5: "several lines",
    7: "a geometry collection",
}

Geometries = npt.NDArray[np.object_]


def blank(geoms: Geometries, drop: npt.NDArray[np.bool_]) -> Geometries:
    """A copy of ``geoms`` with None where ``drop`` is true."""
    out = np.array(geoms, dtype=object, copy=True)
    out[drop] = None
    return out


def polygons(values: npt.NDArray[np.object_], fmt: str) -> tuple[Geometries, dict[int, str]]:
    """Each row's polygon (None when absent or refused) and, by row index, why a row's
    geometry is refused. ``values`` holds WKB bytes (``fmt="wkb"``) or WKT text (``"wkt"``)."""
    if fmt == "wkb":
        geoms = shapely.from_wkb(values, on_invalid="ignore")
    else:
        geoms = shapely.from_wkt(values, on_invalid="ignore")
    geoms = np.asarray(geoms, dtype=object)
    problems: dict[int, str] = {}
    present = np.array([v is not None for v in values], dtype=bool)
    parsed = ~shapely.is_missing(geoms)
    for i in np.flatnonzero(present & ~parsed):
        problems[int(i)] = _unreadable(values[i], fmt)
    type_ids = shapely.get_type_id(geoms)
    wrong = parsed & (type_ids != _POLYGON) & (type_ids != _MULTIPOLYGON)
    for i in np.flatnonzero(wrong):
        problems[int(i)] = (
            f"not a polygon but {_TYPE_NAMES.get(int(type_ids[i]), 'another geometry')}"
        )
    empty = parsed & ~wrong & shapely.is_empty(geoms)
    for i in np.flatnonzero(empty):
        problems[int(i)] = "the polygon is empty"
    candidates = parsed & ~wrong & ~empty
    geoms = blank(geoms, ~candidates)
    if shapely.has_z(geoms).any():
        geoms = np.asarray(shapely.force_2d(geoms), dtype=object)
    invalid = candidates & ~shapely.is_valid(geoms)
    for i in np.flatnonzero(invalid):
        problems[int(i)] = f"the polygon is not valid: {shapely.is_valid_reason(geoms[i])}"
    return blank(geoms, ~(candidates & ~invalid)), problems


def _unreadable(value: object, fmt: str) -> str:
    """Why GEOS would not read a row's geometry, in words."""
    rings = _wkb_rings(value) if fmt == "wkb" and isinstance(value, bytes) else None
    if fmt == "wkt" and isinstance(value, str):
        rings = _wkt_rings(value)
    for ring in rings or []:
        if len(ring) >= 2 and ring[0] != ring[-1]:
            return "the polygon's ring does not close (its last point is not its first)"
    for ring in rings or []:
        if len(ring) < 4:
            return f"a ring of the polygon has {len(ring)} points (a ring needs at least 4)"
    try:
        if fmt == "wkb":
            shapely.from_wkb(value)
        else:
            shapely.from_wkt(value)
    except shapely.errors.GEOSException as e:
        return f"the geometry cannot be read: {e}"
    return "the geometry cannot be read"


def _wkb_rings(data: bytes) -> list[list[tuple[float, float]]] | None:
    """The rings of a WKB Polygon or MultiPolygon (ISO or extended Z/M), None if it is not
    one or is truncated."""
    try:
        rings, _ = _wkb_polygonal(data, 0)
        return rings
    except (struct.error, ValueError):
        return None


def _wkb_polygonal(data: bytes, at: int) -> tuple[list[list[tuple[float, float]]], int]:
    order = "<" if data[at] == 1 else ">"
    (code,) = struct.unpack_from(order + "I", data, at + 1)
    at += 5
    dims = 2
    if code & 0x80000000:  # extended WKB: Z flag
        dims += 1
    if code & 0x40000000:  # extended WKB: M flag
        dims += 1
    if code & 0x20000000:  # extended WKB: SRID follows
        at += 4
    code &= 0x0FFFFFFF
    dims += {0: 0, 1: 1, 2: 1, 3: 2}[code // 1000]
    kind = code % 1000
    if kind == 3:
        (nrings,) = struct.unpack_from(order + "I", data, at)
        at += 4
        rings = []
        for _ in range(nrings):
            (npoints,) = struct.unpack_from(order + "I", data, at)
            at += 4
            flat = struct.unpack_from(order + "d" * (npoints * dims), data, at)
            at += 8 * npoints * dims
            rings.append([(flat[k], flat[k + 1]) for k in range(0, len(flat), dims)])
        return rings, at
    if kind == 6:
        (nparts,) = struct.unpack_from(order + "I", data, at)
        at += 4
        rings = []
        for _ in range(nparts):
            part, at = _wkb_polygonal(data, at)
            rings.extend(part)
        return rings, at
    raise ValueError("not polygonal")


_WKT_RING = re.compile(r"\(([^()]*)\)")


def _wkt_rings(text: str) -> list[list[tuple[float, float]]] | None:
    """The rings of a WKT polygon (the innermost parenthesised coordinate lists)."""
    if not text.lstrip().upper().startswith(("POLYGON", "MULTIPOLYGON")):
        return None
    rings = []
    for group in _WKT_RING.findall(text):
        points = []
        for pair in group.split(","):
            parts = pair.split()
            if len(parts) < 2:
                return None
            try:
                points.append((float(parts[0]), float(parts[1])))
            except ValueError:
                return None
        rings.append(points)
    return rings


def to_wgs84(geoms: Geometries, crs: CRS) -> tuple[Geometries, dict[int, str]]:
    """The polygons in WGS 84 longitude/latitude, rounded to :data:`DECIMALS`; rows whose
    coordinates do not transform to a place on Earth are refused (by index)."""
    if crs.equals(WGS84, ignore_axis_order=True):

        def move(coords: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            return np.round(coords, DECIMALS)
    else:
        transformer = Transformer.from_crs(crs, WGS84, always_xy=True)

        def move(coords: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            x, y = transformer.transform(coords[:, 0], coords[:, 1], errcheck=False)
            return np.round(np.column_stack([x, y]), DECIMALS)

    moved = np.asarray(shapely.transform(geoms, move), dtype=object)
    bounds = shapely.bounds(moved)
    present = ~shapely.is_missing(moved)
    with np.errstate(invalid="ignore"):
        inside = (
            np.isfinite(bounds).all(axis=1)
            & (bounds[:, 0] >= -180)
            & (bounds[:, 2] <= 180)
            & (bounds[:, 1] >= -90)
            & (bounds[:, 3] <= 90)
        )
    problems = {
        int(i): f"the polygon's coordinates are not a place on Earth in {crs_label(crs)}"
        for i in np.flatnonzero(present & ~inside)
    }
    return blank(moved, ~(present & inside)), problems


def inner_points(
    geoms: Geometries, crs: CRS
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """A point inside each polygon (``shapely.point_on_surface``, computed in the file's own
    coordinates, where the polygon was found valid), as WGS 84 longitude and latitude; NaN
    where there is no polygon."""
    points = shapely.point_on_surface(geoms)
    x = shapely.get_x(points)
    y = shapely.get_y(points)
    if not crs.equals(WGS84, ignore_axis_order=True):
        transformer = Transformer.from_crs(crs, WGS84, always_xy=True)
        x, y = transformer.transform(x, y, errcheck=False)
    return np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)


def geojson(geoms: Geometries) -> list[str | None]:
    """Compact GeoJSON geometry text of each polygon (None where there is none)."""
    return list(shapely.to_geojson(geoms))


def crs_label(crs: CRS) -> str:
    epsg = crs.to_epsg(min_confidence=70)
    return f"EPSG:{epsg}" if epsg is not None else crs.name


# --- districts and shared ground ---------------------------------------------------------


def _equal_area(geoms: Geometries) -> Geometries:
    transformer = Transformer.from_crs(WGS84, EQUAL_AREA, always_xy=True)

    def move(coords: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        x, y = transformer.transform(coords[:, 0], coords[:, 1])
        return np.column_stack([x, y])

    return np.asarray(shapely.transform(geoms, move), dtype=object)


def _parse(texts: Sequence[str], keys: Sequence[str]) -> Geometries:
    """GeoJSON geometry texts as shapely geometries (``ValueError`` naming the key of one
    that is not)."""
    geoms = np.asarray(shapely.from_geojson(list(texts), on_invalid="ignore"), dtype=object)
    missing = np.flatnonzero(shapely.is_missing(geoms))
    if len(missing):
        raise ValueError(f"{keys[int(missing[0])]}: not GeoJSON geometry text")
    return geoms


def district_of(parcels: pl.DataFrame, districts: Sequence[tuple[str, str]]) -> pl.Series:
    """For each parcel row, the code of the district whose polygon holds the parcel's inner
    point (its ``lon``, ``lat``); null outside every district and for a parcel without a point.

    Where districts overlap (a phase inside an improvement area, an area inside a district),
    the smallest district holding the point wins: the finer division is the one a parcel's
    rules follow. Areas are compared in an equal-area projection (:data:`EQUAL_AREA`); two
    districts of equal area: the one listed first wins.
    """
    lon = parcels["lon"].to_numpy().astype(np.float64)
    lat = parcels["lat"].to_numpy().astype(np.float64)
    result = np.full(len(lon), None, dtype=object)
    if districts:
        codes = [code for code, _ in districts]
        geoms = _parse([text for _, text in districts], codes)
        areas = shapely.area(_equal_area(geoms))
        # largest first, so that a smaller district assigned later overwrites it; among
        # equal areas the first listed is assigned last
        order = sorted(range(len(codes)), key=lambda i: (-areas[i], -i))
        usable = np.isfinite(lon) & np.isfinite(lat)
        for i in order:
            shapely.prepare(geoms[i])
            inside = usable & shapely.contains_xy(geoms[i], np.nan_to_num(lon), np.nan_to_num(lat))
            result[inside] = codes[i]
    return pl.Series("district", result.tolist(), dtype=pl.String)


def shared_ground(
    before: Mapping[str, str], after: Mapping[str, str], *, least: float = 0.05
) -> list[tuple[str, str, float]]:
    """Pairs ``(before_key, after_key, share)`` of polygons that overlap by at least ``least``
    of the smaller one's area, sorted by keys.

    The office lists splits (a parcel gone from the roll whose ground now carries several new
    ones) and merges (several gone, one new) from it. Areas are measured in an equal-area
    projection (:data:`EQUAL_AREA`), so shares are true proportions of ground; polygons that
    only touch (a common boundary) share nothing.

    Its cost is in reading the GeoJSON texts (GEOS reads about 30,000 a second): give it the
    parcels gone from the roll and the parcels new to it, not two whole rolls.
    """
    if not before or not after:
        return []
    before_keys = list(before)
    after_keys = list(after)
    old = _equal_area(_parse([before[k] for k in before_keys], before_keys))
    new = _equal_area(_parse([after[k] for k in after_keys], after_keys))
    tree = shapely.STRtree(new)
    i, j = tree.query(old, predicate="intersects")
    # neighbours that only touch (a common edge) have boxes meeting on a line: skip them
    box_old, box_new = shapely.bounds(old[i]), shapely.bounds(new[j])
    width = np.minimum(box_old[:, 2], box_new[:, 2]) - np.maximum(box_old[:, 0], box_new[:, 0])
    height = np.minimum(box_old[:, 3], box_new[:, 3]) - np.maximum(box_old[:, 1], box_new[:, 1])
    overlapping = (width > 0) & (height > 0)
    i, j = i[overlapping], j[overlapping]
    if len(i) == 0:
        return []
    common = shapely.area(shapely.intersection(old[i], new[j]))
    smaller = np.minimum(shapely.area(old[i]), shapely.area(new[j]))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(smaller > 0, common / smaller, 0.0)
    keep = share >= least
    pairs = [
        (before_keys[a], after_keys[b], float(s))
        for a, b, s in zip(i[keep], j[keep], share[keep], strict=True)
    ]
    return sorted(pairs)
