"""Cycles in the flow direction of a network's pipes: sewage cannot run in a circle.

A network whose pipes, followed from ``from`` to ``to``, come back to a manhole has a drawing
error (a pipe's direction reversed, most often); :func:`report_cycles` names every cycle and
the pipes in it so that the file can be corrected.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from .feature_fields import BuildContext
from .model import NetworkIssue


@dataclass(frozen=True)
class FlowEdge:
    """A pipe as an edge of the flow graph, with where it is in its file."""

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


def acyclic(edges: list[FlowEdge]) -> bool:
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


def report_cycles(edges: list[FlowEdge], ctx: BuildContext) -> None:
    """One error per cycle found in the flow direction, anchored at its first pipe in the file."""
    if acyclic(edges):
        return
    g: nx.DiGraph[str] = nx.DiGraph()
    by_edge: dict[tuple[str, str], FlowEdge] = {}
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
