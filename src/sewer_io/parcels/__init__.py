"""County tax parcel rolls and sewer district polygons, read; parcels placed in districts;
old and new parcels that share ground.

No Django here (the layer contract): the office's parcel import builds on these functions.
docs/parcels.md, "Reading a roll", says what is read and what is refused.
"""

from .districts import read_districts
from .geometry import district_of, shared_ground
from .model import (
    DISTRICT_COLUMNS,
    PARCEL_COLUMNS,
    DistrictFile,
    ParcelFile,
    ParcelFileError,
    Refusal,
)
from .roll import read_parcels

__all__ = [
    "DISTRICT_COLUMNS",
    "PARCEL_COLUMNS",
    "DistrictFile",
    "ParcelFile",
    "ParcelFileError",
    "Refusal",
    "district_of",
    "read_districts",
    "read_parcels",
    "shared_ground",
]
