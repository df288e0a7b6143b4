"""Case kind ``network``: § 196-19 I sampling points and upstream traces on a known network.

``input.network`` is ``thirteen`` (the hand-made 13-manhole tree below, planar metres), or a
small network written inline::

    network:
      crs: planar:m                     # default planar:m
      manholes: [[MH1, public, 0, 0], [MH2, private, 0, 100]]   # id, public|private, x, y
      pipes: [[P2, MH2, MH1, private]]                           # id, from, to, public|private
      connections: [{parcel: A, pipe: P2, at: [0, 50]}, {parcel: B, manhole: MH2}]

and one of:

- ``sampling: {parcel: X, control_manhole: CM1}`` → the sampling points of the parcel's
  connections (``SamplingPoint.as_dict()`` each);
- ``trace: MH01`` → ``{"manhole", "upstream", "count"}`` as ``trace --format json`` gives it;
- ``check: true`` → ``{"valid": true}`` or ``{"valid": false, "errors": [...]}`` with each
  error's ``index``, ``id``, ``field`` and ``message``.
"""

from __future__ import annotations

import math
from typing import Any

from sewer_rules.network import (
    NetworkError,
    parse_geojson,
    sampling_points_for_parcel,
    trace_upstream,
)
from sewer_rules.network.geo import radii_of_curvature

#: The 13-manhole tree (NAD83 / New York East, metres, near Wappinger). MH01 is the outlet;
#: MH08 and MH11 and their pipes are a private stretch. Pipes are named after the manhole
#: they drain; all run 100 m except P11 (bent, 80 + 60 = 140 m) and P13 (3-4-5, 50 m).
E0, N0 = 199000.0, 305000.0
MANHOLES: dict[str, tuple[float, float, bool]] = {
    "MH01": (0, 0, True),
    "MH02": (0, 100, True),
    "MH03": (-100, 100, True),
    "MH04": (100, 100, True),
    "MH05": (-100, 200, True),
    "MH06": (-200, 100, True),
    "MH07": (100, 200, True),
    "MH08": (200, 100, False),
    "MH09": (-100, 300, True),
    "MH10": (-300, 100, True),
    "MH11": (280, 160, False),
    "MH12": (100, 300, True),
    "MH13": (130, 340, True),
}
DOWNSTREAM = {
    "MH02": "MH01",
    "MH03": "MH02",
    "MH04": "MH02",
    "MH05": "MH03",
    "MH06": "MH03",
    "MH07": "MH04",
    "MH08": "MH04",
    "MH09": "MH05",
    "MH10": "MH06",
    "MH11": "MH08",
    "MH12": "MH07",
    "MH13": "MH12",
}
BENDS = {"MH11": [(200, 160)]}
DIAMETER = {"MH02": 12, "MH03": 10, "MH04": 10}
#: parcel, ("pipe"|"manhole", id), point (None at a manhole)
CONNECTIONS: list[tuple[str, tuple[str, str], tuple[float, float] | None]] = [
    ("PCL-01", ("pipe", "P02"), (0, 50)),
    ("PCL-02", ("manhole", "MH02"), None),
    ("PCL-03", ("pipe", "P05"), (-100, 150)),
    ("PCL-04", ("pipe", "P09"), (-100, 280)),
    ("PCL-05", ("pipe", "P10"), (-250, 110)),
    ("PCL-06", ("pipe", "P07"), (100, 150)),
    ("PCL-07", ("pipe", "P12"), (100, 250)),
    ("PCL-08", ("pipe", "P13"), (115, 320)),
    ("PCL-09", ("pipe", "P11"), (240, 160)),
    ("PCL-10", ("manhole", "MH11"), None),
    ("PCL-11", ("pipe", "P08"), (150, 100)),
    ("PCL-03", ("pipe", "P06"), (-180, 100)),
    ("PCL-12", ("manhole", "MH13"), None),
]


def thirteen(*, geographic: bool = False) -> dict[str, Any]:
    """The 13-manhole tree as GeoJSON: planar metres (EPSG:32115), or WGS 84 lon/lat."""
    if geographic:
        lon0, lat0 = -73.9107, 41.5843
        m, n = radii_of_curvature(lat0)

        def at(x: float, y: float) -> list[float]:
            return [
                lon0 + math.degrees(x / (n * math.cos(math.radians(lat0)))),
                lat0 + math.degrees(y / m),
            ]
    else:

        def at(x: float, y: float) -> list[float]:
            return [E0 + x, N0 + y]

    features: list[dict[str, Any]] = []
    for mid, (x, y, public) in MANHOLES.items():
        features.append(_feature("Point", at(x, y), kind="manhole", id=mid, public=public))
    for mid, to in DOWNSTREAM.items():
        x, y, public = MANHOLES[mid]
        tx, ty, _ = MANHOLES[to]
        line = [at(x, y), *(at(*b) for b in BENDS.get(mid, [])), at(tx, ty)]
        props = {"kind": "pipe", "id": "P" + mid[2:], "from": mid, "to": to}
        props["diameter_in"] = DIAMETER.get(mid, 8)
        props["public"] = public
        features.append(_feature("LineString", line, **props))
    for parcel, (what, ref), point in CONNECTIONS:
        geometry = None if point is None else {"type": "Point", "coordinates": at(*point)}
        features.append(
            {
                "type": "Feature",
                "geometry": geometry,
                "properties": {"kind": "connection", "parcel": parcel, what: ref},
            }
        )
    out: dict[str, Any] = {"type": "FeatureCollection"}
    if not geographic:
        out["crs"] = {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::32115"}}
    out["features"] = features
    return out


def _feature(geometry: str, coords: Any, **props: Any) -> dict[str, Any]:
    return {
        "type": "Feature",
        "geometry": {"type": geometry, "coordinates": coords},
        "properties": props,
    }


def inline(spec: dict[str, Any]) -> dict[str, Any]:
    """A GeoJSON FeatureCollection from the compact inline form of a case."""
    features: list[dict[str, Any]] = []
    pos: dict[str, list[float]] = {}
    for mid, public, x, y in spec.get("manholes", []):
        pos[str(mid)] = [x, y]
        features.append(
            _feature("Point", [x, y], kind="manhole", id=mid, public=public == "public")
        )
    for pid, frm, to, public in spec.get("pipes", []):
        line = [pos.get(str(frm), [0, 0]), pos.get(str(to), [0, 1])]
        features.append(
            _feature(
                "LineString",
                line,
                kind="pipe",
                id=pid,
                **{"from": frm, "to": to},
                public=public == "public",
            )
        )
    for c in spec.get("connections", []):
        props = {"kind": "connection", **{k: v for k, v in c.items() if k != "at"}}
        at = c.get("at")
        geometry = None if at is None else {"type": "Point", "coordinates": at}
        features.append({"type": "Feature", "geometry": geometry, "properties": props})
    crs = spec.get("crs", "planar:m")
    return {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": crs}},
        "features": features,
    }


def network_data(spec: Any) -> dict[str, Any]:
    if spec == "thirteen":
        return thirteen()
    if spec == "thirteen-wgs84":
        return thirteen(geographic=True)
    return inline(spec)


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    try:
        net = parse_geojson(network_data(data["network"]))
    except NetworkError as e:
        errors = [
            {"index": i.index, "id": i.feature_id, "field": i.field, "message": i.message}
            for i in e.issues
        ]
        return {"valid": False, "errors": errors}
    if data.get("check"):
        return {"valid": True, "warnings": [str(w) for w in net.warnings]}
    if "sampling" in data:
        s = data["sampling"]
        points = sampling_points_for_parcel(
            net, str(s["parcel"]), control_manhole=s.get("control_manhole")
        )
        return [p.as_dict() for p in points]
    if "trace" in data:
        result = trace_upstream(net, str(data["trace"])).as_dict()
        result["count"] = len(result["upstream"])
        return result
    raise ValueError("a network case needs sampling, trace or check")
