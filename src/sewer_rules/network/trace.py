"""Upstream trace: from any manhole, every property whose building sewer drains to it.

The tool to find who caused a problem found at a manhole: every connection upstream, nearest
first, as the office's ``sewer-use trace --format json`` gives it::

    {"manhole": "MH01", "upstream": [{"kind": "property", "id": "<parcel>",
      "network_distance_m": 250.0, "via_manholes": ["MH03", "MH02", "MH01"]}, ...]}

Readings:

- *network distance* is measured along the sewer: from the connection's point (projected onto
  its pipe) along that pipe to its downstream manhole, then along the pipes to the traced
  manhole (the shortest way where flow splits). A connection at a manhole starts there (0 m).
  The building sewer itself is not counted.
- ``via_manholes`` runs from the first manhole the connection's flow reaches to the traced
  manhole, both included.
- A parcel with several connections upstream is listed once, at its nearest one.
- Ties in distance are ordered by parcel id. Distances are rounded to the centimetre in
  :meth:`UpstreamTrace.as_dict` (full precision on the entries).
- The office turns ``property`` into ``facility`` (and adds a ``name``) for parcels with one.

Cost: on a tree network (at most one pipe leaves each manhole) the trace is a binary search in
arrays prepared when the network was built, plus a sort of the connections returned; on a
network with flow splits it is one Dijkstra search over the reversed graph. ``via_manholes``
are computed when an entry is read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from .model import Connection
from .network import FloatArray, IntArray, Network, Reach, gc_paused


@dataclass(frozen=True)
class UpstreamEntry:
    kind: str
    id: str
    network_distance_m: float
    via_manholes: tuple[str, ...]
    connection: Connection

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "network_distance_m": round(self.network_distance_m, 2),
            "via_manholes": list(self.via_manholes),
        }


class UpstreamTrace(Sequence[UpstreamEntry]):
    """The properties upstream of ``manhole``, nearest first (a lazy sequence of entries)."""

    def __init__(
        self, network: Network, manhole: str, conns: IntArray, dist: FloatArray, reach: Reach | None
    ) -> None:
        self.network = network
        self.manhole = manhole
        self.connection_indices = conns
        self.distances_m = dist
        self._reach = reach
        self._goal = network.index.pos[manhole]

    def __len__(self) -> int:
        return len(self.connection_indices)

    @overload
    def __getitem__(self, i: int) -> UpstreamEntry: ...
    @overload
    def __getitem__(self, i: slice) -> list[UpstreamEntry]: ...
    def __getitem__(self, i: int | slice) -> UpstreamEntry | list[UpstreamEntry]:
        if isinstance(i, slice):
            return [self._entry(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._entry(i)

    def __iter__(self) -> Iterator[UpstreamEntry]:
        return (self._entry(k) for k in range(len(self)))

    def _entry(self, k: int) -> UpstreamEntry:
        c = self.network.connections[int(self.connection_indices[k])]
        return UpstreamEntry("property", c.parcel, float(self.distances_m[k]), self.via(c), c)

    def via(self, c: Connection) -> tuple[str, ...]:
        """Manholes from the connection's first manhole to the traced one, both included."""
        idx = self.network.index
        node = np.array([idx.pos[c.entry_manhole]], dtype=np.int64)
        return tuple(idx.paths(node, self._goal, self._reach)[0])

    def entries(self, limit: int | None = None) -> list[UpstreamEntry]:
        """The first ``limit`` entries (all by default), their paths computed together."""
        n = len(self) if limit is None else min(limit, len(self))
        idx = self.network.index
        conns = self.network.connections
        with gc_paused():
            paths = idx.paths(idx.conn_node[self.connection_indices[:n]], self._goal, self._reach)
            dists = self.distances_m[:n].tolist()
            return [
                UpstreamEntry("property", conns[c].parcel, d, tuple(path), conns[c])
                for c, d, path in zip(
                    self.connection_indices[:n].tolist(), dists, paths, strict=True
                )
            ]

    @property
    def parcels(self) -> list[str]:
        """Parcel ids in order (no ``via_manholes`` computed)."""
        conns = self.network.connections
        return [conns[int(i)].parcel for i in self.connection_indices]

    def as_dict(self, limit: int | None = None) -> dict[str, Any]:
        """``{"manhole": ..., "upstream": [...]}`` as ``sewer-use trace --format json`` gives it
        (the office adds facility names)."""
        n = len(self) if limit is None else min(limit, len(self))
        idx = self.network.index
        chosen = self.connection_indices[:n]
        with gc_paused():  # tens of thousands of small acyclic objects
            paths = idx.paths(idx.conn_node[chosen], self._goal, self._reach)
            dists = np.round(self.distances_m[:n], 2).tolist()
            parcels = idx.parcel_names[idx.conn_parcel[chosen]].tolist()
            upstream = [
                {"kind": "property", "id": p, "network_distance_m": d, "via_manholes": path}
                for p, d, path in zip(parcels, dists, paths, strict=True)
            ]
        return {"manhole": self.manhole, "upstream": upstream}


def trace_upstream(network: Network, manhole_id: str) -> UpstreamTrace:
    """Every property upstream of ``manhole_id`` (connections at it included), nearest first."""
    idx = network.index
    if manhole_id not in idx.pos:
        raise KeyError(f"no manhole {manhole_id!r} in the network")
    m = idx.pos[manhole_id]
    reach: Reach | None = None
    if idx.forest:
        lo, hi = np.searchsorted(idx.sorted_tin, [idx.tin[m], idx.tout[m]], side="left")
        conns = idx.sorted_conn[lo:hi]
        dist = idx.sorted_key[lo:hi] - idx.to_outlet[m]
    else:
        reach = idx.search(m, upstream=True)
        d_node = reach.distance[idx.conn_node]
        conns = np.flatnonzero(np.isfinite(d_node)).astype(np.int64)
        dist = d_node[conns] + idx.conn_offset[conns]
    if len(conns) == 0:
        return UpstreamTrace(network, manhole_id, conns, dist, reach)
    dist = np.maximum(dist, 0.0)  # rounding of differences of sums: never below zero
    parcel = idx.conn_parcel[conns]
    order = np.lexsort((conns, parcel, np.round(dist, 6)))
    _, first = np.unique(parcel[order], return_index=True)
    keep = order[np.sort(first)]
    return UpstreamTrace(network, manhole_id, conns[keep], dist[keep], reach)


def upstream_area(network: Network, manhole_id: str) -> tuple[set[str], set[str]]:
    """The manholes (the traced one included) and pipes upstream of ``manhole_id``: the traced
    area to highlight on the network drawing."""
    idx = network.index
    m = idx.pos[manhole_id]
    if idx.forest:
        nodes = idx.euler_order[int(idx.tin[m]) : int(idx.tout[m])]
    else:
        nodes = np.flatnonzero(np.isfinite(idx.search(m, upstream=True).distance))
    manholes = {idx.ids[int(i)] for i in nodes}
    pipes = {
        p.id
        for p in network.pipes.values()
        if p.from_manhole in manholes and p.to_manhole in manholes
    }
    return manholes, pipes
