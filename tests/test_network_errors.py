"""All-or-nothing validation of network files: every error named by feature and field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from sewer_rules.network import (
    NetworkError,
    NetworkFormatError,
    loads_geojson,
    parse_geojson,
)
from tests.case_kinds.network import thirteen


def _index(data: dict[str, Any], kind: str, ident: str) -> int:
    for i, f in enumerate(data["features"]):
        p = f["properties"]
        if p["kind"] == kind and (p.get("id") == ident or p.get("parcel") == ident):
            return i
    raise LookupError(ident)


def errors_of(data: dict[str, Any]) -> list[tuple[int | None, str | None, str | None, str]]:
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    return [(i.index, i.kind, i.feature_id, i.field) for i in info.value.issues]


@pytest.fixture
def data() -> dict[str, Any]:
    return copy.deepcopy(thirteen())


def test_unknown_manhole_ids_in_a_pipe(data: dict[str, Any]) -> None:
    i = _index(data, "pipe", "P05")
    data["features"][i]["properties"]["to"] = "MH99"
    data["features"][i]["properties"]["from"] = "MH98"
    assert errors_of(data) == [(i, "pipe", "P05", "from"), (i, "pipe", "P05", "to")]


def test_a_pipe_without_both_ends(data: dict[str, Any]) -> None:
    i = _index(data, "pipe", "P05")
    del data["features"][i]["properties"]["from"]
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    (issue,) = info.value.issues
    assert (issue.index, issue.feature_id, issue.field, issue.message) == (
        i,
        "P05",
        "from",
        "missing",
    )
    assert str(issue) == f"features[{i}] (pipe P05): from: missing"


def test_duplicate_ids_name_the_second_and_the_first(data: dict[str, Any]) -> None:
    first = _index(data, "manhole", "MH05")
    dup = copy.deepcopy(data["features"][first])
    data["features"].append(dup)
    p = _index(data, "pipe", "P06")
    pipe_dup = copy.deepcopy(data["features"][p])
    data["features"].append(pipe_dup)
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    found = [(i.index, i.kind, i.feature_id, i.field) for i in info.value.issues]
    n = len(data["features"])
    assert found == [(n - 2, "manhole", "MH05", "id"), (n - 1, "pipe", "P06", "id")]
    assert f"first at features[{first}]" in info.value.issues[0].message
    assert f"first at features[{p}]" in info.value.issues[1].message


def test_a_connection_naming_no_pipe_or_manhole(data: dict[str, Any]) -> None:
    i = _index(data, "connection", "PCL-01")
    del data["features"][i]["properties"]["pipe"]
    j = _index(data, "connection", "PCL-02")
    data["features"][j]["properties"]["manhole"] = "MH77"
    k = _index(data, "connection", "PCL-04")
    data["features"][k]["properties"]["pipe"] = "P77"
    m = _index(data, "connection", "PCL-05")
    data["features"][m]["properties"]["manhole"] = "MH01"
    assert errors_of(data) == [
        (i, "connection", None, "pipe"),
        (j, "connection", None, "manhole"),
        (k, "connection", None, "pipe"),
        (m, "connection", None, "manhole"),
    ]


def test_a_pipe_connection_needs_a_point(data: dict[str, Any]) -> None:
    i = _index(data, "connection", "PCL-01")
    data["features"][i]["geometry"] = None
    assert errors_of(data) == [(i, "connection", None, "geometry")]


@pytest.mark.parametrize(
    ("kind", "ident", "geometry", "words"),
    [
        (
            "manhole",
            "MH03",
            {"type": "LineString", "coordinates": [[0, 0], [1, 1]]},
            "must be a Point",
        ),
        ("manhole", "MH03", {"type": "Point", "coordinates": [1]}, "2 or 3 numbers"),
        ("manhole", "MH03", {"type": "Point", "coordinates": ["a", 2]}, "2 or 3 numbers"),
        ("manhole", "MH03", {"type": "Point", "coordinates": [True, 2]}, "2 or 3 numbers"),
        ("manhole", "MH03", None, "must be a Point"),
        ("pipe", "P03", {"type": "Point", "coordinates": [0, 0]}, "must be a LineString"),
        ("pipe", "P03", {"type": "LineString", "coordinates": [[199000, 305000]]}, "at least two"),
        ("pipe", "P03", {"type": "LineString", "coordinates": [[1, 1], [1, 1]]}, "zero length"),
        ("pipe", "P03", {"type": "LineString"}, "no coordinates"),
    ],
)
def test_bad_geometry(
    data: dict[str, Any], kind: str, ident: str, geometry: Any, words: str
) -> None:
    i = _index(data, kind, ident)
    data["features"][i]["geometry"] = geometry
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    (issue,) = info.value.issues
    assert (issue.index, issue.feature_id, issue.field) == (i, ident, "geometry")
    assert words in issue.message


def test_longitude_latitude_out_of_range() -> None:
    data = thirteen(geographic=True)
    i = _index(data, "manhole", "MH02")
    _lon, lat = data["features"][i]["geometry"]["coordinates"]
    data["features"][i]["geometry"]["coordinates"] = [lat, 191.0]  # swapped, then nonsense
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    (issue,) = info.value.issues
    assert issue.field == "geometry" and "latitude 191.0" in issue.message


def test_public_must_be_a_boolean(data: dict[str, Any]) -> None:
    i = _index(data, "manhole", "MH03")
    data["features"][i]["properties"]["public"] = "yes"
    j = _index(data, "pipe", "P03")
    del data["features"][j]["properties"]["public"]
    assert errors_of(data) == [(i, "manhole", "MH03", "public"), (j, "pipe", "P03", "public")]


def test_ids_kinds_and_diameters(data: dict[str, Any]) -> None:
    i = _index(data, "pipe", "P03")
    data["features"][i]["properties"]["diameter_in"] = -8
    j = _index(data, "manhole", "MH09")
    data["features"][j]["properties"]["id"] = 3.5
    data["features"].append({"type": "Feature", "geometry": None, "properties": {"kind": "valve"}})
    data["features"].append(["not", "an", "object"])
    data["features"].append({"type": "Feature", "geometry": None})
    n = len(data["features"])
    found = errors_of(data)
    assert (i, "pipe", "P03", "diameter_in") in found
    assert (j, "manhole", None, "id") in found
    assert (n - 3, None, None, "kind") in found
    assert (n - 2, None, None, "feature") in found
    assert (n - 1, None, None, "properties") in found


def test_integer_ids_are_read_as_text(data: dict[str, Any]) -> None:
    for f in data["features"]:
        p = f["properties"]
        for key in ("id", "from", "to", "manhole"):
            if isinstance(p.get(key), str) and p[key].startswith("MH"):
                p[key] = int(p[key][2:])
    net = parse_geojson(data)
    assert "1" in net.manholes and net.pipes["P02"].to_manhole == "1"


def test_a_self_loop(data: dict[str, Any]) -> None:
    i = _index(data, "pipe", "P03")
    data["features"][i]["properties"]["to"] = "MH03"
    assert errors_of(data) == [(i, "pipe", "P03", "to")]


def test_cycles_in_the_flow_direction_name_every_pipe(data: dict[str, Any]) -> None:
    # MH03 → MH02 → MH01 exists; add MH01 → MH05: MH05 → MH03 → MH02 → MH01 → MH05
    data["features"].append(
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[199000, 305000], [198900, 305200]]},
            "properties": {
                "kind": "pipe",
                "id": "P99",
                "from": "MH01",
                "to": "MH05",
                "public": True,
            },
        }
    )
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    (issue,) = info.value.issues
    assert issue.kind == "pipe" and issue.field == "to"
    for pipe in ("P02", "P03", "P05", "P99"):
        assert pipe in issue.message
    assert "MH01" in issue.message and "→" in issue.message
    assert issue.index == _index(data, "pipe", "P02")  # anchored at the first in the file


def test_two_separate_cycles_are_two_errors(data: dict[str, Any]) -> None:
    for pid, a, b in (("PX", "MH01", "MH02"), ("PY", "MH09", "MH10"), ("PZ", "MH10", "MH09")):
        data["features"].append(
            {
                "type": "Feature",
                "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 10]]},
                "properties": {"kind": "pipe", "id": pid, "from": a, "to": b, "public": True},
            }
        )
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    cycles = [i for i in info.value.issues if "cycle" in i.message]
    assert len(cycles) == 2


def test_a_cycle_is_found_even_through_a_pipe_with_other_errors(data: dict[str, Any]) -> None:
    data["features"].append(
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 10]]},
            "properties": {
                "kind": "pipe",
                "id": "PX",
                "from": "MH01",
                "to": "MH02",
                "public": True,
                "diameter_in": "big",
            },
        }
    )
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    fields = {(i.feature_id, i.field) for i in info.value.issues}
    assert ("PX", "diameter_in") in fields
    assert any(f == "to" for _, f in fields)


def test_every_error_is_listed_at_once(data: dict[str, Any]) -> None:
    data["features"][_index(data, "pipe", "P03")]["properties"]["to"] = "MH99"
    data["features"][_index(data, "manhole", "MH09")]["properties"]["public"] = None
    data["features"][_index(data, "connection", "PCL-12")]["properties"]["manhole"] = "nowhere"
    assert len(errors_of(data)) == 3


def test_warnings_do_not_refuse_the_file(data: dict[str, Any]) -> None:
    i = _index(data, "pipe", "P03")
    data["features"][i]["geometry"]["coordinates"].reverse()
    j = _index(data, "pipe", "P04")
    data["features"][j]["geometry"]["coordinates"][0] = [199105.0, 305100.0]
    k = _index(data, "connection", "PCL-01")
    data["features"][k]["geometry"]["coordinates"] = [199500.0, 305050.0]
    data["features"].append(
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [199900, 305900]},
            "properties": {"kind": "manhole", "id": "LONELY", "public": True},
        }
    )
    net = parse_geojson(data)
    messages = {(w.feature_id, w.field): w.message for w in net.warnings}
    assert "drawn from MH02 to MH03" in messages[("P03", "geometry")]
    assert "5.00 m from its 'from' manhole MH04" in messages[("P04", "geometry")]
    assert "500.0 m from pipe P02" in messages[(None, "geometry")]
    assert ("LONELY", "id") in messages
    assert net.pipes["P03"].from_manhole == "MH03"  # the properties decide the direction


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not JSON"),
        ('{"type": "Feature"}', "not a GeoJSON FeatureCollection"),
        ('{"type": "FeatureCollection"}', '"features" array'),
        (
            '{"type": "FeatureCollection", "features": [], "crs": {"type": "name", "properties": {"name": "EPSG:9999"}}}',
            "declare its",
        ),
        (
            '{"type": "FeatureCollection", "features": [], "crs": {"type": "link", "properties": {"href": "x"}}}',
            "named",
        ),
        ('{"type": "FeatureCollection", "features": [], "crs": "EPSG:2263"}', '"crs" must be'),
    ],
)
def test_unusable_files(text: str, words: str) -> None:
    with pytest.raises(NetworkFormatError, match=words):
        loads_geojson(text)


def test_an_error_list_is_json_serialisable(data: dict[str, Any]) -> None:
    data["features"][_index(data, "pipe", "P03")]["properties"]["to"] = "MH99"
    with pytest.raises(NetworkError) as info:
        parse_geojson(data)
    assert json.loads(json.dumps([i.as_dict() for i in info.value.issues])) == [
        {
            "source": "features",
            "index": _index(data, "pipe", "P03"),
            "kind": "pipe",
            "id": "P03",
            "field": "to",
            "message": "names no manhole: 'MH99'",
        }
    ]
    assert "1 error in the network" in str(info.value)
