"""Validate raw features (from GeoJSON or CSV) and build a :class:`~.network.Network`.

All or nothing: every feature is checked and every problem collected before anything is built;
one bad feature refuses the whole file, with a :class:`~.model.NetworkError` listing them all.

What is an error (each names the feature's index and id, and the field):

- a feature that is not an object, has no ``properties``, or whose ``kind`` is not
  ``manhole``, ``pipe`` or ``connection``;
- a missing or unreadable ``id`` (a non-empty string, or an integer), a duplicate id among
  manholes or among pipes (the second and later ones are named, with the first's index);
- ``public`` missing or not ``true``/``false`` (§ 196-19 I turns on it);
- a pipe whose ``from`` or ``to`` is missing or names no manhole, a pipe from a manhole to
  itself, a ``diameter_in`` that is not a positive number;
- bad geometry: a manhole that is not a Point, a pipe that is not a LineString of at least two
  positions, positions that are not two or three finite numbers or lie outside the CRS
  (longitude/latitude ranges), a pipe of zero length;
- a connection without ``parcel``, naming neither ``pipe`` nor ``manhole`` or both, naming an
  unknown one, or on a pipe without a Point (its place along the pipe is needed); a
  connection at a manhole may have ``"geometry": null``;
- cycles in the flow direction (one error per cycle, naming each pipe in it).

Warnings (the network is still built): a pipe whose first or last vertex is farther than the
tolerance from its ``from``/``to`` manhole (or that looks drawn against its flow direction), a
connection's point far from its pipe, a manhole with no pipe.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import networkx as nx
import numpy as np

from sewer_rules.hostile import control_character, shorten

from .geo import CRS, Point
from .model import Connection, Manhole, NetworkError, NetworkIssue, Pipe
from .network import Network, gc_paused

KINDS = ("manhole", "pipe", "connection")
#: The longest id (of a manhole, pipe, connection or parcel) a network may give: the office
#: stores 60 characters (a tax parcel id, 40, is matched against the registry).
MAX_ID_LENGTH = 60
#: a pipe end farther than this from its manhole is reported (warning)
ENDPOINT_TOLERANCE_M = 1.0
#: a connection's point farther than this from its pipe is reported (warning)
CONNECTION_DISTANCE_WARNING_M = 100.0


@dataclass(slots=True)
class RawFeature:
    """A feature as read: GeoJSON-shaped ``data`` with where it came from.

    ``implicit_line`` (CSV pipes) means the pipe's geometry is its ``from`` manhole, the given
    ``bends`` and its ``to`` manhole; ``problems`` are (field, message) found while reading.
    """

    source: str
    index: int
    data: Any
    implicit_line: bool = False
    bends: tuple[Point, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()


@dataclass
class _Ctx:
    crs: CRS
    issues: list[NetworkIssue] = field(default_factory=list)
    warnings: list[NetworkIssue] = field(default_factory=list)


@dataclass
class _Feature:
    raw: RawFeature
    kind: str | None
    props: Mapping[str, Any]
    fid: str | None = None
    ok: bool = True

    def issue(self, ctx: _Ctx, field_name: str, message: str, *, warning: bool = False) -> None:
        item = NetworkIssue(
            self.raw.source, self.raw.index, self.kind, self.fid, field_name, message
        )
        (ctx.warnings if warning else ctx.issues).append(item)
        if not warning:
            self.ok = False


def build_network(features: Sequence[RawFeature], crs: CRS) -> Network:
    """Validate every feature and build the network, or raise :class:`NetworkError` with all."""
    with gc_paused():
        return _build(features, crs)


def _build(features: Sequence[RawFeature], crs: CRS) -> Network:
    ctx = _Ctx(crs)
    manholes: dict[str, Manhole] = {}
    manhole_first: dict[str, _Feature] = {}
    pipe_feats: list[tuple[_Feature, dict[str, Any]]] = []
    conn_feats: list[_Feature] = []

    for raw in features:
        f = _classify(raw, ctx)
        if f is None:
            continue
        if f.kind == "manhole":
            m = _manhole(f, ctx)
            if f.fid is not None:
                if f.fid in manhole_first:
                    first = manhole_first[f.fid].raw
                    f.issue(ctx, "id", f"duplicate manhole id (first at {_where(first)})")
                else:
                    manhole_first[f.fid] = f
                    if m is not None and f.ok:
                        manholes[f.fid] = m
        elif f.kind == "pipe":
            pipe_feats.append((f, _pipe_fields(f, ctx)))
        else:
            conn_feats.append(f)

    pipes, segments = _pipes(pipe_feats, manhole_first, manholes, ctx)
    known_pipes = {f.fid for f, _ in pipe_feats if f.fid is not None}
    connections = _connections(conn_feats, manhole_first, pipes, segments, known_pipes, ctx)
    _cycles(
        [
            _Edge(v["from"], v["to"], f.fid or "", f.raw.source, f.raw.index)
            for f, v in pipe_feats
            if v["from"] in manhole_first and v["to"] in manhole_first and v["from"] != v["to"]
        ],
        ctx,
    )
    rank = {src: i for i, src in enumerate(dict.fromkeys(r.source for r in features))}

    def order(i: NetworkIssue) -> tuple[int, int, str]:
        return (rank.get(i.source, -1), -1 if i.index is None else i.index, i.field)

    if ctx.issues:
        raise NetworkError(sorted(ctx.issues, key=order))
    used = {p.from_manhole for p in pipes.values()} | {p.to_manhole for p in pipes.values()}
    for mid, m in manholes.items():
        if mid not in used:
            ctx.warnings.append(
                NetworkIssue(m.source, m.index, "manhole", mid, "id", "no pipe enters or leaves it")
            )
    return Network(crs, manholes, pipes, connections, tuple(sorted(ctx.warnings, key=order)))


def _where(raw: RawFeature) -> str:
    return (
        f"features[{raw.index}]" if raw.source == "features" else f"{raw.source} line {raw.index}"
    )


# --- reading fields ----------------------------------------------------------------------------


def _classify(raw: RawFeature, ctx: _Ctx) -> _Feature | None:
    data = raw.data
    if not isinstance(data, dict):
        ctx.issues.append(
            NetworkIssue(raw.source, raw.index, None, None, "feature", "not a JSON object")
        )
        return None
    props = data.get("properties")
    if not isinstance(props, dict):
        ctx.issues.append(
            NetworkIssue(
                raw.source, raw.index, None, None, "properties", "missing or not an object"
            )
        )
        return None
    kind = props.get("kind")
    f = _Feature(raw, kind if kind in KINDS else None, props)
    if raw.source == "features" and data.get("type") != "Feature":
        f.issue(ctx, "type", f'expected "Feature", found {shorten(repr(data.get("type")))}')
    if f.kind is None:
        f.issue(ctx, "kind", f"must be manhole, pipe or connection, found {shorten(repr(kind))}")
        return None
    f.fid = _ident(f, "id", ctx, required=f.kind != "connection")
    for field_name, message in raw.problems:
        f.issue(ctx, field_name, message)
    return f


def _ident(f: _Feature, name: str, ctx: _Ctx, *, required: bool) -> str | None:
    value = f.props.get(name)
    if value is None:
        if required:
            f.issue(ctx, name, "missing")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        f.issue(ctx, name, f"must be a string or an integer, found {shorten(repr(value))}")
        return None
    text = str(value).strip()
    if not text:
        f.issue(ctx, name, "empty")
        return None
    if len(text) > MAX_ID_LENGTH:
        f.issue(
            ctx, name, f"{len(text):,} characters, longer than the {MAX_ID_LENGTH} an id may have"
        )
        return None
    control = control_character(text)
    if control is not None:
        f.issue(ctx, name, f"holds the control character {control}: {shorten(repr(text))}")
        return None
    return text


def _public(f: _Feature, ctx: _Ctx) -> bool | None:
    value = f.props.get("public")
    if not isinstance(value, bool):
        why = "missing" if value is None else f"must be true or false, found {shorten(repr(value))}"
        f.issue(ctx, "public", why + " (§ 196-19 I turns on whether the sewer is public)")
        return None
    return value


def _position(f: _Feature, raw: Any, ctx: _Ctx, what: str) -> Point | None:
    if (
        type(raw) not in (list, tuple)
        or len(raw) not in (2, 3)
        or any(type(v) not in (int, float) for v in raw)
    ):
        f.issue(ctx, "geometry", f"{what} must be 2 or 3 numbers, found {shorten(repr(raw))}")
        return None
    x, y = float(raw[0]), float(raw[1])
    problem = ctx.crs.position_problem(x, y)
    if problem:
        f.issue(ctx, "geometry", f"{what}: {problem}")
        return None
    return x, y


def _geometry(f: _Feature, ctx: _Ctx, expected: str, *, nullable: bool = False) -> Any:
    geom = f.raw.data.get("geometry")
    if geom is None and (nullable or any(n in ("x", "y") for n, _ in f.raw.problems)):
        return None  # allowed, or already reported by the CSV reader
    if not isinstance(geom, dict) or geom.get("type") != expected:
        found = geom.get("type") if isinstance(geom, dict) else geom
        f.issue(ctx, "geometry", f"a {f.kind} must be a {expected}, found {shorten(repr(found))}")
        return None
    coords = geom.get("coordinates")
    if coords is None:
        f.issue(ctx, "geometry", "no coordinates")
    return coords


def _manhole(f: _Feature, ctx: _Ctx) -> Manhole | None:
    public = _public(f, ctx)
    coords = _geometry(f, ctx, "Point")
    pos = _position(f, coords, ctx, "the Point") if coords is not None else None
    if f.fid is None or public is None or pos is None:
        return None
    return Manhole(f.fid, public, pos, f.raw.source, f.raw.index)


def _pipe_fields(f: _Feature, ctx: _Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {
        "from": _ident(f, "from", ctx, required=True),
        "to": _ident(f, "to", ctx, required=True),
        "public": _public(f, ctx),
        "diameter_in": None,
        "coords": None,
    }
    d = f.props.get("diameter_in")
    if d is not None:
        try:
            if isinstance(d, bool) or not isinstance(d, int | float | str):
                raise InvalidOperation
            value = Decimal(str(d).strip())
            if not value.is_finite() or value <= 0:
                raise InvalidOperation
            out["diameter_in"] = value
        except InvalidOperation:
            f.issue(
                ctx, "diameter_in", f"must be a positive number of inches, found {shorten(repr(d))}"
            )
    if out["from"] is not None and out["from"] == out["to"]:
        f.issue(ctx, "to", f"a pipe cannot run from manhole {out['from']} to itself")
    if f.raw.implicit_line:
        bends = []
        for b in f.raw.bends:
            p = _position(f, list(b), ctx, "a bend")
            if p is not None:
                bends.append(p)
        out["bends"] = bends
        return out
    coords = _geometry(f, ctx, "LineString")
    if coords is None:
        return out
    if not isinstance(coords, list) or len(coords) < 2:
        f.issue(ctx, "geometry", "a LineString needs at least two positions")
        return out
    points = [_position(f, c, ctx, f"position {i}") for i, c in enumerate(coords)]
    if all(p is not None for p in points):
        out["coords"] = [p for p in points if p is not None]
    return out


def _pipes(
    feats: list[tuple[_Feature, dict[str, Any]]],
    manhole_first: dict[str, _Feature],
    manholes: dict[str, Manhole],
    ctx: _Ctx,
) -> tuple[dict[str, Pipe], dict[str, list[float]]]:
    """Pipes built from valid features, and each one's segment lengths (metres)."""
    first: dict[str, _Feature] = {}
    lines: list[tuple[_Feature, dict[str, Any], list[Point]]] = []
    for f, v in feats:
        if f.fid is not None:
            if f.fid in first:
                f.issue(ctx, "id", f"duplicate pipe id (first at {_where(first[f.fid].raw)})")
            else:
                first[f.fid] = f
        for end in ("from", "to"):
            if v[end] is not None and v[end] not in manhole_first:
                f.issue(ctx, end, f"names no manhole: {shorten(repr(v[end]))}")
        coords: list[Point] | None = v["coords"]
        if f.raw.implicit_line and v["from"] in manholes and v["to"] in manholes:
            coords = [manholes[v["from"]].position, *v["bends"], manholes[v["to"]].position]
        if coords is not None:
            lines.append((f, v, coords))
    # every segment of every line measured in one vectorised call
    sizes = np.array([len(c) for _, _, c in lines], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes - 1)))
    pts = np.array([p for _, _, c in lines for p in c], dtype=np.float64).reshape(-1, 2)
    keep = np.ones(max(len(pts) - 1, 0), dtype=bool)
    keep[np.cumsum(sizes)[:-1] - 1] = False  # no segment from one line's end to the next
    seg = ctx.crs.distances_m(pts[:-1][keep], pts[1:][keep])
    pipes: dict[str, Pipe] = {}
    segments: dict[str, list[float]] = {}
    ends: list[tuple[_Feature, dict[str, Any], list[Point]]] = []
    for k, (f, v, coords) in enumerate(lines):
        lengths = [float(x) for x in seg[starts[k] : starts[k + 1]]]
        length = math.fsum(lengths)
        if length <= 0:
            f.issue(ctx, "geometry", "the pipe has zero length")
            continue
        if not f.ok or f.fid is None or first.get(f.fid) is not f:
            continue
        if not f.raw.implicit_line:
            ends.append((f, v, coords))
        segments[f.fid] = lengths
        pipes[f.fid] = Pipe(
            f.fid,
            v["from"],
            v["to"],
            v["public"],
            v["diameter_in"],
            tuple(coords),
            length,
            f.raw.source,
            f.raw.index,
        )
    _check_ends(ends, manholes, ctx)
    return pipes, segments


def _check_ends(
    lines: list[tuple[_Feature, dict[str, Any], list[Point]]],
    manholes: dict[str, Manhole],
    ctx: _Ctx,
) -> None:
    """Warn where a line's first/last vertex is not at its from/to manhole."""
    lines = [x for x in lines if x[1]["from"] in manholes and x[1]["to"] in manholes]
    if not lines:
        return
    first = np.array([c[0] for _, _, c in lines], dtype=np.float64)
    last = np.array([c[-1] for _, _, c in lines], dtype=np.float64)
    a = np.array([manholes[v["from"]].position for _, v, _ in lines], dtype=np.float64)
    b = np.array([manholes[v["to"]].position for _, v, _ in lines], dtype=np.float64)
    d_from, d_to = ctx.crs.distances_m(first, a), ctx.crs.distances_m(last, b)
    tol = ENDPOINT_TOLERANCE_M
    for k in np.flatnonzero((d_from > tol) | (d_to > tol)):
        f, v, coords = lines[k]
        seg = ctx.crs.segment_length_m
        if (
            seg(coords[0], manholes[v["to"]].position) <= tol
            and seg(coords[-1], manholes[v["from"]].position) <= tol
        ):
            f.issue(
                ctx,
                "geometry",
                f"the line is drawn from {v['to']} to {v['from']}: flow is taken from 'from' to "
                "'to' as the properties say; check the direction",
                warning=True,
            )
            continue
        for end, d, mid in (("from", d_from[k], v["from"]), ("to", d_to[k], v["to"])):
            if d > tol:
                f.issue(
                    ctx,
                    "geometry",
                    f"the line's {'first' if end == 'from' else 'last'} vertex is {d:.2f} m from "
                    f"its '{end}' manhole {mid}",
                    warning=True,
                )


def _connections(
    feats: list[_Feature],
    manhole_first: dict[str, _Feature],
    pipes: dict[str, Pipe],
    segments: dict[str, list[float]],
    known_pipes: set[str],
    ctx: _Ctx,
) -> tuple[Connection, ...]:
    ids: dict[str, _Feature] = {}
    out: list[Connection] = []
    for f in feats:
        parcel = _ident(f, "parcel", ctx, required=True)
        if f.fid is not None:
            if f.fid in ids:
                f.issue(ctx, "id", f"duplicate connection id (first at {_where(ids[f.fid].raw)})")
            else:
                ids[f.fid] = f
        pipe = _ident(f, "pipe", ctx, required=False)
        manhole = _ident(f, "manhole", ctx, required=False)
        if pipe is None and manhole is None:
            f.issue(ctx, "pipe", "a connection must name the pipe or the manhole it connects to")
        if pipe is not None and manhole is not None:
            f.issue(ctx, "manhole", "name either a pipe or a manhole, not both")
        if pipe is not None and pipe not in known_pipes:
            f.issue(ctx, "pipe", f"names no pipe: {shorten(repr(pipe))}")
        if manhole is not None and manhole not in manhole_first:
            f.issue(ctx, "manhole", f"names no manhole: {shorten(repr(manhole))}")
        coords = _geometry(f, ctx, "Point", nullable=pipe is None)
        pos = _position(f, coords, ctx, "the Point") if coords is not None else None
        if not f.ok or parcel is None:
            continue
        if pipe is not None:
            p = pipes.get(pipe)
            if p is None or pos is None:
                continue  # the pipe itself has errors, reported there
            offset, off_line = locate_on_pipe(ctx.crs, p, pos, segments[p.id])
            if off_line > CONNECTION_DISTANCE_WARNING_M:
                f.issue(
                    ctx,
                    "geometry",
                    f"the point is {off_line:.1f} m from pipe {pipe}; it is projected onto it",
                    warning=True,
                )
            out.append(
                Connection(
                    parcel,
                    pipe,
                    None,
                    pos,
                    p.to_manhole,
                    offset,
                    f.raw.source,
                    f.raw.index,
                    f.fid,
                    off_line,
                )
            )
        elif manhole is not None:
            out.append(
                Connection(
                    parcel, None, manhole, pos, manhole, 0.0, f.raw.source, f.raw.index, f.fid
                )
            )
    return tuple(out)


def locate_on_pipe(
    crs: CRS, pipe: Pipe, point: Point, lengths: list[float] | None = None
) -> tuple[float, float]:
    """(distance along the pipe from the point's projection to its downstream end, distance of
    the point from the pipe's line), both in metres. ``lengths``: the pipe's segment lengths."""
    plane = crs.local_plane(point)
    xy = [plane.xy(c) for c in pipe.coordinates]
    if lengths is None:
        lengths = crs.segment_lengths_m(pipe.coordinates)
    best: tuple[float, int, float] | None = None
    for k in range(len(xy) - 1):
        (ax, ay), (bx, by) = xy[k], xy[k + 1]
        dx, dy = bx - ax, by - ay
        l2 = dx * dx + dy * dy
        t = 0.0 if l2 == 0 else min(1.0, max(0.0, -(ax * dx + ay * dy) / l2))
        dist = math.hypot(ax + t * dx, ay + t * dy)
        if best is None or dist < best[0] - 1e-9:
            best = (dist, k, t)
    assert best is not None
    dist, k, t = best
    along = (1 - t) * lengths[k] + math.fsum(lengths[k + 1 :])
    return along, dist


@dataclass(frozen=True)
class _Edge:
    from_manhole: str
    to_manhole: str
    pipe: str
    source: str
    index: int

    @property
    def where(self) -> str:
        if self.source == "features":
            return f"features[{self.index}]"
        return f"{self.source} line {self.index}"


def _acyclic(edges: list[_Edge]) -> bool:
    """Kahn's algorithm: True when every manhole can be ordered along the flow."""
    number: dict[str, int] = {}
    for e in edges:
        number.setdefault(e.from_manhole, len(number))
        number.setdefault(e.to_manhole, len(number))
    down: list[list[int]] = [[] for _ in number]
    indegree = [0] * len(number)
    for e in edges:
        down[number[e.from_manhole]].append(number[e.to_manhole])
        indegree[number[e.to_manhole]] += 1
    ready = [i for i, d in enumerate(indegree) if d == 0]
    seen = 0
    while ready:
        u = ready.pop()
        seen += 1
        for v in down[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return seen == len(number)


def _cycles(edges: list[_Edge], ctx: _Ctx) -> None:
    """One error per cycle found in the flow direction, anchored at its first pipe in the file."""
    if _acyclic(edges):
        return
    g: nx.DiGraph[str] = nx.DiGraph()
    by_edge: dict[tuple[str, str], _Edge] = {}
    for e in edges:
        g.add_edge(e.from_manhole, e.to_manhole)
        prev = by_edge.get((e.from_manhole, e.to_manhole))
        if prev is None or e.index < prev.index:
            by_edge[(e.from_manhole, e.to_manhole)] = e
    cyclic = [c for c in nx.strongly_connected_components(g) if len(c) > 1]
    for component in sorted(cyclic, key=lambda c: sorted(c)):
        cycle = nx.find_cycle(g.subgraph(component))
        members = [by_edge[(u, v)] for u, v, *_ in cycle]
        anchor = min(members, key=lambda e: (e.source, e.index))
        path = " → ".join([cycle[0][0], *(v for _, v, *_ in cycle)])
        listed = ", ".join(f"{e.pipe} ({e.where})" for e in members)
        extra = (
            ""
            if len(component) == len(members)
            else (f"; {len(component)} manholes are on cycles here")
        )
        ctx.issues.append(
            NetworkIssue(
                anchor.source,
                anchor.index,
                "pipe",
                anchor.pipe or None,
                "to",
                f"flow runs in a cycle {path} through pipes {listed}{extra}",
            )
        )
