"""The demo town's sewer network: a generated tree of public mains (a few private stretches)
with one building-sewer connection for each parcel served by public sewer, imported through
the same service as ``sewer-use import-network``. Deterministic for a seed."""

from __future__ import annotations

import json

from sewer_office.accounts.actors import Actor
from sewer_office.network.models import NetworkVersion
from sewer_office.network.services import import_network
from sewer_office.registry.choices import WastewaterService
from sewer_office.registry.models import Property
from sewer_rules.network import generate_network
from sewer_rules.network.geojson_types import FeatureCollection, is_connection


def demo_network_geojson(parcels: list[str], seed: int = 4) -> FeatureCollection:
    """A FeatureCollection connecting every parcel of ``parcels`` (in order) to the network."""
    n = max(2, len(parcels))
    while True:
        data = generate_network(n, seed=seed, private_share=0.03)
        conns = [f for f in data["features"] if is_connection(f)]
        if len(conns) >= len(parcels):
            break
        n += max(1, len(parcels) - len(conns))
    keep = {id(f) for f in conns[: len(parcels)]}
    for f, parcel in zip(conns, parcels, strict=False):
        f["properties"]["parcel"] = parcel
    data["features"] = [
        f for f in data["features"] if f["properties"]["kind"] != "connection" or id(f) in keep
    ]
    data["name"] = "Demo town sewer network (generated)"
    return data


def load_demo_network(actor: Actor, seed: int = 4) -> NetworkVersion:
    parcels = list(
        Property.objects.filter(wastewater_service=WastewaterService.PUBLIC_SEWER)
        .order_by("parcel_id")
        .values_list("parcel_id", flat=True)
    )
    text = json.dumps(demo_network_geojson(parcels, seed), separators=(",", ":"))
    return import_network(text, actor, source_name="demo-network.geojson")
