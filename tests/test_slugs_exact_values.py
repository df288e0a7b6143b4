"""Exported values are read as written, exactly, whatever the number of digits.

Meter historians and spreadsheets write binary floats such as ``190.95000000000002``: a valid
reading of that exact decimal (docs/interpretations.md, "Slugs"). A Parquet float column is read
as the shortest decimal that gives back the same float (Python's ``repr``). Scales grow with
the digits: window sums then exceed 64 bits and the engine must stay exact.
"""

from __future__ import annotations

import json
import struct
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sewer_cli.main import main
from sewer_engines.monitoring.analysis import Options
from sewer_io.meter_files import analyse

START = datetime(2026, 3, 2, 5, tzinfo=UTC)  # midnight in New York


def _csv(path: Path, values: list[str]) -> Path:
    lines = ["timestamp,value"]
    lines += [f"{(START + timedelta(minutes=i)).isoformat()},{v}" for i, v in enumerate(values)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _values(path: Path) -> list[Decimal]:
    report = analyse(path, Options(keep_series=True))
    assert report.errors_total == 0, report.errors
    (s,) = report.series
    assert s.data is not None
    return [s.data.decimal(int(x)) for x in s.data.v.tolist()]


def test_float_artefacts_are_valid_readings_of_that_exact_decimal(tmp_path: Path) -> None:
    written = ["190.95000000000002", "0.30000000000000004", "12.30", "1e3", "-2.5E-3", "7"]
    got = _values(_csv(tmp_path / "r.csv", written))
    assert got == [Decimal(x) for x in written]


def test_any_number_of_digits(tmp_path: Path) -> None:
    """Beyond 64 bits (values are then Python integers): still exact."""
    written = ["123456789012345678901234567890.5", "0.000000000000000000000000000001", "1"]
    got = _values(_csv(tmp_path / "r.csv", written))
    assert got == [Decimal(x) for x in written]


_FLOATS = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=40, deadline=None)
@given(st.lists(_FLOATS, min_size=1, max_size=30))
def test_a_parquet_float_is_the_shortest_decimal_that_round_trips(floats: list[float]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.parquet"
        stamps = [START + timedelta(minutes=i) for i in range(len(floats))]
        pl.DataFrame({"timestamp": stamps, "value": floats}).write_parquet(path)
        got = _values(path)
    assert got == [Decimal(repr(x)) for x in floats]
    assert all(float(d) == x for d, x in zip(got, floats, strict=True))


def test_extreme_floats_from_parquet(tmp_path: Path) -> None:
    extremes = [5e-324, 1.7976931348623157e308, 0.1 + 0.2, -0.0, 1e22]
    path = tmp_path / "r.parquet"
    stamps = [START + timedelta(minutes=i) for i in range(len(extremes))]
    pl.DataFrame({"timestamp": stamps, "value": extremes}).write_parquet(path)
    got = _values(path)
    assert got == [Decimal(repr(x)) for x in extremes]
    assert struct.pack("<d", float(got[0])) == struct.pack("<d", 5e-324)


@pytest.mark.parametrize("digits", [2, 14, 17, 25])
def test_slugs_with_many_decimals_are_found_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], digits: int
) -> None:
    """A day of 10.000…01, then 300 minutes one unit in the last place above five times that,
    then readings of exactly five times it. With 14 or more decimals the window sums exceed
    64 bits; the decisions stay exact: one 300-minute slug against the exact baseline, and
    the readings at exactly five times do not exceed."""
    normal = Decimal("10." + "0" * (digits - 1) + "1")
    above = normal * 5 + Decimal(1).scaleb(-digits)
    values = [str(normal)] * 1440 + [str(above)] * 300 + [str(normal * 5)] * 20 + ["10"] * 10
    f = _csv(tmp_path / "r.csv", values)
    code = main(["slugs", str(f), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["errors_total"] == 0
    (s,) = doc["series"]
    (slug,) = s["slugs"]
    assert (slug["duration_minutes"], slug["readings"]) == (300, 300)
    assert Decimal(slug["peak"]) == above
    (series,) = analyse(f).series
    assert series.slugs[0].baseline == Fraction(normal)


def test_the_short_path_gives_the_rows_of_the_full_one(tmp_path: Path) -> None:
    """Rows in the historians' layout take the short path of ``compact_now``; every other row
    the full query. Row for row, the result is the full query's."""
    from sewer_engines.monitoring.compact_rows import compact, compact_now
    from sewer_engines.monitoring.readings import ReadOptions
    from sewer_io.readings import scan as _scan

    f = tmp_path / "r.csv"
    f.write_text(
        "timestamp,meter,value\n"
        "2026-03-02T00:00:00-05:00,A,190.95000000000002\n"
        "2026-03-02T00:01:00-05:00,A, 12.30 \n"
        "2026-03-02 00:02:00,A,1e3\n"
        "2026-03-02T05:03:00Z,A,NaN\n"
        "2026-03-02T00:04:00-05:00,,7\n"
        "2026-03-02T00:05:00-05:00,A,abc\n"
        "2026-03-08T02:30:00,A,1\n"
        "2026-02-30T00:00:00-05:00,A,1\n"
        "2026-03-02T00:06:00-05:00,B,-0.5\n"
        "2026-03-02T00:07:00+05:30,A,100\n",
        encoding="utf-8",
    )
    for options, rows in ((ReadOptions(), 10), (ReadOptions(meter="A"), 8)):
        full = compact(f, _scan(f), options).collect().sort("row")
        short = compact_now(f, _scan(f), options).sort("row")
        assert short.to_dicts() == full.to_dicts()
        assert short.height == rows


def test_the_values_read_early_are_those_of_the_text(tmp_path: Path) -> None:
    """A file wholly in the historians' layout: the short path reads its values as exact
    decimals while the times are parsed (``v`` then holds those decimals, not the texts); the
    rows are otherwise the full query's, and each series is scaled by the most decimal places
    its values need, whatever the file's or the zeros written ("12.30" needs one)."""
    from sewer_engines.monitoring.compact_rows import compact, compact_now
    from sewer_engines.monitoring.readings import ReadOptions
    from sewer_io.readings import Readings
    from sewer_io.readings import scan as _scan

    f = tmp_path / "r.csv"
    rows = ["timestamp,meter,value"]
    written = {"A": ["1.5", "2.25", "190.95000000000002"], "B": ["3", "40", "12.30"]}
    for i, (a, b) in enumerate(zip(written["A"], written["B"], strict=True)):
        at = (START + timedelta(minutes=i)).isoformat()
        rows += [f"{at},A,{a}", f"{at},B,{b}"]
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    short = compact_now(f, _scan(f), ReadOptions()).sort("row")
    full = compact(f, _scan(f), ReadOptions()).collect().sort("row")
    assert short.schema["v"] == pl.Decimal(38, 14)
    assert short.drop("v", "dec").to_dicts() == full.drop("v", "dec").to_dicts()
    assert short["v"].to_list() == [Decimal(v) for v in full["v"]]
    # the places written ("12.30": two), at least those needed (one)
    assert short["dec"].to_list() == [1, 0, 2, 0, 14, 2]
    assert full["dec"].to_list() == [1, 0, 2, 0, 14, 1]
    by_meter = {s.meter: s for s in Readings(f).series()}
    assert {m: s.scale for m, s in by_meter.items()} == {"A": 14, "B": 1}
    for meter, values in written.items():
        s = by_meter[meter]
        assert [s.decimal(int(x)) for x in s.v.tolist()] == [Decimal(v) for v in values]


def test_a_repeated_autumn_time_names_both_offsets(tmp_path: Path) -> None:
    """01:30 on the fall-back day happened twice in New York: the row error shows the time
    with the offset of each occurrence (EDT the first time, EST the second)."""
    from sewer_io.readings import Readings

    f = tmp_path / "r.csv"
    f.write_text(
        "timestamp,value\n2024-11-03T01:00:00-04:00,1\n2024-11-03T01:30:00,2\n",
        encoding="utf-8",
    )
    readings = Readings(f)
    list(readings.series())
    (error,) = readings.errors
    assert (error.row, error.field) == (3, "timestamp")
    assert error.message == (
        "'2024-11-03T01:30:00' happened twice in America/New_York (the clocks went back that "
        "day): write the time with its UTC offset ('2024-11-03T01:30:00-04:00' the first "
        "time, '2024-11-03T01:30:00-05:00' the second)"
    )
