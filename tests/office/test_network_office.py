"""The sewer network in the office: import (all or nothing, duplicates refused, versions kept),
the upstream trace on the 13-manhole example, the CLI's exit codes, the network page and API
through the permission battery, the property's sampling point, and the demo town's network."""

from __future__ import annotations

import copy
import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from sewer_cli.main import main
from sewer_office.network.models import BuildingConnection, Manhole, NetworkVersion, SewerPipe
from sewer_office.network.services import (
    NetworkRefused,
    NetworkUnusable,
    UnknownManhole,
    import_network,
    override_sampling_point,
)
from sewer_office.network.tracing import trace
from sewer_office.registry.models import Property

from .factories import Town

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "network" / "example-network.geojson"
STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
#: parcels of the example → the test town's parcels (the rest are created as PCL-xx)
PARCELS = {"PCL-01": "100-01", "PCL-05": "100-03", "PCL-08": "100-04"}


def example(**rename: str) -> dict[str, Any]:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    mapping = {**PARCELS, **rename}
    for f in data["features"]:
        p = f["properties"]
        if p["kind"] == "connection":
            p["parcel"] = mapping.get(p["parcel"], p["parcel"])
    return data


def text(data: dict[str, Any]) -> str:
    return json.dumps(data)


@pytest.fixture
def net_town(town: Town) -> Town:
    """The test town plus the example's other parcels, owned by the other applicant."""
    for i in range(1, 13):
        parcel = f"PCL-{i:02d}"
        if parcel not in PARCELS:
            Property.objects.create(
                parcel_id=parcel, address=f"{i} Example Rd", owner=town.other_person
            )
    return town


@pytest.fixture
def imported(net_town: Town) -> NetworkVersion:
    return import_network(text(example()), net_town.u("superintendent"))


def counts() -> tuple[int, int, int, int]:
    return (
        NetworkVersion.objects.count(),
        Manhole.objects.count(),
        SewerPipe.objects.count(),
        BuildingConnection.objects.count(),
    )


# --- import ------------------------------------------------------------------------------


def test_import_stores_the_network_in_one_version(imported: NetworkVersion) -> None:
    from sewer_office.core.models import AuditEvent

    assert imported.active and imported.replaces is None
    assert (imported.manhole_count, imported.pipe_count, imported.connection_count) == (13, 12, 13)
    assert counts() == (1, 13, 12, 13)
    pipe = SewerPipe.objects.get(version=imported, ident="P02")
    assert pipe.public and pipe.length_m > 0
    assert BuildingConnection.objects.filter(property__parcel_id="100-01").get().pipe == pipe
    assert AuditEvent.objects.filter(action="import_network").count() == 1


def test_errors_store_nothing_and_every_issue_is_named(net_town: Town) -> None:
    data = example(**{"PCL-02": "NO-SUCH-PARCEL"})
    data["features"].append(copy.deepcopy(data["features"][0]))  # duplicate manhole MH01
    bad_pipe = next(f for f in data["features"] if f["properties"]["kind"] == "pipe")
    bad_pipe["properties"]["to"] = "MH99"
    with pytest.raises(NetworkRefused) as e:
        import_network(text(data), net_town.u("superintendent"))
    issues = "\n".join(e.value.issues)
    assert "MH01" in issues and "MH99" in issues
    assert counts() == (0, 0, 0, 0)
    # a valid network whose parcel the registry does not know: refused, naming the feature
    with pytest.raises(NetworkRefused) as e:
        import_network(text(example(**{"PCL-02": "NO-SUCH-PARCEL"})), net_town.u("engineer"))
    assert len(e.value.issues) == 1
    assert "connection" in e.value.issues[0] and "NO-SUCH-PARCEL" in e.value.issues[0]
    assert counts() == (0, 0, 0, 0)
    with pytest.raises(NetworkUnusable):
        import_network("{not json", net_town.u("engineer"))
    with pytest.raises(NetworkUnusable):
        import_network('{"type": "Feature"}', net_town.u("engineer"))
    assert counts() == (0, 0, 0, 0)


def test_duplicate_refused_replace_makes_a_new_version_and_keeps_the_old(
    imported: NetworkVersion, net_town: Town
) -> None:
    sup = net_town.u("superintendent")
    with pytest.raises(NetworkRefused, match="already imported"):
        import_network(text(example()), sup, replace=True)
    changed = example()
    changed["name"] = "surveyed again"
    with pytest.raises(NetworkRefused, match="--replace"):
        import_network(text(changed), sup)
    assert counts() == (1, 13, 12, 13)
    new = import_network(text(changed), sup, replace=True)
    imported.refresh_from_db()
    assert new.active and not imported.active and new.replaces == imported
    assert counts() == (2, 26, 24, 26)
    assert imported.geojson == text(example())  # the old version is kept as it was


def test_only_superintendent_and_engineer_import(net_town: Town) -> None:
    from sewer_office.core.errors import Forbidden

    for name in ("clerk", "inspector", "viewer", "owner"):
        with pytest.raises(Forbidden):
            import_network(text(example()), net_town.u(name))
    assert counts() == (0, 0, 0, 0)


# --- trace -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("manhole", "parcels"), [("MH01", 12), ("MH02", 11), ("MH03", 3), ("MH04", 7), ("MH13", 1)]
)
def test_upstream_counts_on_the_example(
    imported: NetworkVersion, manhole: str, parcels: int
) -> None:
    result = trace(manhole)
    assert result.total == parcels
    distances = [e["network_distance_m"] for e in result.upstream]
    assert distances == sorted(distances)
    assert all(e["via_manholes"][-1] == manhole for e in result.upstream)


def test_trace_json_names_facilities_and_properties(
    imported: NetworkVersion, net_town: Town
) -> None:
    body = trace("MH03").as_dict()
    assert body == {
        "manhole": "MH03",
        "upstream": [
            {
                "kind": "property",
                "id": "PCL-03",
                "name": "3 Example Rd",
                "network_distance_m": 50.0,
                "via_manholes": ["MH03"],
            },
            {
                "kind": "facility",
                "id": str(net_town.owner_restaurant.pk),
                "name": "Olive's Diner",
                "network_distance_m": 150.0,
                "via_manholes": ["MH06", "MH03"],
                "code": "",
                "recent_exceedances": 0,
                "recent_slugs": 0,
                "recent_findings": [],
            },
            {
                "kind": "property",
                "id": "PCL-04",
                "name": "4 Example Rd",
                "network_distance_m": 179.99,
                "via_manholes": ["MH05", "MH03"],
            },
        ],
    }
    whole = trace("MH01").as_dict()["upstream"]
    assert whole[0] == {
        "kind": "property",
        "id": "100-01",
        "name": "100-01 Main St",
        "network_distance_m": 50.0,
        "via_manholes": ["MH01"],
    }
    assert [e["name"] for e in whole if e["kind"] == "facility"] == [
        "Olive's Diner",
        "Otto Plating",
    ]
    assert len(trace("MH01", limit=2).upstream) == 2
    with pytest.raises(UnknownManhole):
        trace("MH77")


# --- command line ------------------------------------------------------------------------


def test_cli_exit_codes(net_town: Town, tmp_path: Path, capsys: Any) -> None:
    good = tmp_path / "network.geojson"
    good.write_text(text(example()), encoding="utf-8")
    bad = tmp_path / "bad.geojson"
    bad.write_text(text(example(**{"PCL-02": "NOPE-1", "PCL-03": "NOPE-2"})), encoding="utf-8")
    junk = tmp_path / "junk.geojson"
    junk.write_text("[1, 2", encoding="utf-8")

    assert main(["trace", "MH01"]) == 2  # no network yet
    assert main(["import-network", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "nothing stored (3 errors)" in out and "NOPE-1" in out and "NOPE-2" in out
    assert main(["import-network", str(junk)]) == 2
    assert main(["import-network", str(tmp_path / "missing.geojson")]) == 2
    assert counts() == (0, 0, 0, 0)
    assert main(["import-network", str(good), "--as", "engineer"]) == 0
    assert "13 manholes, 12 pipes, 13 connections" in capsys.readouterr().out
    assert main(["import-network", str(good), "--replace"]) == 1  # identical file
    assert main(["import-network", str(good), "--as", "clerk"]) == 1  # not the clerk's to do
    capsys.readouterr()

    assert main(["trace", "MH03", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["manhole"] == "MH03" and len(body["upstream"]) == 3
    assert set(body["upstream"][0]) == {"kind", "id", "name", "network_distance_m", "via_manholes"}
    assert main(["trace", "MH04"]) == 0
    table = capsys.readouterr().out
    assert "Upstream of MH04: 7 parcel(s)" in table and "Otto Plating" in table
    assert main(["trace", "NOPE"]) == 2
    assert "No manhole 'NOPE'" in capsys.readouterr().err


# --- pages and API through the permission battery -----------------------------------------


def test_network_page_permission_battery(
    imported: NetworkVersion, net_town: Town, login: Any, client: Any
) -> None:
    url = reverse("registry:network")
    r = client.get(url + "?manhole=MH03")
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    for name in ("norole", "owner", "other"):
        assert login(name).get(url).status_code == 403, name
    for name in STAFF:
        c = login(name)
        assert c.get(url).status_code == 200, name
        page = c.get(url + "?manhole=MH03")
        assert page.status_code == 200, name
        html = page.content.decode()
        assert "<svg" in html and "Upstream of MH03" in html
        assert "3 parcels drain to MH03" in html and "Olive&#x27;s Diner" in html
        assert "MH06 → MH03" in html
    assert login("viewer").get(url + "?manhole=MH77").status_code == 404


def test_network_page_without_a_network(net_town: Town, login: Any) -> None:
    r = login("superintendent").get(reverse("registry:network"))
    assert r.status_code == 200 and "No sewer network has been imported" in r.content.decode()


def test_trace_api_permission_battery(
    imported: NetworkVersion, net_town: Town, login: Any, client: Any
) -> None:
    url = "/api/network/trace/MH04/"
    assert client.get(url).status_code == 401
    for name in ("norole", "owner", "other"):
        assert login(name).get(url).status_code == 403, name
    for name in STAFF:
        r = login(name).get(url)
        assert r.status_code == 200, name
        assert r.json() == trace("MH04").as_dict()
    c = login("clerk")
    assert len(c.get(url + "?limit=2").json()["upstream"]) == 2
    assert c.get("/api/network/trace/MH77/").status_code == 404


def test_import_api_permission_battery(net_town: Town, login: Any, client: Any) -> None:
    url = "/api/network/import/"
    body = {"geojson": example()}
    assert client.post(url, body, content_type="application/json").status_code == 401
    for name in ("norole", "owner", "other", "clerk", "inspector", "highway", "viewer"):
        r = login(name).post(url, body, content_type="application/json")
        assert r.status_code == 403, name
    assert counts() == (0, 0, 0, 0)
    c = login("engineer")
    bad = {"geojson": example(**{"PCL-02": "NOPE"})}
    r = c.post(url, bad, content_type="application/json")
    assert r.status_code == 400 and "NOPE" in r.json()["errors"][0]
    r = c.post(url, body, content_type="application/json")
    assert r.status_code == 201 and r.json()["manholes"] == 13
    first = r.json()["id"]
    changed = example()
    changed["name"] = "v2"
    r = login("superintendent").post(url, {"geojson": changed}, content_type="application/json")
    assert r.status_code == 400 and "--replace" in r.json()["errors"][0]
    r = login("superintendent").post(
        url, {"geojson": changed, "replace": True}, content_type="application/json"
    )
    assert r.status_code == 201 and r.json()["replaces"] == first


def test_property_page_shows_its_sampling_point(
    imported: NetworkVersion, net_town: Town, login: Any
) -> None:
    home = net_town.owner_home  # PCL-01 of the example: on P02, which runs into MH01
    html = login("owner").get(f"/registry/properties/{home.pk}/").content.decode()
    assert "Sampling point" in html and "<strong>MH01</strong>" in html and "§ 196-19 I" in html
    assert "trace upstream" not in html  # the trace lists others' properties: staff only
    staff = login("clerk").get(f"/registry/properties/{home.pk}/").content.decode()
    assert 'href="/registry/network/?manhole=MH01"' in staff
    override_sampling_point(
        home, "CM-1", "control manhole required 2026-01-05", net_town.u("superintendent")
    )
    html = login("clerk").get(f"/registry/properties/{home.pk}/").content.decode()
    assert "<strong>CM-1</strong>" in html and "control manhole required 2026-01-05" in html
    other = net_town.phase3_lot  # not connected
    assert (
        "Sampling point"
        not in login("clerk").get(f"/registry/properties/{other.pk}/").content.decode()
    )


# --- the demo town -------------------------------------------------------------------------


def test_demo_town_ships_a_network(demo_town: Any, login: Any) -> None:
    demo_town(seed=4, anchor=date(2026, 3, 2))
    version = NetworkVersion.objects.get(active=True)
    served = Property.objects.filter(wastewater_service="public_sewer")
    assert version.connection_count == served.count() > 100
    assert BuildingConnection.objects.filter(version=version).count() == served.count()
    from sewer_office.network.services import active_network

    _, net = active_network()  # type: ignore[misc]
    (outlet,) = net.outlets()
    everything = trace(outlet)
    assert everything.total == served.count()
    assert any(e["kind"] == "facility" for e in everything.upstream)
    page = login(None)
    assert page.get(reverse("registry:network")).status_code == 302
    c = login(None)
    assert c.login(username="superintendent", password="demo")
    r = c.get(reverse("registry:network") + f"?manhole={outlet}")
    assert (
        r.status_code == 200 and f"{served.count()} parcels drain to {outlet}" in r.content.decode()
    )


def test_trace_shows_a_facilitys_recent_exceedances(
    imported: NetworkVersion, net_town: Town
) -> None:
    """The tool to find who caused a problem: upstream facilities with what they discharged."""
    from django.utils import timezone

    from sewer_office.monitoring.lab_import import import_lab_file

    from .monitoring_factories import facilities

    facilities(net_town)
    when = timezone.localtime() - timedelta(days=3)
    data = (
        "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
        f"T1,{when:%Y-%m-%dT%H:%M},grab,pH,4.9,SU,OWNER-CAFE,CM-1\n"
        f"T1,{when:%Y-%m-%dT%H:%M},grab,Temperature,70,°F,OWNER-CAFE,CM-1\n"
    )
    assert import_lab_file(data.encode(), "t.csv", net_town.u("superintendent")).stored
    entry = next(e for e in trace("MH03").as_dict()["upstream"] if e["kind"] == "facility")
    assert entry["code"] == "OWNER-CAFE" and entry["recent_exceedances"] == 1
    assert entry["recent_slugs"] == 0
    assert entry["recent_findings"][0]["citation"] == "§ 196-19 C(3)"
    assert entry["recent_findings"][0]["status"] == "prohibited"


def test_the_imported_network_is_kept_for_the_first_trace(
    net_town: Town, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The import already parsed the file: the first trace in the process does not parse it
    again (50,000 manholes take seconds)."""
    from sewer_office.network import services as ns

    with django_capture_on_commit_callbacks(execute=True):
        import_network(text(example()), net_town.u("superintendent"))

    def no_parse(*args: Any) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(ns, "loads_geojson", no_parse)
    assert trace("MH03").total == 3


@pytest.mark.django_db(transaction=True)
def test_a_starting_server_preloads_the_active_network(net_town: Town, monkeypatch: Any) -> None:
    import threading

    from sewer_office.network import services as ns

    import_network(text(example()), net_town.u("superintendent"))
    ns._cache.clear()
    ns.warm_network_cache()
    for t in threading.enumerate():
        if t.name == "warm-network":
            t.join(timeout=30)
    assert len(ns._cache) == 1
