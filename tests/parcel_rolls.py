"""Generated county tax parcel rolls and sewer district polygons, for tests and benchmarks.

A roll has the shape of the State's tax parcel layer (the NYS_Tax_Parcels_Public field names,
docs/parcels.md): one Town of Wappinger (Dutchess County) parcel per row, in a grid of small
rectangular lots (5 to 12 vertices each) laid in NAD83 / New York East (ftUS), EPSG:2260,
around longitude -73.91, latitude 41.59. The SWIS code is 135689: Dutchess County's towns are
1320xx-1358xx and a town with a village inside it has its outside-village roll under xx89
(Red Hook 134889 and Washington 135889 are such); the code for the Town of Wappinger outside
the Village of Wappingers Falls could not be confirmed in the sources at hand, so 135689 is
the plausible one by that rule, not a checked one. Print keys follow Dutchess County's grid
numbers as the demo town writes them (``6157-02-123456``); the SBL is the print key's digits.

Formats: ``geojson`` (GDAL's legacy ``"crs"`` member names EPSG:2260), ``gpkg`` (layer
``tax_parcels``), ``shp.zip`` (a zipped Shapefile with its .prj; field names cut to ten
characters as the format does: PRIMARY_OW, CITYTOWN_N, PARCEL_ADD) and ``csv`` (the polygon as
WKT in a ``WKT`` column; a CSV file cannot say its CRS, so it is read with ``crs="EPSG:2260"``,
the command line's ``--crs``).

The three bad rows (``bad_rows=True``) are in every format: a row without SBL and print key,
a row of property class 999, and a row whose polygon ring does not close (the last point of
the ring is not the first: GDAL writes such a ring into GeoJSON, GeoPackage and Shapefile as
given, and the CSV carries it as WKT).
"""

from __future__ import annotations

import math
import struct
import tempfile
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import polars as pl
import shapely
from pyogrio.raw import read as ogr_read
from pyogrio.raw import write as ogr_write
from pyproj import Transformer

SWIS = "135689"
TOWN = "Wappinger"
CENTER = (-73.91, 41.59)
CRS = "EPSG:2260"
FORMATS = ("geojson", "gpkg", "shp.zip", "csv")
LAYER = "tax_parcels"

_TO_FEET = Transformer.from_crs("EPSG:4326", CRS, always_xy=True)
#: The centre in State Plane feet: the grid's middle column and row start here, and the
#: districts of :func:`write_districts` meet here.
CENTER_FT: tuple[float, float] = tuple(  # type: ignore[assignment]
    round(v, 2) for v in _TO_FEET.transform(*CENTER)
)

#: The roll's columns in file order (the State layer's names).
COLUMNS = (
    "SWIS",
    "SBL",
    "PRINT_KEY",
    "PROP_CLASS",
    "PARCEL_ADDR",
    "LOC_ST_NBR",
    "LOC_STREET",
    "LOC_ZIP",
    "CITYTOWN_NAME",
    "MUNI_NAME",
    "PRIMARY_OWNER",
    "ADD_OWNER",
    "MAIL_ADDR",
    "PO_BOX",
    "MAIL_CITY",
    "MAIL_STATE",
    "MAIL_ZIP",
    "CALC_ACRES",
    "ROLL_YR",
)

#: Property classes and their shares of the roll (mostly one- to three-family homes).
CLASSES = {
    "210": 0.66,
    "215": 0.02,
    "220": 0.08,
    "230": 0.03,
    "270": 0.01,
    "280": 0.005,
    "311": 0.05,
    "312": 0.01,
    "330": 0.015,
    "411": 0.02,
    "421": 0.01,
    "426": 0.004,
    "432": 0.005,
    "449": 0.005,
    "464": 0.015,
    "483": 0.01,
    "484": 0.015,
    "620": 0.004,
    "612": 0.002,
    "710": 0.005,
    "714": 0.007,
    "822": 0.003,
    "853": 0.001,
    "963": 0.002,
}

FIRST = (
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
    "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas",
    "Karen", "Christopher", "Sarah", "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Sandra",
    "Mark", "Ashley", "Steven", "Emily", "Paul", "Donna", "Andrew", "Michelle", "Kevin",
    "Carol", "Brian", "Amanda", "George", "Melissa", "Timothy", "Deborah", "Ronald", "Laura",
    "Jason", "Rebecca", "Edward", "Sharon", "Jeffrey", "Cynthia", "Ryan", "Kathleen", "Gary",
    "Angela", "Nicholas", "Shirley", "Eric", "Brenda", "Jonathan", "Pamela",
)  # fmt: skip
LAST = (
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
    "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor",
    "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez",
    "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
    "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall",
    "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Van Wyck", "Schenck", "Brinckerhoff",
    "DePeyster", "Storm", "Mesier", "Rapalje", "Verplanck", "Teller", "Kip", "O'Brien",
    "Kowalski", "Russo", "Esposito", "Murphy", "Sullivan", "Byrne", "Costa", "Amato", "Novak",
)  # fmt: skip
STREETS = (
    "Myers Corners Rd", "All Angels Hill Rd", "Old Hopewell Rd", "New Hackensack Rd",
    "Cedar Hill Rd", "Kent Rd", "Chelsea Rd", "Middlebush Rd", "Osborne Hill Rd", "Widmer Rd",
    "Robinson Ln", "Montfort Rd", "Smithtown Rd", "Ketcham Rd", "Pye Ln", "Route 9D",
    "Route 9", "Spook Hill Rd", "Losee Rd", "Wheeler Hill Rd", "Maloney Rd", "Carroll Dr",
    "Diddell Rd", "Brothers Rd", "Lake Oniad Dr", "Bowdoin Ln", "Scenic Dr", "Alpine Dr",
)  # fmt: skip
FIRMS = ("Holdings LLC", "Realty LLC", "Properties Inc", "Associates LP", "Development Corp")
MIDDLE = "ABCDEFGHJKLMNPRSTW"
#: Where an absentee owner's mail goes: street (``{n}`` a number), city, state, ZIP code.
ELSEWHERE = (
    ("{n} Academy Street", "Poughkeepsie", "NY", "12601"),
    ("{n} Main Street", "Fishkill", "NY", "12524"),
    ("{n} West 86th Street", "New York", "NY", "10024"),
    ("{n} Seventh Avenue", "Brooklyn", "NY", "11215"),
    ("{n} Federal Road", "Danbury", "CT", "06811"),
    ("{n} Washington Street", "Hoboken", "NJ", "07030"),
    ("{n} Palmetto Park Road", "Boca Raton", "FL", "33432"),
    ("", "Wappingers Falls", "NY", "12590"),  # a post office box
)
#: Quadrant of the town (west?, south?) → the post office serving it.
POSTAL = {
    (True, True): ("Wappingers Falls", "12590"),
    (True, False): ("Wappingers Falls", "12590"),
    (False, False): ("Poughkeepsie", "12603"),
    (False, True): ("Hopewell Junction", "12533"),
}


@dataclass
class Roll:
    """A roll being built: one array per column (object arrays, numbers for CALC_ACRES and
    ROLL_YR) and one WKB polygon per row."""

    fields: dict[str, npt.NDArray[np.object_]]
    wkb: npt.NDArray[np.object_]

    def __len__(self) -> int:
        return len(self.wkb)

    def take(self, index: npt.NDArray[np.int64]) -> Roll:
        return Roll({k: v[index] for k, v in self.fields.items()}, self.wkb[index])

    @staticmethod
    def concat(parts: list[Roll]) -> Roll:
        return Roll(
            {k: np.concatenate([p.fields[k] for p in parts]) for k in COLUMNS},
            np.concatenate([p.wkb for p in parts]),
        )


# --- the grid ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    width: float
    x0: float
    y0: float

    @staticmethod
    def of(cells: int) -> Grid:
        cols = max(2, math.ceil(math.sqrt(2 * cells)))
        rows = max(2, math.ceil(cells / cols))
        width = round(min(100.0, 20000.0 / cols), 2)
        # x = CENTER_FT[0] and y = CENTER_FT[1] fall on cell edges, never inside a lot
        x0 = CENTER_FT[0] - (cols // 2) * width
        y0 = CENTER_FT[1] - (rows // 2) * 2 * width
        return Grid(cols, rows, width, round(x0, 2), round(y0, 2))

    @property
    def height(self) -> float:
        return 2 * self.width

    def corner(
        self, cell: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        return (
            self.x0 + (cell % self.cols) * self.width,
            self.y0 + (cell // self.cols) * self.height,
        )


def _lots(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    w: float,
    h: float,
    extra: npt.NDArray[np.int64],
) -> npt.NDArray[np.object_]:
    """Rectangles (counter-clockwise from the lower left corner) with ``extra`` more points on
    their front (lower) edge: 5 to 12 coordinates each, as WKB."""
    counts = 5 + extra
    owner = np.repeat(np.arange(len(x)), counts)
    start = np.repeat(np.cumsum(counts) - counts, counts)
    j = np.arange(counts.sum()) - start
    k = extra[owner]
    front = j <= k + 1
    dx = np.where(front, w * j / (k + 1), np.where(j == k + 2, w, 0.0))
    dy = np.where(front | (j == k + 4), 0.0, h)
    coords = np.round(np.column_stack([x[owner] + dx, y[owner] + dy]), 2)
    rings = shapely.linearrings(coords, indices=owner)
    return np.asarray(shapely.to_wkb(shapely.polygons(rings)), dtype=object)


def _unclosed(x: float, y: float, w: float, h: float) -> bytes:
    """WKB of a polygon whose only ring stops one point short of closing."""
    points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    out = struct.pack("<BII", 1, 3, 1) + struct.pack("<I", len(points))
    for px, py in points:
        out += struct.pack("<dd", round(px, 2), round(py, 2))
    return out


def _key(cell: npt.NDArray[np.int64], grid: Grid) -> tuple[list[str], list[str]]:
    c = cell % grid.cols
    r = cell // grid.cols
    sheet = 6157 + c // 60 + 100 * (r // 60)
    section = 1 + (c // 30) % 2 + 2 * ((r // 30) % 2)
    lot = 100000 + (c % 60) * 1000 + (r % 60) * 10
    keys = [f"{s}-{sec:02d}-{lt:06d}" for s, sec, lt in zip(sheet, section, lot, strict=True)]
    return keys, [k.replace("-", "") for k in keys]


# --- people ------------------------------------------------------------------------------


def _people(rng: np.random.Generator, n: int) -> list[str]:
    first = rng.integers(0, len(FIRST), n)
    last = rng.integers(0, len(LAST), n)
    middle = rng.integers(0, len(MIDDLE), n)
    return [
        f"{LAST[a]}, {FIRST[b]} {MIDDLE[m]}." for a, b, m in zip(last, first, middle, strict=True)
    ]


def _elsewhere(
    rng: np.random.Generator, n: int
) -> list[tuple[str | None, str | None, str, str, str]]:
    """``n`` mailing addresses away from the parcel: (street, PO box, city, state, ZIP)."""
    where = rng.integers(0, len(ELSEWHERE), n)
    numbers = rng.integers(2, 2000, n)
    out: list[tuple[str | None, str | None, str, str, str]] = []
    for w, num in zip(where, numbers, strict=True):
        street, city, state, zip_code = ELSEWHERE[w]
        if street:
            out.append((street.format(n=num), None, city, state, zip_code))
        else:
            out.append((None, f"PO Box {num}", city, state, zip_code))
    return out


def _roll(parcels: int, year: int, seed: int, bad_rows: bool) -> Roll:
    rng = np.random.default_rng(seed)
    grid = Grid.of(parcels + 3)
    n = parcels + (3 if bad_rows else 0)
    cell = np.arange(n, dtype=np.int64)
    x, y = grid.corner(cell)
    wkb = _lots(x, y, grid.width, grid.height, rng.integers(0, 8, n))
    print_key, sbl = _key(cell, grid)
    c, r = cell % grid.cols, cell // grid.cols
    number = 10 + 2 * c + (r % 2) + 1000 * (r // len(STREETS))
    street = [STREETS[i % len(STREETS)] for i in r]
    address = [f"{nb} {st}" for nb, st in zip(number, street, strict=True)]
    west = x + grid.width / 2 < CENTER_FT[0]
    south = y + grid.height / 2 < CENTER_FT[1]
    postal = [POSTAL[bool(a), bool(b)] for a, b in zip(west, south, strict=True)]
    classes = rng.choice(
        list(CLASSES), n, p=np.array(list(CLASSES.values())) / sum(CLASSES.values())
    )

    # owners: most own one parcel; a pool of firms and persons owns several each
    owner = np.array(_people(rng, n), dtype=object)
    add_owner = np.where(rng.random(n) < 0.3, np.array(_people(rng, n), dtype=object), None)
    pool = max(2, parcels // 40)
    pool_names = [
        f"{STREETS[i % len(STREETS)].rsplit(' ', 1)[0]} {FIRMS[i % len(FIRMS)]}" if i % 3 else name
        for i, name in enumerate(_people(rng, pool))
    ]
    pool_mail = _elsewhere(rng, pool)
    member = rng.random(n) < 0.2
    which = np.minimum(rng.zipf(1.6, n) - 1, pool - 1)
    absentee = rng.random(n) < 0.12
    away = _elsewhere(rng, n)
    mail_addr = np.empty(n, dtype=object)
    po_box = np.empty(n, dtype=object)
    mail_city = np.empty(n, dtype=object)
    mail_state = np.empty(n, dtype=object)
    mail_zip = np.empty(n, dtype=object)
    for i in range(n):
        if member[i]:
            owner[i] = pool_names[which[i]]
            add_owner[i] = None
            mail = pool_mail[which[i]]
        elif absentee[i]:
            mail = away[i]
        else:
            mail = (address[i], None, postal[i][0], "NY", postal[i][1])
        mail_addr[i], po_box[i], mail_city[i], mail_state[i], mail_zip[i] = mail
    fields: dict[str, npt.NDArray[np.object_]] = {
        "SWIS": np.full(n, SWIS, dtype=object),
        "SBL": np.array(sbl, dtype=object),
        "PRINT_KEY": np.array(print_key, dtype=object),
        "PROP_CLASS": np.asarray(classes, dtype=object),
        "PARCEL_ADDR": np.array(address, dtype=object),
        "LOC_ST_NBR": np.array([str(v) for v in number], dtype=object),
        "LOC_STREET": np.array(street, dtype=object),
        "LOC_ZIP": np.array([p[1] for p in postal], dtype=object),
        "CITYTOWN_NAME": np.full(n, TOWN, dtype=object),
        "MUNI_NAME": np.full(n, TOWN, dtype=object),
        "PRIMARY_OWNER": owner,
        "ADD_OWNER": add_owner,
        "MAIL_ADDR": mail_addr,
        "PO_BOX": po_box,
        "MAIL_CITY": mail_city,
        "MAIL_STATE": mail_state,
        "MAIL_ZIP": mail_zip,
        "CALC_ACRES": np.full(n, round(grid.width * grid.height / 43560, 3), dtype=object),
        "ROLL_YR": np.full(n, year, dtype=object),
    }
    roll = Roll(fields, wkb)
    if not bad_rows:
        return roll
    # the last three cells become the bad rows, placed at bad_positions() in the file
    no_key, bad_class, open_ring = parcels, parcels + 1, parcels + 2
    roll.fields["SBL"][no_key] = None
    roll.fields["PRINT_KEY"][no_key] = None
    roll.fields["PROP_CLASS"][bad_class] = "999"
    bx, by = grid.corner(np.array([open_ring]))
    roll.wkb[open_ring] = _unclosed(float(bx[0]), float(by[0]), grid.width, grid.height)
    order = list(range(parcels))
    for position, bad in zip(bad_positions(parcels), (no_key, bad_class, open_ring), strict=True):
        order.insert(position, bad)
    return roll.take(np.array(order, dtype=np.int64))


def bad_positions(parcels: int) -> tuple[int, int, int]:
    """The 0-based places of the three bad rows in a roll of ``parcels`` good ones."""
    total = parcels + 3
    return total // 4, total // 2, (3 * total) // 4


def bad_rows(parcels: int, fmt: str) -> dict[int, str]:
    """The refusals :func:`write_roll` plants: row number → field (missing key, unknown
    class, unclosed ring)."""
    offset = 2 if fmt == "csv" else 1
    fields = ("SBL", "PROP_CLASS", "WKT" if fmt == "csv" else "geometry")
    return {p + offset: f for p, f in zip(bad_positions(parcels), fields, strict=True)}


# --- writing and reading back ------------------------------------------------------------


def _suffix(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r}: one of {FORMATS}")
    return "." + fmt


def _wkt(wkb: npt.NDArray[np.object_]) -> list[str]:
    geoms = shapely.from_wkb(wkb, on_invalid="ignore")
    texts = list(shapely.to_wkt(geoms, rounding_precision=2, trim=True))
    for i in np.flatnonzero(shapely.is_missing(geoms)):  # an unclosed ring: written by hand
        ring = _ring_of(wkb[i])
        texts[i] = "POLYGON ((" + ", ".join(f"{px:.2f} {py:.2f}" for px, py in ring) + "))"
    return texts


def _ring_of(data: bytes) -> list[tuple[float, float]]:
    (count,) = struct.unpack_from("<I", data, 9)
    flat = struct.unpack_from("<" + "d" * (2 * count), data, 13)
    return [(flat[k], flat[k + 1]) for k in range(0, len(flat), 2)]


def _write(roll: Roll, path: Path, fmt: str) -> Path:
    if fmt == "csv":
        frame = pl.DataFrame(
            {
                **{
                    k: [None if v is None else str(v) for v in roll.fields[k]]
                    for k in COLUMNS
                    if k not in ("CALC_ACRES", "ROLL_YR")
                },
                "CALC_ACRES": [f"{float(v):.3f}" for v in roll.fields["CALC_ACRES"]],
                "ROLL_YR": [str(v) for v in roll.fields["ROLL_YR"]],
                "WKT": _wkt(roll.wkb),
            },
            schema=dict.fromkeys((*COLUMNS, "WKT"), pl.String),
        )
        frame.write_csv(path)
        return path
    if fmt == "geojson":
        return _write_geojson(roll, path)
    arrays = [
        np.asarray(roll.fields[k], dtype=np.float64)
        if k == "CALC_ACRES"
        else np.asarray(roll.fields[k], dtype=np.int32)
        if k == "ROLL_YR"
        else roll.fields[k]
        for k in COLUMNS
    ]
    driver = {"gpkg": "GPKG", "shp.zip": "ESRI Shapefile"}[fmt]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # field names cut to ten characters
        if fmt != "shp.zip":
            ogr_write(
                str(path), roll.wkb, arrays, list(COLUMNS), layer=LAYER,
                geometry_type="Polygon", crs=CRS, driver=driver,
            )  # fmt: skip
            return path
        with tempfile.TemporaryDirectory() as tmp:
            shp = Path(tmp) / f"{LAYER}.shp"
            ogr_write(
                str(shp), roll.wkb, arrays, list(COLUMNS), geometry_type="Polygon", crs=CRS,
                driver=driver, encoding="UTF-8",
            )  # fmt: skip
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
                for part in sorted(Path(tmp).iterdir()):
                    z.write(part, part.name)
    return path


def _write_geojson(roll: Roll, path: Path) -> Path:
    """GeoJSON as GDAL writes it for a layer in EPSG:2260 (the legacy ``"crs"`` member), the
    text built column-wise: GDAL's own writer takes several times as long for a large roll."""
    frame = pl.DataFrame(
        {
            **{k: roll.fields[k].tolist() for k in COLUMNS if k not in ("CALC_ACRES", "ROLL_YR")},
            "CALC_ACRES": np.asarray(roll.fields["CALC_ACRES"], dtype=np.float64),
            "ROLL_YR": np.asarray(roll.fields["ROLL_YR"], dtype=np.int64),
        },
        schema_overrides=dict.fromkeys(
            (k for k in COLUMNS if k not in ("CALC_ACRES", "ROLL_YR")), pl.String
        ),
    ).select(COLUMNS)
    properties = frame.select(pl.struct(pl.all()).struct.json_encode()).to_series().to_list()
    geoms = shapely.from_wkb(roll.wkb, on_invalid="ignore")
    texts = list(shapely.to_geojson(geoms))
    for i in np.flatnonzero(shapely.is_missing(geoms)):  # an unclosed ring: written by hand
        ring = ",".join(f"[{px:.2f},{py:.2f}]" for px, py in _ring_of(roll.wkb[i]))
        texts[i] = '{"type":"Polygon","coordinates":[[' + ring + "]]}"
    head = (
        '{"type":"FeatureCollection","name":"' + LAYER + '",'
        '"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2260"}},'
        '"features":[\n'
    )
    body = ",\n".join(
        '{"type":"Feature","properties":' + p + ',"geometry":' + g + "}"
        for p, g in zip(properties, texts, strict=True)
    )
    path.write_text(head + body + "\n]}\n", encoding="utf-8")
    return path


def _read(path: Path) -> Roll:
    """A roll written by :func:`_write`, read back raw (not through the reader under test)."""
    if path.name.endswith(".csv"):
        frame = pl.read_csv(path, infer_schema=False)
        fields = {k: np.array(frame[k].to_list(), dtype=object) for k in COLUMNS}
        fields["CALC_ACRES"] = np.array([float(v) for v in frame["CALC_ACRES"]], dtype=object)
        fields["ROLL_YR"] = np.array([int(v) for v in frame["ROLL_YR"]], dtype=object)
        geoms = shapely.from_wkt(frame["WKT"].to_list(), on_invalid="ignore")
        wkb = np.array([None if g is None else shapely.to_wkb(g) for g in geoms], dtype=object)
        return Roll(fields, wkb)
    target = f"/vsizip/{path.resolve()}/{LAYER}.shp" if path.name.endswith(".zip") else str(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        meta, _, wkb, arrays = ogr_read(target)
    by_name = dict(zip([str(f) for f in meta["fields"]], arrays, strict=True))
    fields = {}
    for k in COLUMNS:
        values = by_name[k] if k in by_name else by_name[k[:10]]
        # numbers as Python numbers, text as it is
        fields[k] = values if values.dtype == object else np.array(values.tolist(), dtype=object)
    return Roll(fields, np.asarray(wkb, dtype=object))


def write_roll(
    directory: Path,
    *,
    parcels: int,
    year: int = 2026,
    seed: int = 7,
    fmt: str = "geojson",
    bad_rows: bool = True,
) -> Path:
    """Write a roll of ``parcels`` good parcels (plus the three bad rows) as
    ``roll-<year><suffix>`` in ``directory``."""
    if parcels < 1:
        raise ValueError("a roll needs at least one parcel")
    path = Path(directory) / f"roll-{year}{_suffix(fmt)}"
    return _write(_roll(parcels, year, seed, bad_rows), path, fmt)


def _format_of(path: Path) -> str:
    for fmt in FORMATS:
        if path.name.endswith("." + fmt):
            return fmt
    raise ValueError(f"{path.name}: not a roll written by write_roll")


def next_year(
    previous: Path,
    directory: Path,
    *,
    owner_changes: int = 300,
    seed: int = 8,
    fmt: str | None = None,
) -> Path:
    """The following year's roll of ``previous`` (a roll of :func:`write_roll`): its bad rows
    gone; exactly ``owner_changes`` parcels sold (a new PRIMARY_OWNER and a new mailing
    address, ADD_OWNER cleared); one parcel split into two new parcels on its ground (its
    print key gone); two side-by-side parcels merged into one new parcel (both keys gone).
    Every other value of every other parcel is the previous year's, except ROLL_YR, the year
    of the roll, which counts on. ``fmt``: the previous roll's format unless given."""
    previous = Path(previous)
    fmt = fmt or _format_of(previous)
    rng = np.random.default_rng(seed)
    roll = _read(previous)
    readable = ~shapely.is_missing(shapely.from_wkb(roll.wkb, on_invalid="ignore"))
    good = (
        readable
        & np.array([k is not None for k in roll.fields["PRINT_KEY"]])
        & (roll.fields["PROP_CLASS"] != "999")
    )
    roll = roll.take(np.flatnonzero(good))
    year = int(roll.fields["ROLL_YR"][0]) + 1
    roll.fields["ROLL_YR"] = np.full(len(roll), year, dtype=object)
    bounds = shapely.bounds(shapely.from_wkb(roll.wkb))
    homes = np.flatnonzero(roll.fields["PROP_CLASS"] == "210")
    # the merge: two lots side by side (same row, the second starts where the first ends)
    corners = np.round(bounds, 2).tolist()
    right_of = {(corners[i][0], corners[i][1]): int(i) for i in homes}
    pairs = [
        (int(i), right_of[(corners[i][2], corners[i][1])])
        for i in homes
        if (corners[i][2], corners[i][1]) in right_of
    ]
    if len(pairs) < 2 or len(roll) < owner_changes + 3:
        raise ValueError(f"{previous.name}: too small a roll for a split, a merge and the sales")
    a, b = pairs[int(rng.integers(0, len(pairs)))]
    split = int(rng.choice([i for i in homes if i not in (a, b)]))
    sold = rng.choice(
        np.setdiff1d(np.arange(len(roll)), [a, b, split]), owner_changes, replace=False
    )
    _sell(roll, sold, rng)

    def lot(key: str, plus: int) -> str:
        sheet, section, number = key.split("-")
        return f"{sheet}-{section}-{int(number) + plus:06d}"

    def like(i: int, key: str, geom: bytes, acres: float) -> Roll:
        part = roll.take(np.array([i]))
        part.fields["PRINT_KEY"][0] = key
        part.fields["SBL"][0] = key.replace("-", "")
        part.fields["CALC_ACRES"][0] = round(acres, 3)
        part.wkb[0] = geom
        return part

    x0, y0, x1, y1 = bounds[split]
    half = (y1 - y0) / 2
    acres = float(roll.fields["CALC_ACRES"][split])
    key = roll.fields["PRINT_KEY"][split]
    lower = like(split, lot(key, 1), shapely.to_wkb(shapely.box(x0, y0, x1, y0 + half)), acres / 2)
    upper = like(split, lot(key, 2), shapely.to_wkb(shapely.box(x0, y0 + half, x1, y1)), acres / 2)
    upper.fields["PROP_CLASS"][0] = "311"  # the new lot is vacant
    upper.fields["PARCEL_ADDR"][0] = None
    upper.fields["LOC_ST_NBR"][0] = None
    ax0, ay0, _, ay1 = bounds[a]
    bx1 = bounds[b][2]
    mx = bounds[a][2]
    merged_ring = [(ax0, ay0), (mx, ay0), (bx1, ay0), (bx1, ay1), (mx, ay1), (ax0, ay1), (ax0, ay0)]
    merged = like(
        a,
        lot(roll.fields["PRINT_KEY"][a], 5),
        shapely.to_wkb(shapely.Polygon(merged_ring)),
        float(roll.fields["CALC_ACRES"][a]) + float(roll.fields["CALC_ACRES"][b]),
    )
    parts: list[Roll] = []
    start = 0
    for i, replacement in sorted(
        [(split, [lower, upper]), (a, [merged]), (b, [])], key=lambda t: t[0]
    ):
        parts.append(roll.take(np.arange(start, i)))
        parts.extend(replacement)
        start = i + 1
    parts.append(roll.take(np.arange(start, len(roll))))
    path = Path(directory) / f"roll-{year}{_suffix(fmt)}"
    return _write(Roll.concat(parts), path, fmt)


def _sell(roll: Roll, sold: npt.NDArray[np.int64], rng: np.random.Generator) -> None:
    """New owners for the ``sold`` rows: a new name, and mail where it did not go before
    (to the parcel if it went elsewhere, elsewhere if it went to the parcel)."""
    buyers = _people(rng, len(sold))
    away = _elsewhere(rng, len(sold))
    f = roll.fields
    for k, i in enumerate(sold):
        name = buyers[k]
        while name == f["PRIMARY_OWNER"][i]:
            name = _people(rng, 1)[0]
        f["PRIMARY_OWNER"][i] = name
        f["ADD_OWNER"][i] = None
        at_parcel = f["MAIL_ADDR"][i] is not None and f["MAIL_ADDR"][i] == f["PARCEL_ADDR"][i]
        if at_parcel or f["PARCEL_ADDR"][i] is None:
            mail = away[k]
            if mail[0] is not None and mail[0] == f["MAIL_ADDR"][i]:
                mail = (mail[0] + " Apt 2", *mail[1:])
        else:
            city, zip_code = {v[1]: v for v in POSTAL.values()}[f["LOC_ZIP"][i]]
            mail = (f["PARCEL_ADDR"][i], None, city, "NY", zip_code)
        (
            f["MAIL_ADDR"][i],
            f["PO_BOX"][i],
            f["MAIL_CITY"][i],
            f["MAIL_STATE"][i],
            f["MAIL_ZIP"][i],
        ) = mail


# --- districts ---------------------------------------------------------------------------

#: The districts of :func:`write_districts`: code (the demo town's service area codes), name,
#: and the part of the town it covers (west/east, south/north of the centre; None: both).
DISTRICTS = (
    ("wsttia", "Wappinger Sewer Transmission/Treatment Improvement Area", ("west", None)),
    ("wsttia-phase-1", "WSTTIA Phase I", ("west", "south")),
    ("united-wappinger-sd", "United Wappinger Sewer District", ("east", "north")),
)
#: How far the district polygons reach from the centre (feet): past any generated roll.
REACH = 30000.0


def expected_district(x: float, y: float) -> str | None:
    """The district :func:`sewer_io.parcels.district_of` should give a point in State Plane
    feet: Phase I inside the improvement area wins where they overlap (the smaller one); the
    south-east quarter is outside every district."""
    west = x < CENTER_FT[0]
    south = y < CENTER_FT[1]
    if west:
        return "wsttia-phase-1" if south else "wsttia"
    return None if south else "united-wappinger-sd"


def _district_polygon(side: tuple[str, str | None]) -> shapely.Polygon:
    cx, cy = CENTER_FT
    x0, x1 = (cx - REACH, cx) if side[0] == "west" else (cx, cx + REACH)
    y0, y1 = (cy - REACH, cy + REACH)
    if side[1] == "south":
        y1 = cy
    elif side[1] == "north":
        y0 = cy
    polygon = shapely.segmentize(shapely.box(x0, y0, x1, y1), 500.0)
    assert isinstance(polygon, shapely.Polygon)
    return polygon


def write_districts(directory: Path, *, fmt: str = "geojson") -> Path:
    """The sewer districts over the generated rolls, in EPSG:2260, as ``districts<suffix>``
    (columns CODE and NAME): they cover three quarters of any roll of :func:`write_roll`."""
    path = Path(directory) / f"districts{_suffix(fmt)}"
    wkb = np.array(
        [shapely.to_wkb(_district_polygon(side)) for *_, side in DISTRICTS], dtype=object
    )
    codes = np.array([d[0] for d in DISTRICTS], dtype=object)
    names = np.array([d[1] for d in DISTRICTS], dtype=object)
    if fmt == "csv":
        pl.DataFrame({"CODE": codes, "NAME": names, "WKT": _wkt(wkb)}).write_csv(path)
        return path
    driver = {"geojson": "GeoJSON", "gpkg": "GPKG", "shp.zip": "ESRI Shapefile"}[fmt]
    if fmt != "shp.zip":
        ogr_write(str(path), wkb, [codes, names], ["CODE", "NAME"], layer="districts",
                  geometry_type="Polygon", crs=CRS, driver=driver)  # fmt: skip
        return path
    with tempfile.TemporaryDirectory() as tmp:
        shp = Path(tmp) / "districts.shp"
        ogr_write(str(shp), wkb, [codes, names], ["CODE", "NAME"], geometry_type="Polygon",
                  crs=CRS, driver=driver)  # fmt: skip
        with zipfile.ZipFile(path, "w") as z:
            for part in sorted(Path(tmp).iterdir()):
                z.write(part, part.name)
    return path
