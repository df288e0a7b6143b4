"""Reading a network from GeoJSON — the contract of ``sewer-use network-check`` and the office's network import.

A ``FeatureCollection`` whose features are, by ``properties.kind``:

- manhole — a ``Point``: ``{"kind": "manhole", "id": "MH01", "public": true}``;
- pipe — a ``LineString`` drawn through its vertices:
  ``{"kind": "pipe", "id": "P01", "from": "MH02", "to": "MH01", "diameter_in": 8,
  "public": true}``; flow runs from ``from`` to ``to`` (the line's own direction is only
  checked, with a warning when it is drawn the other way);
- connection — a ``Point`` where the building sewer meets the main:
  ``{"kind": "connection", "parcel": "<tax parcel id>", "pipe": "P01"}`` or with
  ``"manhole": "MH03"`` instead of ``pipe`` (then ``"geometry": null`` is accepted); an optional
  ``id`` names the connection.

Coordinates are WGS 84 longitude/latitude (RFC 7946), unless a ``crs`` member (GeoJSON 2008)
names another: ``{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::2263"}}``.
See :mod:`.geo` for what is supported and how lengths are measured; an unlisted projected CRS
can be declared with ``"units": "m" | "ft" | "ftUS"`` beside its name. Other properties are
ignored. ``diameter_in`` is optional; ids may be strings or integers (read as text).
"""

from __future__ import annotations

from pathlib import Path

from sewer_rules.hostile import JSONRefused, TextRefused, loads_json, utf8_text
from sewer_rules.json_input import JsonObject, JsonValue

from .build import build_network
from .feature_fields import RawFeature
from .geo import CRS, CRSError, parse_crs
from .geojson_types import (
    ConnectionFeature,
    ConnectionProperties,
    CrsName,
    Feature,
    FeatureCollection,
    NamedCrs,
    PipeProperties,
    PointGeometry,
)
from .model import Connection, NetworkFormatError
from .network import Network


def read_crs(data: JsonObject, default: CRS | None = None) -> CRS:
    """The CRS a FeatureCollection declares (``default``, else WGS 84, when it declares none)."""
    crs = data.get("crs")
    if crs is None:
        return default if default is not None else parse_crs(None)
    if not isinstance(crs, dict) or not isinstance(crs.get("properties"), dict):
        raise NetworkFormatError('"crs" must be {"type": "name", "properties": {"name": ...}}')
    props = crs["properties"]
    name, units = props.get("name"), props.get("units")
    if crs.get("type") != "name" or not isinstance(name, str):
        raise NetworkFormatError('only a named "crs" is supported: {"type": "name", ...}')
    try:
        return parse_crs(name, units if isinstance(units, str) else None)
    except CRSError as e:
        raise NetworkFormatError(f"crs: {e}") from None


def parse_geojson(data: JsonValue, *, default_crs: CRS | None = None) -> Network:
    """Validate a GeoJSON FeatureCollection (already decoded) and build the network.

    Raises :class:`NetworkFormatError` when it is not a FeatureCollection or its CRS is not
    usable, and :class:`~.model.NetworkError` listing every feature's errors.
    """
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection":
        raise NetworkFormatError("not a GeoJSON FeatureCollection")
    features = data.get("features")
    if not isinstance(features, list):
        raise NetworkFormatError('a FeatureCollection needs a "features" array')
    crs = read_crs(data, default_crs)
    return build_network([RawFeature("features", i, f) for i, f in enumerate(features)], crs)


def loads_geojson(text: str | bytes, *, default_crs: CRS | None = None) -> Network:
    """Decode and validate a network's GeoJSON: bytes must be UTF-8 (a byte order mark is
    dropped); JSON nested too deeply or with numbers too long for Python is a
    :class:`NetworkFormatError` saying so (:func:`sewer_rules.hostile.loads_json`)."""
    try:
        data = loads_json(utf8_text(text) if isinstance(text, bytes) else text.lstrip("\ufeff"))
    except (JSONRefused, TextRefused) as e:
        raise NetworkFormatError(str(e)) from None
    return parse_geojson(data, default_crs=default_crs)


def load_geojson(path: str | Path, *, default_crs: CRS | None = None) -> Network:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise NetworkFormatError(f"{path}: cannot read: {e.strerror}") from None
    try:
        text = utf8_text(data)
    except TextRefused as e:
        raise NetworkFormatError(f"{path}: {e}") from None
    return loads_geojson(text, default_crs=default_crs)


def to_geojson(network: Network) -> FeatureCollection:
    """The network back as a FeatureCollection of the same contract (manholes, pipes,
    connections, in that order; a ``crs`` member unless WGS 84 longitude/latitude)."""
    features: list[Feature] = []
    for m in network.manholes.values():
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": list(m.position)},
                "properties": {"kind": "manhole", "id": m.id, "public": m.public},
            }
        )
    for p in network.pipes.values():
        props: PipeProperties
        if p.diameter_in is not None:
            d = p.diameter_in
            props = {
                "kind": "pipe",
                "id": p.id,
                "from": p.from_manhole,
                "to": p.to_manhole,
                "diameter_in": int(d) if d == d.to_integral_value() else float(d),
                "public": p.public,
            }
        else:
            props = {
                "kind": "pipe",
                "id": p.id,
                "from": p.from_manhole,
                "to": p.to_manhole,
                "public": p.public,
            }
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "LineString", "coordinates": [list(c) for c in p.coordinates]},
                "properties": props,
            }
        )
    features.extend(_connection_feature(c) for c in network.connections)
    if network.crs.kind == "geographic":
        return {"type": "FeatureCollection", "features": features}
    crs_props: CrsName = {"name": network.crs.name}
    if network.crs.kind == "planar":
        crs_props["units"] = network.crs.unit
    crs: NamedCrs = {"type": "name", "properties": crs_props}
    return {"type": "FeatureCollection", "crs": crs, "features": features}


def _connection_feature(c: Connection) -> ConnectionFeature:
    cprops: ConnectionProperties = {"kind": "connection", "parcel": c.parcel}
    if c.id is not None:
        cprops["id"] = c.id
    if c.pipe is not None:
        cprops["pipe"] = c.pipe
    elif c.manhole is not None:
        cprops["manhole"] = c.manhole
    geometry: PointGeometry | None = (
        None if c.position is None else {"type": "Point", "coordinates": list(c.position)}
    )
    return {"type": "Feature", "geometry": geometry, "properties": cprops}
