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

from collections.abc import Sequence

from .connection_features import build_connections
from .feature_fields import (
    BuildContext,
    FeatureUnderCheck,
    PipeFields,
    RawFeature,
    classify,
    manhole,
    pipe_fields,
    where,
)
from .flow_cycles import FlowEdge, report_cycles
from .geo import CRS
from .model import Manhole, NetworkError, NetworkIssue
from .network import Network, gc_paused
from .pipe_lines import build_pipes


def build_network(features: Sequence[RawFeature], crs: CRS) -> Network:
    """Validate every feature and build the network, or raise :class:`NetworkError` with all."""
    with gc_paused():
        return _build(features, crs)


def _build(features: Sequence[RawFeature], crs: CRS) -> Network:
    ctx = BuildContext(crs)
    manholes: dict[str, Manhole] = {}
    manhole_first: dict[str, FeatureUnderCheck] = {}
    pipe_feats: list[tuple[FeatureUnderCheck, PipeFields]] = []
    conn_feats: list[FeatureUnderCheck] = []

    for raw in features:
        f = classify(raw, ctx)
        if f is None:
            continue
        if f.kind == "manhole":
            m = manhole(f, ctx)
            if f.fid is not None:
                if f.fid in manhole_first:
                    first = manhole_first[f.fid].raw
                    f.issue(ctx, "id", f"duplicate manhole id (first at {where(first)})")
                else:
                    manhole_first[f.fid] = f
                    if m is not None and f.ok:
                        manholes[f.fid] = m
        elif f.kind == "pipe":
            pipe_feats.append((f, pipe_fields(f, ctx)))
        else:
            conn_feats.append(f)

    pipes, segments = build_pipes(pipe_feats, manhole_first, manholes, ctx)
    known_pipes = {f.fid for f, _ in pipe_feats if f.fid is not None}
    connections = build_connections(conn_feats, manhole_first, pipes, segments, known_pipes, ctx)
    report_cycles(
        [
            FlowEdge(v.from_manhole, v.to_manhole, f.fid or "", f.raw.source, f.raw.index)
            for f, v in pipe_feats
            if v.from_manhole is not None
            and v.to_manhole is not None
            and v.from_manhole in manhole_first
            and v.to_manhole in manhole_first
            and v.from_manhole != v.to_manhole
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
