"""The network drawn as SVG: well-formed, escaped, public/private styled, traced area marked."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

from sewer_rules.network import generate_network, parse_geojson, render_svg, upstream_area
from tests.case_kinds.network import thirteen

NS = {"svg": "http://www.w3.org/2000/svg"}


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_well_formed_with_every_manhole_pipe_and_connection() -> None:
    net = parse_geojson(thirteen())
    root = _parse(render_svg(net, width=800, height=500))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 800 500"
    circles = root.findall(".//svg:g[@class='manholes']/svg:circle", NS)
    lines = root.findall(".//svg:g[@class='pipes']/svg:polyline", NS)
    rects = root.findall(".//svg:g[@class='connections']/svg:rect", NS)
    assert sorted(c.get("data-id") for c in circles) == sorted(net.manholes)
    assert sorted(p.get("data-id") for p in lines) == sorted(net.pipes)
    assert len(rects) == 10  # three connections at manholes have no point of their own
    # everything inside the box
    for c in circles:
        assert 0 <= float(c.get("cx", "-1")) <= 800 and 0 <= float(c.get("cy", "-1")) <= 500
    # north is up: MH02 (100 m north of MH01) is drawn above it
    cy = {c.get("data-id"): float(c.get("cy", "0")) for c in circles}
    assert cy["MH02"] < cy["MH01"]
    assert len(root.findall(".//svg:g[@class='arrows']/svg:polygon", NS)) == 12


def test_public_and_private_are_styled_apart() -> None:
    root = _parse(render_svg(parse_geojson(thirteen())))
    classes = {
        p.get("data-id"): p.get("class", "")
        for p in root.iter("{http://www.w3.org/2000/svg}polyline")
    }
    assert "private" in classes["P08"] and "private" in classes["P11"]
    assert "public" in classes["P02"]
    mh = {
        c.get("data-id"): c.get("class", "")
        for c in root.iter("{http://www.w3.org/2000/svg}circle")
    }
    assert mh["MH08"].split()[:2] == ["manhole", "private"]
    assert "outlet" in mh["MH01"]


def test_the_traced_area_is_highlighted() -> None:
    net = parse_geojson(thirteen())
    manholes, pipes = upstream_area(net, "MH04")
    root = _parse(render_svg(net, highlight_manholes=manholes, highlight_pipes=pipes, arrows=False))
    traced = {
        e.get("data-id")
        for e in root.iter()
        if "traced" in (e.get("class") or "").split() and e.get("data-id")
    }
    assert traced == manholes | pipes
    assert not root.findall(".//svg:g[@class='arrows']", NS)
    assert any(t.text == "traced" for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_ids_are_escaped() -> None:
    data = copy.deepcopy(thirteen())
    nasty = "MH\"<&>'"  # (a control character in an id is refused by the reader)
    for f in data["features"]:
        p = f["properties"]
        for key in ("id", "from", "to", "manhole"):
            if p.get(key) == "MH05":
                p[key] = nasty
        if p.get("parcel") == "PCL-04":
            p["parcel"] = "</svg><script>alert(1)</script>"
    net = parse_geojson(data)
    svg = render_svg(net, title="A & B <network>")
    root = _parse(svg)  # still well-formed
    assert "<script>" not in svg
    ids = {c.get("data-id") for c in root.iter("{http://www.w3.org/2000/svg}circle")}
    assert nasty in ids
    assert root.find("svg:title", NS) is not None
    assert root.find("svg:title", NS).text == "A & B <network>"  # type: ignore[union-attr]


def test_a_larger_network_and_labels_only_when_small() -> None:
    net = parse_geojson(generate_network(400, seed=2))
    root = _parse(render_svg(net))
    assert len(root.findall(".//svg:g[@class='manholes']/svg:circle", NS)) == 400
    assert not root.findall(".//svg:g[@class='labels']", NS)
    small = _parse(render_svg(parse_geojson(thirteen())))
    assert len(small.findall(".//svg:g[@class='labels']/svg:text", NS)) == 13


def test_a_single_manhole_still_draws() -> None:
    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [-73.9, 41.6]},
                "properties": {"kind": "manhole", "id": "ONLY", "public": True},
            }
        ],
    }
    root = _parse(render_svg(parse_geojson(data)))
    (c,) = root.iter("{http://www.w3.org/2000/svg}circle")
    assert c.get("data-id") == "ONLY"
