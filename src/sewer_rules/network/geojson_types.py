"""The shapes of the network's GeoJSON contract (:mod:`.geojson`), as typed dictionaries.

What :func:`~.geojson.to_geojson` writes and :func:`~.generate.generate_network` makes: a
``FeatureCollection`` of manholes (Points), pipes (LineStrings) and connections (Points, or no
geometry at a manhole). Typed so that a misspelt or missing property is a type error where the
file is made, not a refusal when it is read back. A file read from a user is *not* one of these
until :func:`~.build.build_network` has validated it (it is :data:`~sewer_rules.json_input.
JsonObject` before that).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, TypeGuard

#: A position: longitude and latitude, or x and y in the CRS's unit (an elevation may follow).
Position = list[float]


class PointGeometry(TypedDict):
    type: Literal["Point"]
    coordinates: Position


class LineStringGeometry(TypedDict):
    type: Literal["LineString"]
    coordinates: list[Position]


class ManholeProperties(TypedDict):
    kind: Literal["manhole"]
    id: str
    public: bool


#: ``from`` is a Python keyword, hence the functional form; flow runs from ``from`` to ``to``.
PipeProperties = TypedDict(
    "PipeProperties",
    {
        "kind": Literal["pipe"],
        "id": str,
        "from": str,
        "to": str,
        "diameter_in": NotRequired[int | float],
        "public": bool,
    },
)


class ConnectionProperties(TypedDict):
    """Where a parcel's building sewer meets the main: on a ``pipe`` or at a ``manhole``."""

    kind: Literal["connection"]
    parcel: str
    id: NotRequired[str]
    pipe: NotRequired[str]
    manhole: NotRequired[str]


class ManholeFeature(TypedDict):
    type: Literal["Feature"]
    geometry: PointGeometry
    properties: ManholeProperties


class PipeFeature(TypedDict):
    type: Literal["Feature"]
    geometry: LineStringGeometry
    properties: PipeProperties


class ConnectionFeature(TypedDict):
    type: Literal["Feature"]
    #: None for a connection at a manhole whose point is not drawn.
    geometry: PointGeometry | None
    properties: ConnectionProperties


Feature = ManholeFeature | PipeFeature | ConnectionFeature


class CrsName(TypedDict):
    name: str
    #: the length unit of a projected CRS the library does not list (``m``, ``ft``, ``ftUS``)
    units: NotRequired[str]


class NamedCrs(TypedDict):
    """The ``crs`` member of GeoJSON 2008, written unless the CRS is WGS 84 longitude/latitude."""

    type: Literal["name"]
    properties: CrsName


class FeatureCollection(TypedDict):
    type: Literal["FeatureCollection"]
    #: a title for people; the reader ignores it
    name: NotRequired[str]
    crs: NotRequired[NamedCrs]
    features: list[Feature]


def is_connection(feature: Feature) -> TypeGuard[ConnectionFeature]:
    """Whether a feature is a parcel's connection (to set or read its parcel)."""
    return feature["properties"]["kind"] == "connection"
