"""The sewer network engine on known networks: § 196-19 I sampling points, upstream traces,
the two trace algorithms against each other and against a naive networkx oracle."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sewer_rules.citations import cite
from sewer_rules.network import (
    Network,
    generate_network,
    load_geojson,
    parse_geojson,
    sampling_point,
    sampling_points_for_parcel,
    to_geojson,
    trace_upstream,
    upstream_area,
)
from sewer_rules.rulebook import implementers
from sewer_rules.sections import REGISTRY, Coverage
from tests.case_kinds.network import CONNECTIONS, DOWNSTREAM, MANHOLES, thirteen

EXAMPLE = (
    Path(__file__).resolve().parent.parent / "examples" / "network" / "example-network.geojson"
)

#: parcels upstream of each manhole of the 13-manhole tree (counted by hand)
UPSTREAM_PARCELS = {
    "MH01": 12,
    "MH02": 11,
    "MH03": 3,
    "MH04": 7,
    "MH05": 1,
    "MH06": 1,
    "MH07": 3,
    "MH08": 2,
    "MH09": 0,
    "MH10": 0,
    "MH11": 1,
    "MH12": 2,
    "MH13": 1,
}
UPSTREAM_MANHOLES = {
    "MH01": 13,
    "MH02": 12,
    "MH03": 5,
    "MH04": 6,
    "MH05": 2,
    "MH06": 2,
    "MH07": 3,
    "MH08": 2,
    "MH09": 1,
    "MH10": 1,
    "MH11": 1,
    "MH12": 2,
    "MH13": 1,
}


@pytest.fixture(scope="module")
def net() -> Network:
    return parse_geojson(thirteen())


def test_the_thirteen_manhole_tree_is_read_whole(net: Network) -> None:
    assert len(net.manholes) == 13 and len(net.pipes) == 12 and len(net.connections) == 13
    assert net.outlets() == ["MH01"]
    assert net.is_forest
    assert net.warnings == ()
    assert net.pipes["P11"].length_m == pytest.approx(140)  # 80 + 60, through its bend
    assert net.pipes["P13"].length_m == pytest.approx(50)  # a 3-4-5 triangle
    s = net.summary()
    assert s["manholes"] == {"total": 13, "public": 11, "private": 2}
    assert s["pipes"]["length_m"] == pytest.approx(1190)
    assert s["parcels"] == 12


@pytest.mark.parametrize(("manhole", "count"), sorted(UPSTREAM_PARCELS.items()))
def test_upstream_parcel_counts(net: Network, manhole: str, count: int) -> None:
    trace = trace_upstream(net, manhole)
    assert len(trace) == count
    assert len(set(trace.parcels)) == count  # each parcel once


@pytest.mark.parametrize(("manhole", "count"), sorted(UPSTREAM_MANHOLES.items()))
def test_upstream_area_counts(net: Network, manhole: str, count: int) -> None:
    manholes, pipes = upstream_area(net, manhole)
    assert manhole in manholes
    assert len(manholes) == count
    assert len(pipes) == count - 1  # a tree: one pipe per manhole above the traced one


def test_trace_json_shape_and_order(net: Network) -> None:
    data = json.loads(json.dumps(trace_upstream(net, "MH01").as_dict()))
    assert data["manhole"] == "MH01"
    first = data["upstream"][0]
    assert first == {
        "kind": "property",
        "id": "PCL-01",
        "network_distance_m": 50.0,
        "via_manholes": ["MH01"],
    }
    distances = [e["network_distance_m"] for e in data["upstream"]]
    assert distances == sorted(distances)
    for e in data["upstream"]:
        assert e["via_manholes"][-1] == "MH01"
        # every step of the path is a pipe in the direction of flow
        for a, b in zip(e["via_manholes"], e["via_manholes"][1:], strict=False):
            assert DOWNSTREAM[a] == b


def test_entries_and_lazy_items_agree(net: Network) -> None:
    trace = trace_upstream(net, "MH02")
    bulk = trace.entries()
    assert [e.as_dict() for e in bulk] == [trace[i].as_dict() for i in range(len(trace))]
    assert trace[-1] == bulk[-1]
    assert trace[1:3] == bulk[1:3]
    assert trace.as_dict(limit=2)["upstream"] == [e.as_dict() for e in bulk[:2]]
    with pytest.raises(IndexError):
        trace[len(trace)]


def test_unknown_manhole_is_refused(net: Network) -> None:
    with pytest.raises(KeyError, match="MH99"):
        trace_upstream(net, "MH99")


def test_sampling_point_follows_the_private_stretch(net: Network) -> None:
    (point,) = sampling_points_for_parcel(net, "PCL-10")
    assert point.manhole == "MH04"
    assert point.via_manholes == ("MH11", "MH08", "MH04")
    assert point.network_distance_m == pytest.approx(240)
    assert "private manhole(s) MH11, MH08" in point.message
    assert point.citation == "§ 196-19 I"


def test_every_connection_samples_at_a_public_manhole_downstream(net: Network) -> None:
    g = net.to_networkx()
    for i, c in enumerate(net.connections):
        p = sampling_point(net, i)
        assert p.manhole is not None and net.manholes[p.manhole].public
        assert p.manhole == c.entry_manhole or nx.has_path(g, c.entry_manhole, p.manhole)
        # nothing public strictly between the entry and the sampling manhole
        assert all(not net.manholes[m].public for m in p.via_manholes[:-1])


def test_the_control_manhole_takes_precedence(net: Network) -> None:
    p = sampling_point(net, net.connections[8], control_manhole="CM-9")
    assert (p.manhole, p.basis, p.in_network) == ("CM-9", "control_manhole", False)
    assert "§ 196-19 H" in p.message
    blank = sampling_point(net, 8, control_manhole="  ")
    assert blank.basis == "nearest_downstream_public_manhole"


def test_196_19_i_is_registered_and_h_is_carried_out_by_the_office() -> None:
    """§ 196-19 H's requirement is the Superintendent's decision; the office records it (a
    control manhole named as the property's sampling point), so the registry names those
    office functions rather than calling the subsection "not formalized"."""
    import sewer_rules.network  # noqa: F401 - registers the network rules

    names = implementers()[cite("§ 196-19 I")]
    assert "sewer_rules.network.sampling.sampling_point" in names
    assert "sewer_rules.network.sampling.nearest_downstream_public_manhole" in names
    assert REGISTRY[cite("§ 196-19 I")].coverage is Coverage.IMPLEMENTED
    control_manhole = REGISTRY[cite("§ 196-19 H")]
    assert control_manhole.coverage is Coverage.IMPLEMENTED
    assert "sewer_office.network.services.override_sampling_point" in control_manhole.office


def test_the_example_file_is_the_same_tree_on_wgs84() -> None:
    planar = parse_geojson(thirteen())
    geo = load_geojson(EXAMPLE)
    assert geo.crs.kind == "geographic"
    for m in MANHOLES:
        a, b = trace_upstream(planar, m), trace_upstream(geo, m)
        assert sorted(a.parcels) == sorted(b.parcels)
        for x, y in zip(
            sorted(a.entries(), key=lambda e: e.id),
            sorted(b.entries(), key=lambda e: e.id),
            strict=True,
        ):
            assert x.via_manholes == y.via_manholes
            assert y.network_distance_m == pytest.approx(x.network_distance_m, abs=0.05)
    for i in range(len(CONNECTIONS)):
        assert sampling_point(planar, i).manhole == sampling_point(geo, i).manhole


def test_round_trip_through_geojson(net: Network) -> None:
    again = parse_geojson(json.loads(json.dumps(to_geojson(net))))
    assert again.crs.name == net.crs.name
    assert trace_upstream(again, "MH01").as_dict() == trace_upstream(net, "MH01").as_dict()
    assert [p.length_m for p in again.pipes.values()] == [p.length_m for p in net.pipes.values()]


# --- the fast (tree) path against a general search and a naive oracle ------------------------


def _general(network: Network) -> Network:
    """The same network, forced onto the general (Dijkstra) trace path."""
    other = Network(network.crs, network.manholes, network.pipes, network.connections)
    other.index.forest = False
    return other


def _naive(network: Network, manhole: str) -> dict[str, float]:
    """Parcel → distance, by networkx: ancestors, then a shortest path from each."""
    g = nx.DiGraph()
    for p in network.pipes.values():
        g.add_edge(p.from_manhole, p.to_manhole, w=p.length_m)
    g.add_nodes_from(network.manholes)
    out: dict[str, float] = {}
    for c in network.connections:
        if c.entry_manhole == manhole or manhole in nx.descendants(g, c.entry_manhole):
            d = c.offset_m + nx.shortest_path_length(g, c.entry_manhole, manhole, weight="w")
            out[c.parcel] = min(d, out.get(c.parcel, d))
    return out


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=120),
    seed=st.integers(min_value=0, max_value=10_000),
    pick=st.integers(min_value=0, max_value=10_000),
)
def test_tree_trace_equals_general_search_and_naive_oracle(n: int, seed: int, pick: int) -> None:
    net = parse_geojson(generate_network(n, seed=seed, private_share=0.2))
    general = _general(net)
    manhole = list(net.manholes)[pick % n]
    fast, slow = trace_upstream(net, manhole), trace_upstream(general, manhole)
    assert fast.parcels == slow.parcels
    assert list(fast.distances_m) == pytest.approx(list(slow.distances_m), abs=1e-6)
    assert [e.via_manholes for e in fast] == [e.via_manholes for e in slow]
    oracle = _naive(net, manhole)
    assert set(fast.parcels) == set(oracle)
    for e in fast:
        assert e.network_distance_m == pytest.approx(oracle[e.id], abs=1e-6)
    assert upstream_area(net, manhole) == upstream_area(general, manhole)
    for i in range(0, len(net.connections), 7):
        assert sampling_point(net, i) == sampling_point(general, i)


def test_generator_is_deterministic_and_valid() -> None:
    a, b = generate_network(300, seed=4), generate_network(300, seed=4)
    assert a == b
    assert a != generate_network(300, seed=5)
    net = parse_geojson(a)
    assert len(net.manholes) == 300 and len(net.pipes) == 299
    assert net.outlets() == ["MH00000"]
    assert net.warnings == ()
    assert any(not m.public for m in net.manholes.values())
    assert len(trace_upstream(net, "MH00000")) == len({c.parcel for c in net.connections})


@st.composite
def dag_networks(draw: st.DrawFn) -> dict[str, object]:
    """Random acyclic networks with flow splits: pipes only from higher to lower numbers."""
    n = draw(st.integers(min_value=2, max_value=14))
    pts = draw(
        st.lists(
            st.tuples(st.integers(-500, 500), st.integers(-500, 500)),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    public = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    features: list[dict[str, object]] = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": list(pts[i])},
            "properties": {"kind": "manhole", "id": f"M{i}", "public": public[i]},
        }
        for i in range(n)
    ]
    pipes = []
    for i in range(1, n):
        targets = draw(st.sets(st.integers(0, i - 1), min_size=1, max_size=2))
        for j in sorted(targets):
            pid = f"P{i}-{j}"
            pipes.append(pid)
            features.append(
                {
                    "type": "Feature",
                    "geometry": {"type": "LineString", "coordinates": [list(pts[i]), list(pts[j])]},
                    "properties": {
                        "kind": "pipe",
                        "id": pid,
                        "from": f"M{i}",
                        "to": f"M{j}",
                        "public": True,
                    },
                }
            )
    for k in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):
            props = {
                "kind": "connection",
                "parcel": f"X{k % 5}",
                "manhole": f"M{draw(st.integers(0, n - 1))}",
            }
            geometry = None
        else:
            pid = draw(st.sampled_from(pipes))
            i, j = (int(v) for v in pid[1:].split("-"))
            t = draw(st.floats(0, 1))
            xy = [pts[i][0] + t * (pts[j][0] - pts[i][0]), pts[i][1] + t * (pts[j][1] - pts[i][1])]
            props = {"kind": "connection", "parcel": f"X{k % 5}", "pipe": pid}
            geometry = {"type": "Point", "coordinates": xy}
        features.append({"type": "Feature", "geometry": geometry, "properties": props})
    return {
        "type": "FeatureCollection",
        "crs": {"type": "name", "properties": {"name": "planar:m"}},
        "features": features,
    }


@settings(max_examples=40, deadline=None)
@given(data=dag_networks(), pick=st.integers(min_value=0, max_value=100))
def test_general_networks_against_naive_oracles(data: dict[str, object], pick: int) -> None:
    net = parse_geojson(data)
    manhole = list(net.manholes)[pick % len(net.manholes)]
    trace = trace_upstream(net, manhole)
    oracle = _naive(net, manhole)
    assert set(trace.parcels) == set(oracle)
    for e in trace:
        assert e.network_distance_m == pytest.approx(oracle[e.id], abs=1e-6)
        path_len = sum(
            min(p.length_m for p in net.pipes.values() if (p.from_manhole, p.to_manhole) == (a, b))
            for a, b in zip(e.via_manholes, e.via_manholes[1:], strict=False)
        )
        assert e.connection.offset_m + path_len == pytest.approx(e.network_distance_m, abs=1e-6)
    g = nx.DiGraph()
    for p in net.pipes.values():
        g.add_edge(p.from_manhole, p.to_manhole, w=p.length_m)
    g.add_nodes_from(net.manholes)
    for i, c in enumerate(net.connections):
        reach = nx.single_source_dijkstra_path_length(g, c.entry_manhole, weight="w")
        public = {m: d for m, d in reach.items() if net.manholes[m].public}
        point = sampling_point(net, i)
        if not public:
            assert point.manhole is None
            continue
        best = min(public.values())
        assert point.manhole == min(
            m for m, d in public.items() if d == pytest.approx(best, abs=1e-9)
        )
        assert point.network_distance_m == pytest.approx(c.offset_m + best, abs=1e-6)
