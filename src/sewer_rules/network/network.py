"""A validated sewer network and the indexes its traversals need, built once.

Manholes are numbered 0..n-1 in file order. Parallel pipes between the same two manholes are
one edge of the shortest length for distances. When every manhole has at most one pipe
leaving it (a forest of trees draining to outlets — the usual gravity sewer), the network
also gets an Euler-tour numbering of each tree: the manholes upstream of any manhole are then
one contiguous range, and the connections upstream one contiguous slice of an array sorted
by that numbering, so an upstream trace costs a binary search and a sort of what it returns.
Otherwise (a flow split) traces run a Dijkstra search over the reversed graph.
"""

from __future__ import annotations

import gc
import heapq
import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from .geo import CRS
from .model import Connection, Manhole, NetworkIssue, Pipe

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large network is built (it would otherwise
    rescan the growing heap many times over; the structures built hold no cycles), then
    restore it as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Network:
    """Manholes, pipes and connections, validated (build it with ``parse_geojson`` or
    ``parse_csv``), with the indexes for § 196-19 I and upstream traces."""

    def __init__(
        self,
        crs: CRS,
        manholes: Mapping[str, Manhole],
        pipes: Mapping[str, Pipe],
        connections: tuple[Connection, ...],
        warnings: tuple[NetworkIssue, ...] = (),
    ) -> None:
        self.crs = crs
        self.manholes: dict[str, Manhole] = dict(manholes)
        self.pipes: dict[str, Pipe] = dict(pipes)
        self.connections = connections
        self.warnings = warnings
        with gc_paused():
            self.index = _Index(self)

    def __repr__(self) -> str:
        return (
            f"<Network {len(self.manholes)} manholes, {len(self.pipes)} pipes, "
            f"{len(self.connections)} connections>"
        )

    def manhole(self, manhole_id: str) -> Manhole:
        try:
            return self.manholes[manhole_id]
        except KeyError:
            raise KeyError(f"no manhole {manhole_id!r} in the network") from None

    def pipes_leaving(self, manhole_id: str) -> list[Pipe]:
        return [self.pipes[p] for p in self.index.leaving.get(manhole_id, ())]

    def pipes_entering(self, manhole_id: str) -> list[Pipe]:
        return [self.pipes[p] for p in self.index.entering.get(manhole_id, ())]

    def outlets(self) -> list[str]:
        """Manholes no pipe leaves (where the network drains: the plant, a pump station)."""
        return [m for m in self.manholes if not self.index.leaving.get(m)]

    def connections_of(self, parcel: str) -> list[Connection]:
        return [c for c in self.connections if c.parcel == parcel]

    @property
    def is_forest(self) -> bool:
        """True when no manhole has more than one pipe leaving it to different manholes."""
        return self.index.forest

    def to_networkx(self) -> nx.MultiDiGraph[str]:
        """A ``networkx.MultiDiGraph``: manhole ids as nodes, one edge per pipe (key = pipe id,
        ``length_m``, ``public``, ``diameter_in``), in the direction of flow."""
        g: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        for m in self.manholes.values():
            g.add_node(m.id, public=m.public, position=m.position)
        for p in self.pipes.values():
            g.add_edge(
                p.from_manhole,
                p.to_manhole,
                key=p.id,
                length_m=p.length_m,
                public=p.public,
                diameter_in=p.diameter_in,
            )
        return g

    def summary(self) -> dict[str, Any]:
        """Counts and lengths for ``network-check`` and the office's network page."""
        public_m = sum(1 for m in self.manholes.values() if m.public)
        public_p = [p for p in self.pipes.values() if p.public]
        splits = [m for m, ps in self.index.leaving.items() if len(ps) > 1]
        return {
            "crs": self.crs.as_dict(),
            "manholes": {
                "total": len(self.manholes),
                "public": public_m,
                "private": len(self.manholes) - public_m,
            },
            "pipes": {
                "total": len(self.pipes),
                "public": len(public_p),
                "private": len(self.pipes) - len(public_p),
                "length_m": round(math.fsum(p.length_m for p in self.pipes.values()), 2),
                "public_length_m": round(math.fsum(p.length_m for p in public_p), 2),
            },
            "connections": len(self.connections),
            "parcels": len({c.parcel for c in self.connections}),
            "outlets": self.outlets(),
            "manholes_with_several_pipes_leaving": sorted(splits),
            "tree": self.index.forest,
            "warnings": len(self.warnings),
        }


@dataclass(frozen=True)
class Reach:
    """Manholes reached from one manhole: ``distance[i]`` (inf when not reached),
    ``next_hop[i]``, the neighbour on a shortest path back towards the start (-1 at it), and
    ``hops[i]``, the number of pipes on that path (-1 when not reached)."""

    start: int
    distance: FloatArray
    next_hop: IntArray
    hops: IntArray


class _Index:
    """Integer numbering, adjacency, and (for forests) the Euler tour. Built once."""

    def __init__(self, net: Network) -> None:
        self._net = net
        self.ids: list[str] = list(net.manholes)
        self.pos: dict[str, int] = {m: i for i, m in enumerate(self.ids)}
        n = len(self.ids)
        self.public = np.fromiter((m.public for m in net.manholes.values()), bool, n)
        pipes = list(net.pipes.values())
        k = len(pipes)
        frm = np.fromiter((self.pos[p.from_manhole] for p in pipes), np.int64, k)
        to = np.fromiter((self.pos[p.to_manhole] for p in pipes), np.int64, k)
        length = np.fromiter((p.length_m for p in pipes), np.float64, k)
        # parallel pipes collapse to the shortest
        order = np.lexsort((length, to, frm))
        frm, to, length = frm[order], to[order], length[order]
        first = np.ones(k, dtype=bool)
        first[1:] = (frm[1:] != frm[:-1]) | (to[1:] != to[:-1])
        self.edge_from, self.edge_to, self.edge_len = frm[first], to[first], length[first]
        out_degree = np.bincount(self.edge_from, minlength=n)
        self.forest = bool(n == 0 or out_degree.max(initial=0) <= 1)

        conns = net.connections
        self.conn_node = np.fromiter(
            (self.pos[c.entry_manhole] for c in conns), np.int64, len(conns)
        )
        self.conn_offset = np.fromiter((c.offset_m for c in conns), np.float64, len(conns))
        if conns:
            parcels = np.empty(len(conns), dtype=object)  # Python strings, kept exactly
            parcels[:] = [c.parcel for c in conns]
            self.parcel_names, codes = np.unique(parcels, return_inverse=True)
            self.conn_parcel = codes.astype(np.int64).reshape(-1)
        else:
            self.parcel_names = np.array([], dtype=object)
            self.conn_parcel = np.array([], dtype=np.int64)
        if self.forest:
            self._euler(n)

    def _euler(self, n: int) -> None:
        parent = np.full(n, -1, dtype=np.int64)
        plen = np.zeros(n, dtype=np.float64)
        parent[self.edge_from] = self.edge_to
        plen[self.edge_from] = self.edge_len
        # children of each manhole, as lists, in file order
        has_parent = np.flatnonzero(parent >= 0)
        by_parent = has_parent[np.argsort(parent[has_parent], kind="stable")]
        counts = np.bincount(parent[has_parent], minlength=n)
        bounds = np.concatenate(([0], np.cumsum(counts))).tolist()
        kids = by_parent.tolist()
        par = parent.tolist()
        lens = plen.tolist()
        tin = [0] * n
        tout = [0] * n
        to_outlet = [0.0] * n
        depth = [0] * n
        clock = 0
        for root in np.flatnonzero(parent < 0).tolist():
            stack = [root]
            while stack:
                node = stack.pop()
                if node < 0:
                    tout[~node] = clock
                    continue
                tin[node] = clock
                clock += 1
                p = par[node]
                if p >= 0:
                    to_outlet[node] = to_outlet[p] + lens[node]
                    depth[node] = depth[p] + 1
                stack.append(~node)
                stack.extend(reversed(kids[bounds[node] : bounds[node + 1]]))
        self.parent = parent
        self.pipe_len = plen
        self.to_outlet = np.array(to_outlet, dtype=np.float64)
        self.depth = np.array(depth, dtype=np.int64)  # pipes between a manhole and its outlet
        self.tin = np.array(tin, dtype=np.int64)
        self.tout = np.array(tout, dtype=np.int64)
        conn_tin = self.tin[self.conn_node]
        order = np.argsort(conn_tin, kind="stable")
        self.sorted_conn = order.astype(np.int64)
        self.sorted_tin = conn_tin[order]
        self.sorted_key = (self.conn_offset + self.to_outlet[self.conn_node])[order]

    # --- built on first use ------------------------------------------------------------------

    @cached_property
    def leaving(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for p in self._net.pipes.values():
            out.setdefault(p.from_manhole, []).append(p.id)
        return out

    @cached_property
    def entering(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for p in self._net.pipes.values():
            out.setdefault(p.to_manhole, []).append(p.id)
        return out

    @cached_property
    def down(self) -> list[list[tuple[int, float]]]:
        adj: list[list[tuple[int, float]]] = [[] for _ in self.ids]
        for a, b, w in zip(
            self.edge_from.tolist(), self.edge_to.tolist(), self.edge_len.tolist(), strict=True
        ):
            adj[a].append((b, w))
        return adj

    @cached_property
    def up(self) -> list[list[tuple[int, float]]]:
        adj: list[list[tuple[int, float]]] = [[] for _ in self.ids]
        for a, b, w in zip(
            self.edge_from.tolist(), self.edge_to.tolist(), self.edge_len.tolist(), strict=True
        ):
            adj[b].append((a, w))
        return adj

    @cached_property
    def euler_order(self) -> IntArray:
        """Manholes (numbers) sorted by their Euler-tour entry time (forests only)."""
        return np.argsort(self.tin, kind="stable").astype(np.int64)

    # --- traversals --------------------------------------------------------------------------

    def search(self, start: int, *, upstream: bool, stop_at_public: bool = False) -> Reach:
        """Dijkstra from ``start`` along the flow (``upstream=False``) or against it; ties in
        distance are settled by manhole id, so results do not depend on file order."""
        adj = self.up if upstream else self.down
        n = len(self.ids)
        dist = np.full(n, math.inf, dtype=np.float64)
        nxt = np.full(n, -1, dtype=np.int64)
        hops = np.full(n, -1, dtype=np.int64)
        best = [math.inf] * n
        best[start] = 0.0
        heap: list[tuple[float, str, int, int]] = [(0.0, self.ids[start], start, -1)]
        while heap:
            d, _, u, via = heapq.heappop(heap)
            if dist[u] != math.inf:
                continue
            dist[u] = d
            nxt[u] = via
            hops[u] = 0 if via < 0 else hops[via] + 1
            if stop_at_public and self.public[u]:
                break
            for v, length in adj[u]:
                nd = d + length
                if nd < best[v]:
                    best[v] = nd
                    heapq.heappush(heap, (nd, self.ids[v], v, u))
        return Reach(start, dist, nxt, hops)

    @cached_property
    def id_objects(self) -> npt.NDArray[np.object_]:
        """The manhole ids as a numpy object array (fancy indexing returns the same strings)."""
        arr = np.empty(len(self.ids), dtype=object)
        arr[:] = self.ids
        return arr

    def paths(self, nodes: IntArray, goal: int, reach: Reach | None) -> list[list[str]]:
        """For each node, the manhole ids from it to ``goal`` (inclusive), following the forest's
        parents or ``reach``'s next hops. Vectorised over a flat array as long as the output:
        each round advances every path not yet at ``goal`` by one manhole."""
        if reach is None:
            step, lengths = self.parent, self.depth[nodes] - self.depth[goal] + 1
        else:
            step, lengths = reach.next_hop, reach.hops[nodes] + 1
        if len(nodes) == 0:
            return []
        if lengths.min() < 1:
            raise ValueError("a node given is not upstream of the goal")
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
        flat = np.empty(int(lengths.sum()), dtype=np.int64)
        cur = nodes.astype(np.int64).copy()
        pos = starts.copy()
        flat[pos] = cur
        remaining = lengths - 1
        active = np.flatnonzero(remaining > 0)
        while len(active):
            nxt = step[cur[active]]
            cur[active] = nxt
            pos[active] += 1
            flat[pos[active]] = nxt
            remaining[active] -= 1
            active = active[remaining[active] > 0]
        names = self.id_objects[flat].tolist()
        ends = (starts + lengths).tolist()
        return [names[lo:hi] for lo, hi in zip(starts.tolist(), ends, strict=True)]
