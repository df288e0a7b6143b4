"""The pipes of a network measured: their lines, lengths and ends checked against manholes.

Every segment of every line is measured in one vectorised call (a town's file holds tens of
thousands of pipes). A line of zero length is an error; a line whose first or last vertex is
not at its ``from``/``to`` manhole is a warning (the properties, not the drawing, say which
way the flow runs).
"""

from __future__ import annotations

import math

import numpy as np

from sewer_rules.hostile import shorten

from .feature_fields import BuildContext, FeatureUnderCheck, PipeFields, where
from .geo import Point
from .model import Manhole, Pipe

#: a pipe end farther than this from its manhole is reported (warning)
ENDPOINT_TOLERANCE_M = 1.0


def build_pipes(
    feats: list[tuple[FeatureUnderCheck, PipeFields]],
    manhole_first: dict[str, FeatureUnderCheck],
    manholes: dict[str, Manhole],
    ctx: BuildContext,
) -> tuple[dict[str, Pipe], dict[str, list[float]]]:
    """Pipes built from valid features, and each one's segment lengths (metres)."""
    first: dict[str, FeatureUnderCheck] = {}
    lines: list[tuple[FeatureUnderCheck, PipeFields, list[Point]]] = []
    for f, v in feats:
        if f.fid is not None:
            if f.fid in first:
                f.issue(ctx, "id", f"duplicate pipe id (first at {where(first[f.fid].raw)})")
            else:
                first[f.fid] = f
        for end, mid in (("from", v.from_manhole), ("to", v.to_manhole)):
            if mid is not None and mid not in manhole_first:
                f.issue(ctx, end, f"names no manhole: {shorten(repr(mid))}")
        coords = v.coords
        if f.raw.implicit_line:  # from its manhole, through its bends, to the other (ids not empty)
            start, stop = manholes.get(v.from_manhole or ""), manholes.get(v.to_manhole or "")
            if start is not None and stop is not None:
                coords = [start.position, *v.bends, stop.position]
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
    drawn: list[tuple[FeatureUnderCheck, Pipe]] = []
    for k, (f, v, coords) in enumerate(lines):
        lengths = [float(x) for x in seg[starts[k] : starts[k + 1]]]
        length = math.fsum(lengths)
        if length <= 0:
            f.issue(ctx, "geometry", "the pipe has zero length")
            continue
        if not f.ok or f.fid is None or first.get(f.fid) is not f:
            continue
        # a feature still ok has both ends and ``public`` (a missing one is an error)
        if v.from_manhole is None or v.to_manhole is None or v.public is None:
            continue
        segments[f.fid] = lengths
        pipe = Pipe(
            f.fid,
            v.from_manhole,
            v.to_manhole,
            v.public,
            v.diameter_in,
            tuple(coords),
            length,
            f.raw.source,
            f.raw.index,
        )
        pipes[f.fid] = pipe
        if not f.raw.implicit_line:
            drawn.append((f, pipe))
    check_ends(drawn, manholes, ctx)
    return pipes, segments


def check_ends(
    drawn: list[tuple[FeatureUnderCheck, Pipe]],
    manholes: dict[str, Manhole],
    ctx: BuildContext,
) -> None:
    """Warn where a drawn line's first/last vertex is not at its from/to manhole."""
    lines = [x for x in drawn if x[1].from_manhole in manholes and x[1].to_manhole in manholes]
    if not lines:
        return
    first = np.array([p.coordinates[0] for _, p in lines], dtype=np.float64)
    last = np.array([p.coordinates[-1] for _, p in lines], dtype=np.float64)
    a = np.array([manholes[p.from_manhole].position for _, p in lines], dtype=np.float64)
    b = np.array([manholes[p.to_manhole].position for _, p in lines], dtype=np.float64)
    d_from, d_to = ctx.crs.distances_m(first, a), ctx.crs.distances_m(last, b)
    tol = ENDPOINT_TOLERANCE_M
    for k in np.flatnonzero((d_from > tol) | (d_to > tol)):
        f, p = lines[k]
        coords = p.coordinates
        seg = ctx.crs.segment_length_m
        if (
            seg(coords[0], manholes[p.to_manhole].position) <= tol
            and seg(coords[-1], manholes[p.from_manhole].position) <= tol
        ):
            f.issue(
                ctx,
                "geometry",
                f"the line is drawn from {p.to_manhole} to {p.from_manhole}: flow is taken "
                "from 'from' to 'to' as the properties say; check the direction",
                warning=True,
            )
            continue
        for end, d, mid in (("from", d_from[k], p.from_manhole), ("to", d_to[k], p.to_manhole)):
            if d > tol:
                f.issue(
                    ctx,
                    "geometry",
                    f"the line's {'first' if end == 'from' else 'last'} vertex is {d:.2f} m from "
                    f"its '{end}' manhole {mid}",
                    warning=True,
                )
