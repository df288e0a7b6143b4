"""Parcels' connections to a network: on a pipe, placed along it, or at a manhole.

A connection on a pipe needs its Point: its place along the pipe is where its flow enters the
network (the distance to the pipe's downstream manhole). The point is projected onto the pipe's
line; one far from it is reported (warning).
"""

from __future__ import annotations

import math

from sewer_rules.hostile import shorten

from .feature_fields import BuildContext, FeatureUnderCheck, geometry, ident, position, where
from .geo import CRS, Point
from .model import Connection, Pipe

#: a connection's point farther than this from its pipe is reported (warning)
CONNECTION_DISTANCE_WARNING_M = 100.0


def build_connections(
    feats: list[FeatureUnderCheck],
    manhole_first: dict[str, FeatureUnderCheck],
    pipes: dict[str, Pipe],
    segments: dict[str, list[float]],
    known_pipes: set[str],
    ctx: BuildContext,
) -> tuple[Connection, ...]:
    """The connections of valid features: each on its pipe (projected onto it) or at a manhole."""
    ids: dict[str, FeatureUnderCheck] = {}
    out: list[Connection] = []
    for f in feats:
        parcel = ident(f, "parcel", ctx, required=True)
        if f.fid is not None:
            if f.fid in ids:
                f.issue(ctx, "id", f"duplicate connection id (first at {where(ids[f.fid].raw)})")
            else:
                ids[f.fid] = f
        pipe = ident(f, "pipe", ctx, required=False)
        manhole = ident(f, "manhole", ctx, required=False)
        if pipe is None and manhole is None:
            f.issue(ctx, "pipe", "a connection must name the pipe or the manhole it connects to")
        if pipe is not None and manhole is not None:
            f.issue(ctx, "manhole", "name either a pipe or a manhole, not both")
        if pipe is not None and pipe not in known_pipes:
            f.issue(ctx, "pipe", f"names no pipe: {shorten(repr(pipe))}")
        if manhole is not None and manhole not in manhole_first:
            f.issue(ctx, "manhole", f"names no manhole: {shorten(repr(manhole))}")
        coords = geometry(f, ctx, "Point", nullable=pipe is None)
        pos = position(f, coords, ctx, "the Point") if coords is not None else None
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
