"""Parcels that left the roll, and the new parcels on their ground: the reviews an import opens.

A property whose SBL (of a SWIS code the file covers) is no longer on the roll is kept as it is.
The new SBLs on its ground (:func:`sewer_io.parcels.shared_ground` over the outlines) are not
created: one review (split, merge, redrawn) holds them for the clerk
(:mod:`sewer_office.parcels.reviews`). A gone parcel with no new parcel on its ground gets a
review of its own (gone). A pending review of the same parcels is not made twice.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import polars as pl

from sewer_io.parcels import shared_ground
from sewer_office.parcels.choices import ReviewKind, ReviewState
from sewer_office.parcels.models import ParcelReview

#: The least share of a gone parcel's area a new parcel must cover to be on its ground.
LEAST_SHARE = 0.05


@dataclass(frozen=True)
class PlannedReview:
    """A review the import will open: the gone and continuing properties and the held rows."""

    kind: str
    gone: list[dict[str, Any]]
    continuing: list[dict[str, Any]]
    held_rows: list[int]
    shares: list[list[Any]]
    existing: int | None = None  # a pending review of the same parcels, not made twice


def planned_reviews(
    rows: pl.DataFrame, reg: pl.DataFrame, diffs: pl.DataFrame, swis: list[str]
) -> list[PlannedReview]:
    """The parcels of ``reg`` (SWIS codes ``swis``) no row matched and the new ones on their
    ground (see the module); ``diffs`` gives the matched parcels redrawn."""
    seen = set(rows.filter(pl.col("pid").is_not_null()).get_column("pid").to_list())
    gone = reg.filter(
        pl.col("key").is_not_null() & pl.col("swis").is_in(swis) & ~pl.col("id").is_in(sorted(seen))
    )
    if gone.height == 0:
        return []
    fresh = rows.filter(pl.col("pid").is_null() & (pl.col("geometry") != ""))
    redrawn = diffs.filter(pl.col("d_geometry") & (pl.col("geometry") != ""))
    before: dict[str, str] = {}
    after: dict[str, str] = {}
    info: dict[str, dict[str, Any]] = {}
    for pid, key, geom, parcel, address in gone.select(
        "id", "key", "geometry", "parcel_id", "address"
    ).iter_rows():
        info[key] = {"property": pid, "key": key, "parcel_id": parcel, "address": address}
        if geom:
            before[key] = geom
    for pid, key, old_geom, geom, parcel, address in redrawn.select(
        "pid", "key", "old_geometry", "geometry", "parcel_id", "address"
    ).iter_rows():
        info[key] = {"property": pid, "key": key, "parcel_id": parcel, "address": address}
        if old_geom:
            before[key] = old_geom
        after[key] = geom
    row_of: dict[str, int] = {}
    for r, key, geom in fresh.select("row", "key", "geometry").iter_rows():
        after[key] = geom
        row_of[key] = r
    pairs = shared_ground(before, after, least=LEAST_SHARE) if before and after else []
    # parcels linked by shared ground, and a continuing parcel to itself, are one group;
    # a parcel is "b:KEY" on the register and "a:KEY" on the roll
    continuing = set(redrawn.get_column("key").to_list())
    root_of = _groups(
        [
            *(("b:" + key, "a:" + key) for key in continuing),
            *(("b:" + b, "a:" + a) for b, a, _share in pairs),
        ]
    )
    groups: dict[str, set[str]] = defaultdict(set)
    for node, root in root_of.items():
        groups[root].add(node)
    shares_by_group: dict[str, list[list[Any]]] = defaultdict(list)
    for b, a, share in pairs:
        if b != a:
            shares_by_group[root_of["b:" + b]].append([b, a, round(float(share), 4)])
    gone_keys = set(gone.get_column("key").to_list())
    planned: list[PlannedReview] = []
    grouped: set[str] = set()
    for root, nodes in groups.items():
        keys_before = {n[2:] for n in nodes if n.startswith("b:")}
        keys_after = {n[2:] for n in nodes if n.startswith("a:")}
        g = sorted(keys_before & gone_keys)
        new = sorted(k for k in keys_after if k in row_of)
        if not g and not new:
            continue  # a parcel redrawn alone: its outline changes with the roll
        if not shares_by_group[root]:
            continue  # no ground shared: a gone parcel alone is reviewed below
        cont = sorted(keys_before & continuing)
        n_before, n_after = len(g) + len(cont), len(new) + len(cont)
        kind = (
            ReviewKind.SPLIT
            if n_before == 1 and n_after > 1
            else ReviewKind.MERGE
            if n_before > 1 and n_after == 1
            else ReviewKind.REDRAW
        )
        grouped.update(g)
        planned.append(
            PlannedReview(
                kind=kind,
                gone=[info[k] for k in g],
                continuing=[info[k] for k in cont],
                held_rows=[row_of[k] for k in new],
                shares=sorted(shares_by_group[root]),
            )
        )
    for key in sorted(gone_keys - grouped):
        planned.append(PlannedReview(ReviewKind.GONE, [info[key]], [], [], []))
    return _known(planned, rows)


def _groups(links: list[tuple[str, str]]) -> dict[str, str]:
    """Each node of ``links`` → the root of its group (the nodes linked, directly or not)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        parent[find(a)] = find(b)
    return {node: find(node) for node in list(parent)}


def _known(planned: list[PlannedReview], rows: pl.DataFrame) -> list[PlannedReview]:
    """Each planned review, or the pending review already open on the same parcels."""
    keys = dict(rows.select("row", "key").iter_rows())
    pending = {
        (frozenset(r.gone_keys()), frozenset(r.new_keys())): r.pk
        for r in ParcelReview.objects.filter(state=ReviewState.PENDING)
    }
    out = []
    for p in planned:
        signature = (
            frozenset(g["key"] for g in p.gone),
            frozenset(keys[r] for r in p.held_rows),
        )
        existing = pending.get(signature)
        out.append(p if existing is None else dataclasses.replace(p, existing=existing))
    return out
