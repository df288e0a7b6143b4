"""Hostile input in the pure layers: the helpers every reader shares
(:mod:`sewer_rules.hostile`), the network's GeoJSON, the engine's messages and the meter
readings' values — each case a ``RecursionError``, a ``ValueError`` or a value echoed whole
before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from sewer_engines.evaluation.text import format_text
from sewer_engines.monitoring.readings import ReadOptions
from sewer_io.readings import Readings
from sewer_rules.hostile import (
    MAX_JSON_DEPTH,
    JSONRefused,
    TextRefused,
    control_character,
    loads_json,
    shorten,
    utf8_text,
)
from sewer_rules.network import NetworkError, NetworkFormatError, load_geojson, loads_geojson

DIGITS = "9" * 200_000


def network(ident: str = "MH1", x: str = "-73.9107") -> str:
    def feature(geometry: str, points: object, **properties: object) -> dict[str, object]:
        return {
            "type": "Feature",
            "geometry": {"type": geometry, "coordinates": points},
            "properties": properties,
        }

    data = {
        "type": "FeatureCollection",
        "features": [
            feature("Point", ["X", 41.5843], kind="manhole", id=ident, public=True),
            feature("Point", [-73.9107, 41.5852], kind="manhole", id="MH2", public=True),
            feature(
                "LineString",
                [[-73.9107, 41.5852], ["X", 41.5843]],
                kind="pipe",
                id="P1",
                to=ident,
                public=True,
                **{"from": "MH2"},
            ),
        ],
    }
    return json.dumps(data, ensure_ascii=False).replace('"X"', x)


def test_shorten_and_control_characters() -> None:
    assert shorten("abc") == "abc" and len(shorten(DIGITS)) == 80
    assert control_character("a\x00b") == "NUL" and control_character("x\x1bq") == "U+001B"
    assert control_character("tab\tand\r\nline") is None


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested more than"),
        ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested more than"),
        ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "nested more than"),
        (DIGITS, "more than 4,300 digits"),
        ("{oops", "not JSON: Expecting property name"),
    ],
)
def test_json_is_refused_with_a_reason_never_a_recursion_error(text: str, says: str) -> None:
    with pytest.raises(JSONRefused, match=says):
        loads_json(text)
    assert loads_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None


def test_text_must_be_utf8_and_the_line_is_named() -> None:
    assert utf8_text(b"\xef\xbb\xbfa,b\n") == "a,b\n"
    with pytest.raises(TextRefused, match="line 3 holds the byte 0xe9"):
        utf8_text("a\nb\ncafé\n".encode("latin-1"))
    with pytest.raises(TextRefused, match="UTF-16"):
        utf8_text("a,b".encode("utf-16"))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested more than"),
        (network(x=DIGITS), "digits"),
        (network(x="1" + "0" * 5000 + ".5"), "coordinates"),
    ],
)
def test_a_hostile_network_is_a_format_error(text: str, says: str) -> None:
    with pytest.raises((NetworkFormatError, NetworkError)) as e:
        loads_geojson(text)
    assert says in str(e.value) and len(str(e.value)) < 2000


def test_a_network_file_with_a_bom_is_read_and_one_in_latin1_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.geojson"
    path.write_bytes(b"\xef\xbb\xbf" + network().encode())
    assert len(load_geojson(path).manholes) == 2
    assert len(loads_geojson(b"\xef\xbb\xbf" + network().encode()).manholes) == 2
    path.write_bytes(network(ident="MH-Zoë").encode("latin-1"))
    with pytest.raises(NetworkFormatError, match=r"net\.geojson: not UTF-8 text: line 1"):
        load_geojson(path)


@pytest.mark.parametrize(
    ("ident", "says"),
    [("MH\x001", "control character NUL"), ("M" * 1_000_000, "1,000,000 characters, longer")],
)
def test_a_network_id_no_record_can_hold_is_refused_quoted_short(ident: str, says: str) -> None:
    with pytest.raises(NetworkError) as e:
        loads_geojson(network(ident=ident))
    text = "; ".join(str(i) for i in e.value.issues)
    assert says in text and len(text) < 2000


def test_the_engines_messages_quote_input_shortened() -> None:
    frame = pl.DataFrame({"v": [DIGITS, "7"]})
    out = frame.select(format_text("unparseable value '{}'", "v")).to_series().to_list()
    assert out[1] == "unparseable value '7'"
    assert len(out[0]) < 120 and out[0].endswith("…'")


def test_a_200000_digit_reading_is_a_row_error_quoted_short(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    rows = [f"2026-03-02T00:{i:02d}:00+00:00,{DIGITS if i == 1 else '10'}" for i in range(12)]
    path.write_text("timestamp,value\n" + "\n".join(rows) + "\n", encoding="utf-8")
    readings = Readings(path, ReadOptions())
    list(readings.series())
    [error] = readings.errors
    assert (error.row, error.field) == (3, "value") and "beyond the range" in error.message
    assert len(error.message) < 200


def test_a_column_list_is_quoted_shortened(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("x" * 100_000 + ",value\n1,2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no column 'timestamp'") as e:
        Readings(path, ReadOptions())
    assert len(str(e.value)) < 600
