"""Deterministic tree networks for tests and benchmarks, as GeoJSON of the network contract (:mod:`.geojson`).

``generate_network(n)`` grows a gravity sewer of ``n`` manholes around a treatment-plant
outlet (``MH…0``) near Wappinger (WGS 84): each new manhole continues the line it extends
(probability ``continue_line``) or starts a branch off an earlier manhole, 40–110 m away,
so lines run a few manholes long and the tree is tens of manholes deep. A branch starts
private with probability ``private_share`` (and its continuations stay private): these are
the private stretches § 196-19 I looks through. Every pipe drains a manhole into its parent;
some pipes bend once. Diameters grow with the number of manholes upstream (8, 10, 12, 15, 18
in). Parcels (``GEN-000001`` …, fictional) connect on the pipe leaving a manhole, at a random
point along it, or now and then at a manhole: 0, 1 or 2 per manhole. The same ``n`` and
``seed`` give the same network.
"""

from __future__ import annotations

import math
import random

from .geo import radii_of_curvature
from .geojson_types import ConnectionProperties, Feature, FeatureCollection

ORIGIN = (-73.9107, 41.5843)  # near the Tri-Municipal plant, Wappinger (illustrative only)


def generate_network(
    n: int,
    *,
    seed: int = 0,
    continue_line: float = 0.8,
    private_share: float = 0.05,
    connections_per_manhole: tuple[float, float, float] = (0.3, 0.5, 0.2),
) -> FeatureCollection:
    """A FeatureCollection of ``n`` manholes, ``n - 1`` pipes and their parcel connections."""
    if n < 1:
        raise ValueError("a network needs at least one manhole")
    rng = random.Random(seed)
    width = max(5, len(str(n - 1)))
    lon0, lat0 = ORIGIN
    m_lat, n_lat = radii_of_curvature(lat0)
    deg_per_m_lat = math.degrees(1 / m_lat)
    deg_per_m_lon = math.degrees(1 / (n_lat * math.cos(math.radians(lat0))))

    xy: list[tuple[float, float]] = [(0.0, 0.0)]
    heading: list[float] = [0.0]
    parent: list[int] = [-1]
    private: list[bool] = [False]
    for i in range(1, n):
        if i > 1 and rng.random() < continue_line:
            p = i - 1
            h = heading[p] + rng.uniform(-0.35, 0.35)
            priv = private[p]
        else:
            p = rng.randrange(i)
            h = heading[p] + rng.choice((-1, 1)) * math.pi / 2 + rng.uniform(-0.3, 0.3)
            priv = private[p] or rng.random() < private_share
        step = rng.uniform(40.0, 110.0)
        xy.append((xy[p][0] + step * math.cos(h), xy[p][1] + step * math.sin(h)))
        heading.append(h)
        parent.append(p)
        private.append(priv)

    upstream = [1] * n
    for i in range(n - 1, 0, -1):
        upstream[parent[i]] += upstream[i]

    def lonlat(p: tuple[float, float]) -> list[float]:
        return [round(lon0 + p[0] * deg_per_m_lon, 7), round(lat0 + p[1] * deg_per_m_lat, 7)]

    def mid(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
        return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t

    def mh(i: int) -> str:
        return f"MH{i:0{width}d}"

    features: list[Feature] = []
    for i in range(n):
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": lonlat(xy[i])},
                "properties": {"kind": "manhole", "id": mh(i), "public": not private[i]},
            }
        )
    lines: dict[int, list[tuple[float, float]]] = {}
    for i in range(1, n):
        a, b = xy[i], xy[parent[i]]
        line = [a, b]
        if i % 3 == 0:
            (mx, my), (dx, dy) = mid(a, b, 0.5), (b[0] - a[0], b[1] - a[1])
            bend = rng.uniform(-0.12, 0.12)
            line = [a, (mx - dy * bend, my + dx * bend), b]
        lines[i] = line
        size = upstream[i]
        diameter = 8 if size < 50 else 10 if size < 500 else 12 if size < 5000 else 15
        if size >= 20000:
            diameter = 18
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "LineString", "coordinates": [lonlat(c) for c in line]},
                "properties": {
                    "kind": "pipe",
                    "id": f"P{i:0{width}d}",
                    "from": mh(i),
                    "to": mh(parent[i]),
                    "diameter_in": diameter,
                    "public": not private[i],
                },
            }
        )
    parcel = 0
    counts = (0, 1, 2)
    for i in range(1, n):
        for _ in range(rng.choices(counts, weights=connections_per_manhole)[0]):
            parcel += 1
            props: ConnectionProperties = {"kind": "connection", "parcel": f"GEN-{parcel:06d}"}
            if rng.random() < 0.1:
                props["manhole"] = mh(i)
                point = xy[i]
            else:
                props["pipe"] = f"P{i:0{width}d}"
                line = lines[i]
                seg = rng.randrange(len(line) - 1)
                point = mid(line[seg], line[seg + 1], rng.uniform(0.05, 0.95))
            features.append(
                {
                    "type": "Feature",
                    "geometry": {"type": "Point", "coordinates": lonlat(point)},
                    "properties": props,
                }
            )
    return {"type": "FeatureCollection", "features": features}
