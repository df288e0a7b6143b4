"""The CSV form of a network, coordinate reference systems and lengths."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from sewer_rules.network import (
    NetworkError,
    NetworkFormatError,
    load_csv_dir,
    parse_crs,
    parse_csv,
    parse_geojson,
    sampling_point,
    trace_upstream,
)
from sewer_rules.network.geo import (
    CRSError,
    geodesic_m,
    local_distance_m,
    metres_per,
    vincenty_m,
)
from tests.case_kinds.network import MANHOLES, thirteen

CSV_DIR = Path(__file__).resolve().parent.parent / "examples" / "network" / "csv"


def _csv(name: str) -> str:
    return (CSV_DIR / name).read_text(encoding="utf-8")


# --- CSV ----------------------------------------------------------------------------------------


def test_the_csv_example_is_the_thirteen_manhole_tree() -> None:
    net = load_csv_dir(CSV_DIR, crs="EPSG:32115")
    ref = parse_geojson(thirteen())
    assert net.crs.unit == "m"
    assert {p.id: round(p.length_m, 6) for p in net.pipes.values()} == {
        p.id: round(p.length_m, 6) for p in ref.pipes.values()
    }
    for m in MANHOLES:
        assert trace_upstream(net, m).as_dict() == trace_upstream(ref, m).as_dict()
    assert [sampling_point(net, i).manhole for i in range(13)] == [
        sampling_point(ref, i).manhole for i in range(13)
    ]
    assert net.connections[0].source == "connections.csv" and net.connections[0].index == 2


def test_csv_headers_are_case_insensitive_and_extra_columns_ignored() -> None:
    manholes = "ID,Public,X,Y,Rim_Elevation\nA,yes,0,0,100\nB,NO,0,100,101\n"
    pipes = "Id,From,To,Public,Material\nP1,B,A,1,PVC\n"
    connections = "Parcel,Pipe,Manhole,X,Y\nX1,P1,,0,40\nX2,,B,,\n"
    net = parse_csv(manholes, pipes, connections, crs="planar:ft")
    assert net.pipes["P1"].length_m == pytest.approx(30.48)
    assert not net.manholes["B"].public
    (entry, *_) = trace_upstream(net, "A")
    assert entry.id == "X1" and entry.network_distance_m == pytest.approx(40 * 0.3048)
    assert net.pipes["P1"].diameter_in is None


def test_csv_vertices_bend_the_pipe() -> None:
    manholes = "id,public,x,y\nA,true,0,0\nB,true,0,100\n"
    pipes = 'id,from,to,public,vertices\nP1,B,A,true,"50 100; 50 0"\n'
    net = parse_csv(manholes, pipes, crs="planar:m")
    assert net.pipes["P1"].coordinates == ((0.0, 100.0), (50.0, 100.0), (50.0, 0.0), (0.0, 0.0))
    assert net.pipes["P1"].length_m == pytest.approx(200)


def test_csv_errors_name_file_line_id_and_column() -> None:
    manholes = "id,public,x,y\nA,true,0,0\nB,maybe,0,100\nC,true,zero,5\nA,true,1,1\n"
    pipes = "id,from,to,public,vertices\nP1,B,A,true,\nP2,C,Z,true,\nP3,C,A,true,1 2 3\n"
    connections = "parcel,pipe,manhole,x,y\nX1,P1,,,\nX2,,,,\n,P1,,0,50\n"
    with pytest.raises(NetworkError) as info:
        parse_csv(manholes, pipes, connections, crs="planar:m")
    found = [(i.source, i.index, i.feature_id, i.field) for i in info.value.issues]
    assert found == [
        ("manholes.csv", 3, "B", "public"),
        ("manholes.csv", 4, "C", "x"),
        ("manholes.csv", 5, "A", "id"),
        ("pipes.csv", 3, "P2", "to"),
        ("pipes.csv", 4, "P3", "vertices"),
        ("connections.csv", 2, None, "x"),
        ("connections.csv", 3, None, "pipe"),
        ("connections.csv", 4, None, "parcel"),
    ]
    assert str(info.value.issues[0]).startswith(
        "manholes.csv line 3 (manhole B): public: must be true or false, found 'maybe'"
    )


@pytest.mark.parametrize(
    ("manholes", "pipes", "words"),
    [
        ("id,public,x\nA,true,0\n", "id,from,to,public\n", "manholes.csv: missing column"),
        ("id,public,x,y\n", "id,from,public\n", "pipes.csv: missing column"),
        ("", "id,from,to,public\n", "manholes.csv: empty"),
    ],
)
def test_unusable_csv(manholes: str, pipes: str, words: str) -> None:
    with pytest.raises(NetworkFormatError, match=words):
        parse_csv(manholes, pipes)


def test_a_directory_without_the_files(tmp_path: Path) -> None:
    with pytest.raises(NetworkFormatError, match=r"no manholes\.csv"):
        load_csv_dir(tmp_path)
    (tmp_path / "manholes.csv").write_text("id,public,x,y\nA,true,-73.9,41.6\n", encoding="utf-8")
    (tmp_path / "pipes.csv").write_text("id,from,to,public\n", encoding="utf-8")
    net = load_csv_dir(tmp_path)  # connections.csv is optional; WGS 84 by default
    assert net.crs.kind == "geographic" and len(net.manholes) == 1


# --- CRS and lengths -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind", "unit"),
    [
        (None, "geographic", "degree"),
        ("EPSG:4326", "geographic", "degree"),
        ("urn:ogc:def:crs:EPSG::4326", "geographic", "degree"),
        ("urn:ogc:def:crs:OGC:1.3:CRS84", "geographic", "degree"),
        ("http://www.opengis.net/def/crs/EPSG/0/2263", "planar", "ftUS"),
        ("urn:ogc:def:crs:EPSG::2263", "planar", "ftUS"),
        ("EPSG:2260", "planar", "ftUS"),
        ("EPSG:32115", "planar", "m"),
        ("EPSG:26918", "planar", "m"),
        ("EPSG:3857", "web_mercator", "m"),
        ("planar:ft", "planar", "ft"),
    ],
)
def test_crs_names(name: str | None, kind: str, unit: str) -> None:
    crs = parse_crs(name)
    assert (crs.kind, crs.unit) == (kind, unit)


def test_an_unlisted_projected_crs_needs_its_unit() -> None:
    with pytest.raises(CRSError, match="declare its linear unit"):
        parse_crs("EPSG:6539")
    assert parse_crs("EPSG:6539", "ftUS").unit == "ftUS"
    with pytest.raises(CRSError):
        parse_crs("EPSG:6539", "furlong")
    with pytest.raises(CRSError):
        parse_crs("WGS84-ish")


def test_feet_are_exact_through_pint() -> None:
    assert metres_per("ftUS") == Fraction(1200, 3937)
    assert metres_per("ft") == Fraction(3048, 10000)
    crs = parse_crs("urn:ogc:def:crs:EPSG::2263")
    assert crs.segment_length_m((0, 0), (3937, 0)) == pytest.approx(1200, abs=1e-9)


def test_vincenty_known_line() -> None:
    """Vincenty (1975), Flinders Peak to Buninyong: 54,972.271 m."""

    def dms(d: int, m: int, s: float) -> float:
        return d + m / 60 + s / 3600

    d = vincenty_m(
        dms(144, 25, 29.52440),
        -dms(37, 57, 3.72030),
        dms(143, 55, 35.38390),
        -dms(37, 39, 10.15610),
    )
    assert d == pytest.approx(54972.271, abs=0.001)


@pytest.mark.parametrize("bearing", [0, 30, 45, 90, 135, 200])
@pytest.mark.parametrize("metres", [10, 100, 1000])
def test_the_local_formula_agrees_with_vincenty_near_wappinger(bearing: int, metres: int) -> None:
    lon0, lat0 = -73.91, 41.58
    dlat = metres * math.cos(math.radians(bearing)) / 111_000
    dlon = metres * math.sin(math.radians(bearing)) / 83_000
    a = local_distance_m(lon0, lat0, lon0 + dlon, lat0 + dlat)
    b = vincenty_m(lon0, lat0, lon0 + dlon, lat0 + dlat)
    assert a == pytest.approx(b, abs=1e-4)  # a tenth of a millimetre
    assert geodesic_m(lon0, lat0, lon0 + dlon, lat0 + dlat) == pytest.approx(b, abs=1e-4)


def test_haversine_would_be_off_here() -> None:
    """Why the ellipsoid: one degree of latitude at Wappinger is ~111.07 km, not 111.19 km."""
    d = vincenty_m(-73.91, 41.08, -73.91, 42.08)
    sphere = math.radians(1) * 6_371_008.8
    assert d == pytest.approx(111_068, abs=10)
    assert abs(d - sphere) > 100


def test_long_segments_use_vincenty() -> None:
    crs = parse_crs(None)
    d = crs.segment_length_m((-73.91, 41.58), (-73.80, 41.70))
    assert d == pytest.approx(vincenty_m(-73.91, 41.58, -73.80, 41.70), abs=1e-6)


def test_web_mercator_is_measured_on_the_ellipsoid() -> None:
    crs = parse_crs("EPSG:3857")
    r = 6378137.0
    x = math.radians(-73.91) * r
    y0 = r * math.log(math.tan(math.pi / 4 + math.radians(41.58) / 2))
    y1 = r * math.log(math.tan(math.pi / 4 + math.radians(41.59) / 2))
    d = crs.segment_length_m((x, y0), (x, y1))
    assert d == pytest.approx(vincenty_m(-73.91, 41.58, -73.91, 41.59), abs=1e-3)
    assert (y1 - y0) / d > 1.3  # the grid distance would be a third too long


def test_geographic_positions_out_of_range_are_refused_but_planar_are_not() -> None:
    assert parse_crs(None).position_problem(-200, 0) is not None
    assert parse_crs("planar:m").position_problem(-200, 1e6) is None
    assert parse_crs("planar:m").position_problem(math.nan, 0) is not None


def _mercator(lon: float, lat: float) -> list[float]:
    r = 6378137.0
    return [math.radians(lon) * r, r * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))]


def test_the_same_network_in_web_mercator_measures_the_same() -> None:
    geo = thirteen(geographic=True)
    merc = json.loads(json.dumps(geo))
    for f in merc["features"]:
        g = f["geometry"]
        if g is None:
            continue
        if g["type"] == "Point":
            g["coordinates"] = _mercator(*g["coordinates"])
        else:
            g["coordinates"] = [_mercator(*c) for c in g["coordinates"]]
    merc["crs"] = {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::3857"}}
    a, b = parse_geojson(geo), parse_geojson(merc)
    assert b.crs.kind == "web_mercator"
    for pid, p in a.pipes.items():
        assert b.pipes[pid].length_m == pytest.approx(p.length_m, abs=1e-6)
    for ca, cb in zip(a.connections, b.connections, strict=True):
        assert cb.offset_m == pytest.approx(ca.offset_m, abs=1e-3)


def test_a_geojson_crs_may_declare_its_unit() -> None:
    data = thirteen()
    data["crs"] = {"type": "name", "properties": {"name": "EPSG:6539"}}
    with pytest.raises(NetworkFormatError, match="declare its linear unit"):
        parse_geojson(data)
    data["crs"]["properties"]["units"] = "ftUS"
    net = parse_geojson(data)
    assert net.pipes["P13"].length_m == pytest.approx(50 * 1200 / 3937)


def test_a_default_crs_applies_only_when_the_file_has_none() -> None:
    data = thirteen()
    del data["crs"]
    with pytest.raises(NetworkError):  # read as longitude/latitude: out of range
        parse_geojson(data)
    assert parse_geojson(data, default_crs=parse_crs("EPSG:32115")).crs.unit == "m"
    with_crs = thirteen()
    assert parse_geojson(with_crs, default_crs=parse_crs("planar:ft")).crs.unit == "m"
