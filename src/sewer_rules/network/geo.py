"""Coordinate reference systems and lengths, without pyproj.

What is supported, and how (each choice is exact or states its error):

- **Geographic** (``EPSG:4326``, ``urn:ogc:def:crs:EPSG::4326``, ``urn:ogc:def:crs:OGC:1.3:CRS84``,
  or no ``crs`` member, as RFC 7946 GeoJSON): positions are *longitude, latitude* in degrees on
  WGS 84 (GeoJSON's axis order, also for EPSG:4326). Segment lengths are geodesic on the WGS 84
  ellipsoid: up to 1 km by the local (mid-latitude radii of curvature) formula, whose error is
  below 0.1 mm at 1 km; longer segments by Vincenty's inverse formula (error below 1 mm). Not
  spherical haversine, which is off by 0.1–0.3 % at Wappinger's latitude.
- **Projected, planar** (the New York State Plane zones and UTM zones listed in
  :data:`PLANAR_CRS`, or any code declared with its unit): coordinates are taken as a plane in
  the CRS's linear unit — metre, international foot (0.3048 m) or US survey foot (1200/3937 m,
  the unit of EPSG:2260–2263), converted through pint. Lengths are grid distances: the
  projection's scale factor (within 1:10,000 in a State Plane zone) is not applied.
- **Web Mercator** (``EPSG:3857``): converted exactly to longitude/latitude by the spherical
  Mercator inverse, then measured as geographic (its grid distances are ~34 % long here).

Anything else is refused with a message saying how to declare the unit (``planar:m``,
``planar:ft``, ``planar:ftUS``, or a ``"units"`` member beside the CRS name).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from sewer_rules.units import registry

#: WGS 84 ellipsoid
WGS84_A = 6378137.0
WGS84_F = 1 / 298.257223563
WGS84_B = WGS84_A * (1 - WGS84_F)
WGS84_E2 = WGS84_F * (2 - WGS84_F)
#: Web Mercator sphere radius (EPSG:3857)
MERCATOR_R = 6378137.0
#: below this, the local formula is used; above, Vincenty's
LOCAL_FORMULA_MAX_M = 1000.0

Point = tuple[float, float]
FloatArray = npt.NDArray[np.float64]
CRSKind = Literal["geographic", "planar", "web_mercator"]


class CRSError(ValueError):
    """A coordinate reference system this software cannot measure in exactly."""


@dataclass(frozen=True)
class CRS:
    """How a file's coordinates are read: ``name`` as declared, ``kind``, and the planar unit."""

    name: str
    kind: CRSKind
    unit: str  # "degree", "m", "ft" or "ftUS"
    label: str
    metres_per_unit: Fraction = Fraction(1)

    @property
    def length_method(self) -> str:
        if self.kind == "planar":
            return f"planar grid distance in {self.unit}, converted to metres (no scale factor)"
        return "geodesic on the WGS 84 ellipsoid (local formula ≤ 1 km, Vincenty beyond)"

    def as_dict(self) -> dict[str, str]:
        return {
            "name": self.name,
            "kind": self.kind,
            "unit": self.unit,
            "label": self.label,
            "lengths": self.length_method,
        }

    # --- validation ---------------------------------------------------------------------------

    def position_problem(self, x: float, y: float) -> str | None:
        """Why a position cannot be in this CRS (None when it can)."""
        if not (math.isfinite(x) and math.isfinite(y)):
            return "coordinates must be finite numbers"
        if self.kind == "geographic":
            hint = "x is longitude, y latitude; projected coordinates need their CRS declared"
            if not -180 <= x <= 180:
                return f"longitude {x} is outside -180..180 ({hint})"
            if not -90 <= y <= 90:
                return f"latitude {y} is outside -90..90 ({hint})"
        if self.kind == "web_mercator" and max(abs(x), abs(y)) > 20037508.342789244:
            return "outside the Web Mercator extent"
        return None

    # --- lengths ------------------------------------------------------------------------------

    def segment_length_m(self, p: Point, q: Point) -> float:
        return self.segment_lengths_m([p, q])[0]

    def segment_lengths_m(self, coords: Sequence[Point]) -> list[float]:
        if len(coords) < 2:
            return []
        arr = np.asarray(coords, dtype=np.float64)
        return [float(v) for v in self.distances_m(arr[:-1], arr[1:])]

    def distances_m(self, p: FloatArray, q: FloatArray) -> FloatArray:
        """Lengths in metres of the segments ``p[i]``–``q[i]`` (arrays of shape (k, 2))."""
        if self.kind == "planar":
            d: FloatArray = np.hypot(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1])
            return d * float(self.metres_per_unit)
        if self.kind == "web_mercator":
            p, q = _mercator_to_lonlat(p), _mercator_to_lonlat(q)
        lat_m = np.radians((p[:, 1] + q[:, 1]) / 2)
        s = np.sin(lat_m)
        w2 = 1 - WGS84_E2 * s * s
        n = WGS84_A / np.sqrt(w2)
        m = WGS84_A * (1 - WGS84_E2) / (w2 * np.sqrt(w2))
        dn = m * np.radians(q[:, 1] - p[:, 1])
        de = n * np.cos(lat_m) * np.radians(q[:, 0] - p[:, 0])
        out: FloatArray = np.hypot(dn, de)
        for i in np.flatnonzero(out > LOCAL_FORMULA_MAX_M):
            out[i] = vincenty_m(float(p[i, 0]), float(p[i, 1]), float(q[i, 0]), float(q[i, 1]))
        return out

    def lonlat(self, p: Point) -> Point:
        """Longitude and latitude in degrees (geographic and Web Mercator only)."""
        if self.kind == "geographic":
            return p
        if self.kind == "web_mercator":
            lon = math.degrees(p[0] / MERCATOR_R)
            lat = math.degrees(2 * math.atan(math.exp(p[1] / MERCATOR_R)) - math.pi / 2)
            return lon, lat
        raise CRSError(f"{self.name} is planar: it has no longitude/latitude here")

    def local_plane(self, origin: Point) -> LocalPlane:
        """A plane in metres around ``origin`` for projecting points onto lines nearby."""
        if self.kind == "planar":
            return LocalPlane(
                self, origin, float(self.metres_per_unit), float(self.metres_per_unit)
            )
        lon0, lat0 = self.lonlat(origin)
        m, n = radii_of_curvature(lat0)
        sx = math.radians(1) * n * math.cos(math.radians(lat0))
        return LocalPlane(self, (lon0, lat0), sx, math.radians(1) * m)


@dataclass(frozen=True)
class LocalPlane:
    """x, y in metres around an origin (exact for planar CRSs; local tangent plane otherwise)."""

    crs: CRS
    origin: Point
    sx: float
    sy: float

    def xy(self, p: Point) -> Point:
        if self.crs.kind == "web_mercator":
            p = self.crs.lonlat(p)
        return (p[0] - self.origin[0]) * self.sx, (p[1] - self.origin[1]) * self.sy


def _mercator_to_lonlat(p: FloatArray) -> FloatArray:
    lon = np.degrees(p[:, 0] / MERCATOR_R)
    lat = np.degrees(2 * np.arctan(np.exp(p[:, 1] / MERCATOR_R)) - np.pi / 2)
    return np.column_stack([lon, lat])


def radii_of_curvature(lat_deg: float) -> tuple[float, float]:
    """Meridional (M) and prime-vertical (N) radii of curvature of WGS 84 at a latitude."""
    s = math.sin(math.radians(lat_deg))
    w2 = 1 - WGS84_E2 * s * s
    n = WGS84_A / math.sqrt(w2)
    m = WGS84_A * (1 - WGS84_E2) / (w2 * math.sqrt(w2))
    return m, n


def local_distance_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Short geodesic on WGS 84 by the mid-latitude radii of curvature (error < 0.1 mm at 1 km)."""
    lat_m = (lat1 + lat2) / 2
    m, n = radii_of_curvature(lat_m)
    dn = m * math.radians(lat2 - lat1)
    de = n * math.cos(math.radians(lat_m)) * math.radians(lon2 - lon1)
    return math.hypot(dn, de)


def vincenty_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Vincenty's inverse formula on WGS 84 (1975); raises :class:`CRSError` if it diverges."""
    if lon1 == lon2 and lat1 == lat2:
        return 0.0
    a, b, f = WGS84_A, WGS84_B, WGS84_F
    u1 = math.atan((1 - f) * math.tan(math.radians(lat1)))
    u2 = math.atan((1 - f) * math.tan(math.radians(lat2)))
    big_l = math.radians(lon2 - lon1)
    lam = big_l
    sin_u1, cos_u1, sin_u2, cos_u2 = math.sin(u1), math.cos(u1), math.sin(u2), math.cos(u2)
    for _ in range(200):
        sin_lam, cos_lam = math.sin(lam), math.cos(lam)
        sin_sigma = math.hypot(cos_u2 * sin_lam, cos_u1 * sin_u2 - sin_u1 * cos_u2 * cos_lam)
        if sin_sigma == 0:
            return 0.0
        cos_sigma = sin_u1 * sin_u2 + cos_u1 * cos_u2 * cos_lam
        sigma = math.atan2(sin_sigma, cos_sigma)
        sin_alpha = cos_u1 * cos_u2 * sin_lam / sin_sigma
        cos2_alpha = 1 - sin_alpha * sin_alpha
        cos_2sm = cos_sigma - 2 * sin_u1 * sin_u2 / cos2_alpha if cos2_alpha else 0.0
        c = f / 16 * cos2_alpha * (4 + f * (4 - 3 * cos2_alpha))
        lam_prev = lam
        lam = big_l + (1 - c) * f * sin_alpha * (
            sigma + c * sin_sigma * (cos_2sm + c * cos_sigma * (-1 + 2 * cos_2sm * cos_2sm))
        )
        if abs(lam - lam_prev) < 1e-12:
            break
    else:
        raise CRSError("Vincenty's formula did not converge (nearly antipodal points)")
    u_sq = cos2_alpha * (a * a - b * b) / (b * b)
    big_a = 1 + u_sq / 16384 * (4096 + u_sq * (-768 + u_sq * (320 - 175 * u_sq)))
    big_b = u_sq / 1024 * (256 + u_sq * (-128 + u_sq * (74 - 47 * u_sq)))
    delta_sigma = (
        big_b
        * sin_sigma
        * (
            cos_2sm
            + big_b
            / 4
            * (
                cos_sigma * (-1 + 2 * cos_2sm * cos_2sm)
                - big_b / 6 * cos_2sm * (-3 + 4 * sin_sigma**2) * (-3 + 4 * cos_2sm * cos_2sm)
            )
        )
    )
    return b * big_a * (sigma - delta_sigma)


def geodesic_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Geodesic distance on WGS 84 in metres (local formula up to 1 km, Vincenty beyond)."""
    d = local_distance_m(lon1, lat1, lon2, lat2)
    return d if d <= LOCAL_FORMULA_MAX_M else vincenty_m(lon1, lat1, lon2, lat2)


# --- reading a CRS -----------------------------------------------------------------------------

_GEOGRAPHIC_CODES = {"4326": "WGS 84", "4269": "NAD83", "6318": "NAD83(2011)", "4258": "ETRS89"}
#: EPSG code → (unit, label); coordinates in these are taken as planar.
PLANAR_CRS: dict[str, tuple[str, str]] = {
    "2260": ("ftUS", "NAD83 / New York East (ftUS)"),
    "2261": ("ftUS", "NAD83 / New York Central (ftUS)"),
    "2262": ("ftUS", "NAD83 / New York West (ftUS)"),
    "2263": ("ftUS", "NAD83 / New York Long Island (ftUS)"),
    "32115": ("m", "NAD83 / New York East"),
    "32116": ("m", "NAD83 / New York Central"),
    "32117": ("m", "NAD83 / New York West"),
    "32118": ("m", "NAD83 / New York Long Island"),
    "26917": ("m", "NAD83 / UTM zone 17N"),
    "26918": ("m", "NAD83 / UTM zone 18N"),
    "26919": ("m", "NAD83 / UTM zone 19N"),
    "32617": ("m", "WGS 84 / UTM zone 17N"),
    "32618": ("m", "WGS 84 / UTM zone 18N"),
    "32619": ("m", "WGS 84 / UTM zone 19N"),
}
PLANAR_UNITS = {"m": "meter", "ft": "foot", "ftUS": "survey_foot"}
_UNIT_SPELLINGS = {
    "m": "m",
    "metre": "m",
    "meter": "m",
    "metres": "m",
    "meters": "m",
    "ft": "ft",
    "foot": "ft",
    "feet": "ft",
    "ftus": "ftUS",
    "us-ft": "ftUS",
    "us_survey_foot": "ftUS",
    "survey_foot": "ftUS",
}
_EPSG = re.compile(
    r"^(?:EPSG:{1,2}|urn:ogc:def:crs:EPSG:[\d.]*:|https?://www\.opengis\.net/def/crs/EPSG/[\d.]+/)"
    r"(?P<code>\d+)$",
    re.IGNORECASE,
)
_CRS84 = re.compile(
    r"^(?:urn:ogc:def:crs:OGC:[\d.]*:CRS84|OGC:CRS84|CRS84|"
    r"https?://www\.opengis\.net/def/crs/OGC/[\d.]+/CRS84)$",
    re.IGNORECASE,
)

WGS84 = CRS("urn:ogc:def:crs:OGC:1.3:CRS84", "geographic", "degree", "WGS 84 longitude/latitude")


@cache
def metres_per(unit: str) -> Fraction:
    """Exact metres in one planar unit, through pint (ftUS = 1200/3937 m, ft = 0.3048 m)."""
    q = registry().Quantity(Fraction(1), PLANAR_UNITS[unit]).to("meter")
    return Fraction(q.magnitude)


def planar(unit: str, name: str = "", label: str = "") -> CRS:
    u = _UNIT_SPELLINGS.get(unit.strip().lower())
    if u is None:
        raise CRSError(f"unknown planar unit {unit!r}: use m, ft (international) or ftUS")
    return CRS(
        name or f"planar:{u}", "planar", u, label or f"planar coordinates in {u}", metres_per(u)
    )


def parse_crs(name: str | None, units: str | None = None) -> CRS:
    """The CRS a name stands for; ``units`` declares the unit of an unlisted projected CRS."""
    if name is None or not name.strip():
        return WGS84
    text = name.strip()
    if _CRS84.match(text):
        return CRS(text, "geographic", "degree", "WGS 84 longitude/latitude")
    if text.lower().startswith("planar:"):
        return planar(text.split(":", 1)[1], text)
    m = _EPSG.match(text)
    if not m:
        raise CRSError(
            f"unknown CRS {text!r}: use EPSG:4326, urn:ogc:def:crs:EPSG::<code>, or planar:m|ft|ftUS"
        )
    code = m["code"]
    if code in _GEOGRAPHIC_CODES:
        label = f"{_GEOGRAPHIC_CODES[code]} longitude/latitude (taken as WGS 84)"
        return CRS(text, "geographic", "degree", label)
    if code == "3857":
        return CRS(text, "web_mercator", "m", "WGS 84 / Pseudo-Mercator (converted to lon/lat)")
    if units:
        return planar(units, text, f"EPSG:{code} taken as planar in {units}")
    if code in PLANAR_CRS:
        unit, label = PLANAR_CRS[code]
        return planar(unit, text, label)
    raise CRSError(
        f"EPSG:{code} is not one this software measures without a projection library: declare its "
        'linear unit (a "units" member beside the CRS name, or --crs planar:m|ft|ftUS)'
    )
