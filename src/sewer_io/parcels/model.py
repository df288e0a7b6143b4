"""What the readers of parcel and district files give back, and the error of an unusable file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import polars as pl


class ParcelFileError(Exception):
    """A file that cannot be read at all (exit status 2 upstream): the message names the file
    and what is wrong with it."""


@dataclass(frozen=True)
class Refusal:
    """One refused row and why.

    ``row``: in a CSV file, the line number of the record (header = 1, first record = 2); in a
    layer (GeoJSON, GeoPackage, Shapefile), the feature's 1-based position in the layer.
    ``field``: the file's own column name (``"geometry"`` for a layer's geometry).
    """

    row: int
    field: str
    message: str


#: The columns of :attr:`ParcelFile.parcels`, in this order.
PARCEL_COLUMNS: Final = (
    "row",
    "swis",
    "sbl",
    "print_key",
    "parcel_id",
    "property_class",
    "address",
    "city",
    "state",
    "zip",
    "owner",
    "mail_street",
    "mail_city",
    "mail_state",
    "mail_zip",
    "acreage",
    "geometry",
    "lon",
    "lat",
)

#: The polars type of each column of :attr:`ParcelFile.parcels`.
PARCEL_SCHEMA: Final = {
    name: (pl.Int64 if name == "row" else pl.Float64 if name in ("lon", "lat") else pl.String)
    for name in PARCEL_COLUMNS
}

#: The columns of :attr:`DistrictFile.districts`, in this order.
DISTRICT_COLUMNS: Final = ("row", "code", "name", "geometry")


@dataclass(frozen=True)
class ParcelFile:
    """A tax parcel roll as read: its good rows and the refused ones.

    ``crs``: the coordinate reference system the file's coordinates are in (``"EPSG:2260"``
    when it has an authority code, else its name; ``""`` when the file has no geometry).
    ``rows``: the data rows (features) read, good and refused.
    ``parcels``: the good rows, :data:`PARCEL_COLUMNS` exactly, in file order.
    """

    source: str
    sha256: str
    crs: str
    rows: int
    parcels: pl.DataFrame
    refused: tuple[Refusal, ...]


@dataclass(frozen=True)
class DistrictFile:
    """Sewer district (or improvement area, phase) polygons as read.

    ``districts``: :data:`DISTRICT_COLUMNS`; ``geometry`` is GeoJSON text in WGS 84 longitude
    and latitude (a Polygon or MultiPolygon).
    """

    source: str
    sha256: str
    crs: str
    rows: int
    districts: pl.DataFrame
    refused: tuple[Refusal, ...]
