"""Benchmark: upstream trace on a 50,000-manhole network against networkx baselines.

Generates a deterministic tree network (``sewer_rules.network.generate``), builds it once
(validation, lengths, indexes), then times, for ~50 seeded random manholes, for the 20 busiest
manholes of the trunk near the outlet, and for the outlet itself:

(a) ``trace_upstream`` — every property upstream, ordered by network distance (the engine's
    precomputed Euler-tour ranges: a binary search and a sort of what it returns);
(b) (a) plus ``as_dict()`` — the full ``trace --format json`` structure with ``via_manholes``;
(c) baseline 1, networkx done sensibly: one ``single_source_dijkstra`` over the reversed graph
    from the traced manhole (distances and paths), then the connections, sorted;
(d) baseline 2, naive: ``nx.ancestors`` and, for each upstream manhole with a connection, its
    own ``single_source_dijkstra`` to the traced manhole (distance and path).

Every baseline's result is checked against the engine's (same parcels in the same order, same
distances to 1e-6 m, same paths). Prints median and p95 (ms) and the ratios.

    .venv/bin/python bench/network_trace.py [--manholes 50000] [--traces 50] [--seed 1]
                                            [--skip-naive-outlet]

Target (the network tracing's own): a trace on a 50,000-manhole network under 200 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import networkx as nx

from sewer_rules.network import Network, generate_network, parse_geojson, trace_upstream

Result = list[tuple[str, float, list[str]]]


def engine_json(net: Network, manhole: str) -> dict[str, Any]:
    return trace_upstream(net, manhole).as_dict()


def as_result(data: dict[str, Any]) -> Result:
    return [(e["id"], e["network_distance_m"], e["via_manholes"]) for e in data["upstream"]]


def _finish(found: dict[str, tuple[float, list[str]]]) -> Result:
    rows = sorted(found.items(), key=lambda kv: (round(kv[1][0], 6), kv[0]))
    return [(parcel, round(d, 2), path) for parcel, (d, path) in rows]


def _by_manhole(net: Network) -> dict[str, list[tuple[str, float]]]:
    out: dict[str, list[tuple[str, float]]] = {}
    for c in net.connections:
        out.setdefault(c.entry_manhole, []).append((c.parcel, c.offset_m))
    return out


def networkx_dijkstra(
    reverse: Any, conns: dict[str, list[tuple[str, float]]], manhole: str
) -> Result:
    dist, paths = nx.single_source_dijkstra(reverse, manhole, weight="length")
    found: dict[str, tuple[float, list[str]]] = {}
    for node, d in dist.items():
        for parcel, offset in conns.get(node, ()):
            total = d + offset
            if parcel not in found or total < found[parcel][0]:
                found[parcel] = (total, paths[node][::-1])
    return _finish(found)


def naive(graph: Any, conns: dict[str, list[tuple[str, float]]], manhole: str) -> Result:
    found: dict[str, tuple[float, list[str]]] = {}
    for node in [*nx.ancestors(graph, manhole), manhole]:
        if node not in conns:
            continue
        d, path = nx.single_source_dijkstra(graph, node, target=manhole, weight="length")
        for parcel, offset in conns[node]:
            total = d + offset
            if parcel not in found or total < found[parcel][0]:
                found[parcel] = (total, path)
    return _finish(found)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t) * 1000, out


def same(a: Result, b: Result) -> bool:
    if [x[0] for x in a] != [x[0] for x in b] or [x[2] for x in a] != [x[2] for x in b]:
        return False
    return all(abs(x[1] - y[1]) <= 0.011 for x, y in zip(a, b, strict=True))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--manholes", type=int, default=50_000)
    ap.add_argument("--traces", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--skip-naive-outlet", action="store_true", help="the naive outlet trace is slow"
    )
    ap.add_argument("--smoke", action="store_true", help="200 manholes, 3 traces: that it works")
    args = ap.parse_args(argv)
    if args.smoke:
        args.manholes, args.traces = 200, 3

    ms_gen, data = timed(lambda: generate_network(args.manholes, seed=args.seed))
    ms_build, net = timed(lambda: parse_geojson(data))
    print(
        f"network: {len(net.manholes):,} manholes, {len(net.pipes):,} pipes, "
        f"{len(net.connections):,} connections of {len({c.parcel for c in net.connections}):,} parcels; "
        f"tree: {net.is_forest}"
    )
    print(f"generate {ms_gen:,.0f} ms; parse + validate + index (once) {ms_build:,.0f} ms")

    graph = nx.DiGraph()
    for p in net.pipes.values():
        graph.add_edge(p.from_manhole, p.to_manhole, length=p.length_m)
    graph.add_nodes_from(net.manholes)
    reverse = graph.reverse(copy=True)
    conns = _by_manhole(net)

    rng = random.Random(args.seed)
    ids = list(net.manholes)
    picks = rng.sample(ids, min(args.traces, len(ids)))
    outlet = net.outlets()[0]

    def measure(manholes: list[str], *, with_naive: bool) -> dict[str, list[float]]:
        times: dict[str, list[float]] = {
            "trace": [],
            "trace+json": [],
            "nx dijkstra": [],
            "naive": [],
        }
        for m in manholes:
            ms, _ = timed(lambda m=m: trace_upstream(net, m))
            times["trace"].append(ms)
            ms, data = timed(lambda m=m: engine_json(net, m))
            times["trace+json"].append(ms)
            ours = as_result(data)
            ms, theirs = timed(lambda m=m: networkx_dijkstra(reverse, conns, m))
            times["nx dijkstra"].append(ms)
            if not same(ours, theirs):
                raise SystemExit(f"networkx Dijkstra disagrees at {m}")
            if with_naive:
                ms, theirs = timed(lambda m=m: naive(graph, conns, m))
                times["naive"].append(ms)
                if not same(ours, theirs):
                    raise SystemExit(f"naive baseline disagrees at {m}")
        return times

    measure(picks[:3], with_naive=False)  # warm caches
    random_times = measure(picks, with_naive=True)
    sizes = [len(trace_upstream(net, m)) for m in picks]
    # the busiest manholes below the outlet: the trunk, where a trace returns the most
    upstream_counts = {m: len(trace_upstream(net, m)) for m in ids}
    trunk = sorted((m for m in ids if m != outlet), key=lambda m: -upstream_counts[m])[:20]
    trunk_times = measure(trunk, with_naive=False)
    outlet_times = measure([outlet] * 5, with_naive=False)
    if not args.skip_naive_outlet:
        outlet_times["naive"] = measure([outlet], with_naive=True)["naive"]
    n_out = len(trace_upstream(net, outlet))

    print()
    print(
        f"{len(picks)} traces from random manholes (upstream parcels: median "
        f"{statistics.median(sizes):.0f}, max {max(sizes):,}):"
    )
    _print(random_times)
    print(
        f"\n{len(trunk)} traces from the trunk near the outlet (upstream parcels: "
        f"{min(upstream_counts[m] for m in trunk):,} to {max(upstream_counts[m] for m in trunk):,}):"
    )
    _print(trunk_times)
    print(f"\ntrace from the outlet {outlet} ({n_out:,} parcels upstream), 5 runs:")
    _print(outlet_times)
    print("\nall baselines returned the same parcels, order, distances and paths as the engine")
    return 0


def _print(times: dict[str, list[float]]) -> None:
    base = statistics.median(times["trace"])
    base_json = statistics.median(times["trace+json"])
    print(f"  {'':<12} {'median ms':>10} {'p95 ms':>10}  {'× trace':>9} {'× trace+json':>13}")
    for name, values in times.items():
        if not values:
            continue
        med = statistics.median(values)
        print(
            f"  {name:<12} {med:>10.2f} {p95(values):>10.2f}  {med / base:>9.1f} {med / base_json:>13.1f}"
        )


if __name__ == "__main__":
    sys.exit(main())
