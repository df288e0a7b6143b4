"""§ 196-19 I — where a facility's wastes are sampled: its control manhole.

§ 196-19 I: "All measurements, tests and analysis of the characteristic of waters and wastes
to which reference is made in this article shall be determined ... at the control manhole
provided or upon suitable samples taken at said control manhole. In the event that no special
manhole has been required, the control manhole shall be considered to be the nearest
downstream manhole in the public sewer to the point at which the building sewer is
connected."

§ 196-19 H: "When required by the Superintendent, the owner of any property serviced by a
building sewer carrying industrial wastes shall install a suitable control manhole ... in the
building sewer ..."

How the software reads it:

- Whether a control manhole is required under § 196-19 H is the Superintendent's decision,
  recorded by the office (H stays *not formalized*). When the office passes the facility's
  control manhole, § 196-19 I's first sentence makes it the sampling point; it lies in the
  building sewer, so it need not be a manhole of this network.
- Otherwise the second sentence applies: from the point where the building sewer connects,
  follow the flow to the first manhole that is public. For a connection on a pipe that is the
  pipe's downstream manhole when public, else the search continues downstream (a private
  stretch is passed through). For a connection *at* a manhole, that manhole is its own
  nearest downstream manhole when it is public (the wastes enter the public sewer there).
- "Nearest" is by network distance along the flow; where flow splits, the public manhole with
  the shortest distance (ties by id). When no public manhole lies downstream (everything
  drains to a private system), there is none, and the result says so.
- The office may still override the point with a reason; that is its record, not this rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sewer_rules.citations import cite
from sewer_rules.sections import implements

from .model import Connection
from .network import Network

I = cite("§ 196-19 I")  # noqa: E741
H = cite("§ 196-19 H")

BASIS_CONTROL = "control_manhole"
BASIS_NEAREST = "nearest_downstream_public_manhole"
BASIS_NONE = "no_public_manhole_downstream"


@dataclass(frozen=True)
class SamplingPoint:
    """Where a connection's wastes are sampled, and why."""

    parcel: str
    connection_index: int
    manhole: str | None
    basis: str
    network_distance_m: float | None
    via_manholes: tuple[str, ...]
    message: str
    in_network: bool

    @property
    def citation(self) -> str:
        return str(I)

    def as_dict(self) -> dict[str, Any]:
        return {
            "parcel": self.parcel,
            "connection": self.connection_index,
            "manhole": self.manhole,
            "basis": self.basis,
            "citation": self.citation,
            "network_distance_m": (
                None if self.network_distance_m is None else round(self.network_distance_m, 2)
            ),
            "via_manholes": list(self.via_manholes),
            "in_network": self.in_network,
            "message": self.message,
        }


@implements("§ 196-19 I")
def nearest_downstream_public_manhole(
    network: Network, connection: Connection
) -> tuple[str, float, tuple[str, ...]] | None:
    """The nearest downstream manhole in the public sewer from where ``connection`` enters:
    (manhole id, network distance in metres, manholes passed from the entry manhole), or None
    when no public manhole lies downstream."""
    idx = network.index
    start = idx.pos[connection.entry_manhole]
    if idx.forest:  # one way down: follow it to the first public manhole
        walked: list[int] = []
        node, distance = start, 0.0
        while node >= 0:
            walked.append(node)
            if idx.public[node]:
                via = tuple(idx.ids[i] for i in walked)
                return idx.ids[node], connection.offset_m + distance, via
            distance += float(idx.pipe_len[node])
            node = int(idx.parent[node])
        return None
    reach = idx.search(start, upstream=False, stop_at_public=True)
    found = np.flatnonzero(np.isfinite(reach.distance) & idx.public)
    if len(found) == 0:
        return None
    goal = min((int(i) for i in found), key=lambda i: (float(reach.distance[i]), idx.ids[i]))
    path: list[int] = []
    node = goal
    while node != -1:
        path.append(node)
        node = int(reach.next_hop[node])
    path.reverse()
    return (
        idx.ids[goal],
        connection.offset_m + float(reach.distance[goal]),
        tuple(idx.ids[i] for i in path),
    )


@implements("§ 196-19 I")
def sampling_point(
    network: Network, connection: Connection | int, *, control_manhole: str | None = None
) -> SamplingPoint:
    """§ 196-19 I: the control manhole where the facility's wastes are sampled.

    ``control_manhole`` is the facility's control manhole when the Superintendent required one
    (§ 196-19 H, a decision the office records); it takes precedence. Otherwise the nearest
    downstream manhole in the public sewer from the connection.
    """
    if isinstance(connection, int):
        index = connection
        connection = network.connections[index]
    else:
        index = network.connections.index(connection)
    if control_manhole is not None and control_manhole.strip():
        cm = control_manhole.strip()
        inside = cm in network.manholes
        return SamplingPoint(
            connection.parcel,
            index,
            cm,
            BASIS_CONTROL,
            None,
            (),
            f"the control manhole {cm} required under {H} is the sampling point ({I})"
            + ("" if inside else "; it lies in the building sewer, outside the mapped network"),
            inside,
        )
    found = nearest_downstream_public_manhole(network, connection)
    if found is None:
        return SamplingPoint(
            connection.parcel,
            index,
            None,
            BASIS_NONE,
            None,
            (),
            f"no manhole of the public sewer lies downstream of {connection.label}: "
            f"{I} gives no control manhole; the Superintendent may require one ({H})",
            False,
        )
    manhole, distance, via = found
    passed = via[:-1]
    note = f", through private manhole(s) {', '.join(passed)}" if passed else ""
    return SamplingPoint(
        connection.parcel,
        index,
        manhole,
        BASIS_NEAREST,
        distance,
        via,
        f"no control manhole required: the nearest downstream manhole in the public sewer from "
        f"{connection.label} is {manhole}, {distance:.2f} m along the sewer{note} ({I})",
        True,
    )


def sampling_points_for_parcel(
    network: Network, parcel: str, *, control_manhole: str | None = None
) -> list[SamplingPoint]:
    """One sampling point per connection of ``parcel`` (a parcel may have several buildings)."""
    return [
        sampling_point(network, i, control_manhole=control_manhole)
        for i, c in enumerate(network.connections)
        if c.parcel == parcel
    ]
