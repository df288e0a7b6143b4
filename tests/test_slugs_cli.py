"""``sewer-use slugs`` honours its contract: input columns, JSON fields, formats, exit codes."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import polars as pl
import pytest

from sewer_cli.main import main
from sewer_engines.monitoring.analysis import Options
from sewer_io.meter_files import analyse

TZ = ZoneInfo("America/New_York")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "monitoring" / "readings.parquet"
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$")


def readings(
    values: list[str],
    *,
    start: datetime = datetime(2026, 3, 2, tzinfo=TZ),
    step: timedelta = timedelta(minutes=1),
    meter: str | None = None,
    parameter: str | None = None,
    unit: str | None = None,
    naive: bool = False,
) -> list[dict[str, str]]:
    out = []
    for i, value in enumerate(values):
        at = (start.astimezone(UTC) + i * step).astimezone(TZ)  # absolute time
        row = {"timestamp": at.replace(tzinfo=None).isoformat(sep=" ") if naive else at.isoformat()}
        for key, given in (("meter", meter), ("parameter", parameter), ("unit", unit)):
            if given is not None:
                row[key] = given
        row["value"] = value
        out.append(row)
    return out


def write(tmp_path: Path, rows: list[dict[str, str]], name: str = "r.csv") -> Path:
    path = tmp_path / name
    fields: list[str] = []
    for row in rows:
        fields += [k for k in row if k not in fields]
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    return path


def slug_day(peak: str = "100", minutes: int = 16) -> list[str]:
    return ["10"] * 1440 + [peak] * minutes + ["10"] * 10


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["slugs", *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code, out, err = run(capsys, *args, "--format", "json")
    assert "Traceback" not in err
    return code, json.loads(out)


# --- the contract ---------------------------------------------------------------------------


def test_steady_flow_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, readings(["10"] * 1500))
    code, doc = run_json(capsys, str(f))
    assert code == 0
    (s,) = doc["series"]
    assert (s["meter"], s["parameter"], s["unit"]) == ("default", "flow", "gpd")
    assert (s["readings"], s["judged"], s["unjudged"]) == (1500, 60, 1440)
    assert s["slugs"] == [] and s["excursions"] == [] and s["monthly"] == []
    assert doc["errors"] == []


def test_json_fields_of_a_slug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, readings(slug_day(), meter="IU-7", parameter="Flow", unit="gpm"))
    code, doc = run_json(capsys, str(f))
    assert code == 1
    assert list(doc)[:2] == ["series", "errors"]
    (s,) = doc["series"]
    assert list(s)[:9] == [
        "meter",
        "parameter",
        "unit",
        "readings",
        "judged",
        "unjudged",
        "slugs",
        "excursions",
        "monthly",
    ]
    assert (s["meter"], s["parameter"], s["unit"]) == ("IU-7", "flow", "gpm")
    (slug,) = s["slugs"]
    assert list(slug)[:8] == [
        "start",
        "end",
        "duration_minutes",
        "peak",
        "baseline",
        "threshold",
        "citation",
        "report_required",
    ]
    assert slug["start"] == "2026-03-03T00:00:00-05:00"
    assert slug["end"] == "2026-03-03T00:16:00-05:00"
    assert slug["duration_minutes"] == 16.0 and isinstance(slug["duration_minutes"], float)
    assert (slug["peak"], slug["baseline"], slug["threshold"]) == ("100", "10", "50")
    assert slug["citation"] == "§ 196-15 SLUG"
    assert slug["report_required"] == "§ 196-19 D(9)(d)"


def test_fifteen_minutes_is_not_a_slug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, readings(slug_day(minutes=15)))
    code, doc = run_json(capsys, str(f))
    assert code == 0
    assert doc["series"][0]["slugs"] == []


def test_json_fields_of_an_excursion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    values = ["7.2"] * 30 + ["5.4", "5.1", "5.3"] + ["7.2"] * 30
    f = write(tmp_path, readings(values, parameter="pH", unit="s.u."))
    code, doc = run_json(capsys, str(f))
    assert code == 1
    (s,) = doc["series"]
    assert (s["parameter"], s["unit"], s["judged"], s["unjudged"]) == ("ph", "SU", 63, 0)
    (x,) = s["excursions"]
    assert list(x)[:6] == ["start", "end", "duration_minutes", "extreme", "status", "citation"]
    assert x["start"] == "2026-03-02T00:30:00-05:00" and ISO.match(x["end"])
    assert (x["duration_minutes"], x["extreme"], x["status"], x["citation"]) == (
        3.0,
        "5.1",
        "prohibited",
        "§ 196-19 C(3)",
    )
    (m,) = s["monthly"]
    assert list(m)[:4] == [
        "month",
        "excursion_minutes",
        "longest_excursion_minutes",
        "allowance_exceeded",
    ]
    assert m["month"] == "2026-03" and m["allowance_exceeded"] is False


def test_ph_allowance_excuses_a_short_excursion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = ["7.2"] * 30 + ["10.1"] * 20 + ["7.2"] * 30
    f = write(tmp_path, readings(values, parameter="pH"))
    assert run_json(capsys, str(f))[0] == 1
    code, doc = run_json(capsys, str(f), "--ph-allowance")
    assert code == 0
    (x,) = doc["series"][0]["excursions"]
    assert (x["status"], x["citation"], x["excused"]) == ("review", "§ 196-19 D(8)", True)


def test_temperature_excursion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    values = ["70"] * 10 + ["151"] * 4 + ["70"] * 10
    f = write(tmp_path, readings(values, parameter="temperature", unit="F"))
    code, doc = run_json(capsys, str(f))
    assert code == 1
    (x,) = doc["series"][0]["excursions"]
    assert (x["status"], x["citation"], x["extreme"]) == ("review", "§ 196-19 D(1)", "151")


def test_row_errors_exit_1_and_missing_values_are_gaps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = readings(["10"] * 1500)
    rows[5]["value"] = "abc"
    rows[6]["value"] = ""
    rows[7]["value"] = "NaN"
    f = write(tmp_path, rows)
    code, doc = run_json(capsys, str(f))
    assert code == 1
    assert doc["errors"] == [{"row": 7, "field": "value", "message": "not a number: 'abc'"}]
    (s,) = doc["series"]
    assert (s["readings"], s["missing"]) == (1497, 2)


def test_every_kind_of_row_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.csv"
    f.write_text(
        "timestamp,meter,parameter,unit,value\n"
        "2026-03-02T00:00:00-05:00,A,flow,gpd,1\n"
        "yesterday,A,flow,gpd,1\n"
        "2026-03-08 02:30:00,A,flow,gpd,1\n"
        "2026-03-02T00:03:00-05:00,,flow,gpd,1\n"
        "2026-03-02T00:04:00-05:00,A,fizz,gpd,1\n"
        "2026-03-02T00:05:00-05:00,A,flow,furlongs,1\n"
        "2026-03-02T00:06:00-05:00,A,flow,mg/l,1\n"
        "2026-03-02T00:07:00-05:00,A,flow,gpd,1.1234567891\n"
        "2026-03-02T00:08:00-05:00,A,flow,gpd,1e3\n"
        "2026-03-02T00:09:00-05:00,A,flow,gpd,99999999999999\n"
        "2026-03-02T00:10:00-05:00,A,flow,gpd,1.2.3\n"
        "2026-03-02T00:11:00-05:00,A,flow,gpd,1e999\n"
        "2026-11-01 01:30:00,A,flow,gpd,1\n",
        encoding="utf-8",
    )
    code, doc = run_json(capsys, str(f))
    assert code == 1
    fields = {e["row"]: e["field"] for e in doc["errors"]}
    assert fields == {
        3: "timestamp",
        4: "timestamp",
        5: "meter",
        6: "parameter",
        7: "unit",
        8: "unit",
        12: "value",
        13: "value",
        14: "timestamp",
    }
    by_row = {e["row"]: e["message"] for e in doc["errors"]}
    # the time the clocks skipped is ISO 8601: the message says it did not exist that day
    assert by_row[4] == (
        "'2026-03-08T02:30:00' does not exist in America/New_York: the clocks went forward "
        "over that time that day; write the time with its UTC offset "
        "(e.g. '2026-03-08T02:30:00-05:00')"
    )
    assert "ISO" not in by_row[4] and "not a timestamp" not in by_row[4]
    assert "happened twice" in by_row[14] and "UTC offset" in by_row[14]
    assert by_row[6] == "unknown parameter 'fizz'"
    assert by_row[12] == "not a number: '1.2.3'"
    assert "beyond the range read exactly" in by_row[13]
    # ten decimal places, an exponent and fourteen digits are numbers, read exactly
    assert doc["series"][0]["readings"] == 4  # rows 2, 9, 10, 11


@pytest.mark.parametrize("blank_row", [2, 3, 4])
def test_a_blank_parameter_is_a_row_error_wherever_it_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blank_row: int
) -> None:
    """A reading of no named parameter is of unknown origin (module docstring of
    ``sewer_engines.monitoring.readings``): a row error on the first row as on any other, never
    counted in the series of the rows around it."""
    lines = [f"2026-03-02T00:0{i}:00-05:00,A,flow,gpd,1" for i in range(3)]
    lines[blank_row - 2] = lines[blank_row - 2].replace(",flow,", ",,")
    f = tmp_path / "r.csv"
    f.write_text("timestamp,meter,parameter,unit,value\n" + "\n".join(lines) + "\n")
    code, doc = run_json(capsys, str(f))
    assert code == 1
    assert [(e["row"], e["field"], e["message"]) for e in doc["errors"]] == [
        (blank_row, "parameter", "missing parameter")
    ]
    assert [(s["parameter"], s["readings"]) for s in doc["series"]] == [("flow", 2)]


def test_unusable_files_exit_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    no_value = tmp_path / "novalue.csv"
    no_value.write_text("timestamp,reading\n2026-03-02T00:00:00-05:00,1\n", encoding="utf-8")
    code, out, err = run(capsys, str(no_value))
    assert code == 2 and out == ""
    assert "novalue.csv" in err and "'value'" in err and "Traceback" not in err
    code, _, err = run(capsys, str(tmp_path / "absent.csv"))
    assert code == 2 and "absent.csv" in err
    other = tmp_path / "r.xlsx"
    other.write_text("x", encoding="utf-8")
    code, _, err = run(capsys, str(other))
    assert code == 2 and ".csv or .parquet" in err
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet at all")
    code, _, err = run(capsys, str(broken))
    assert code == 2 and "broken.parquet" in err and "Traceback" not in err
    typed = tmp_path / "typed.parquet"
    pl.DataFrame({"timestamp": [1, 2], "value": [1.0, 2.0]}).write_parquet(typed)
    code, _, err = run(capsys, str(typed))
    assert code == 2 and "'timestamp'" in err


def test_duplicate_timestamps_name_the_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = readings(["10", "11", "12", "13"])
    rows.insert(2, dict(rows[1], value="99"))
    f = write(tmp_path, rows)
    code, out, err = run(capsys, str(f))
    assert code == 2 and out == ""
    assert "rows 3 and 4 at 2026-03-02T00:01:00-05:00" in err and "--dedupe" in err

    for how, kept in (("first", "11"), ("last", "99"), ("mean", "55")):
        code, doc = run_json(capsys, str(f), "--dedupe", how)
        assert code == 0
        (s,) = doc["series"]
        assert (s["readings"], s["deduplicated"]) == (4, 1)
        got = analyse(f, Options(dedupe=how, keep_series=True)).series[0].data
        assert got is not None and str(got.decimal(int(got.v[1]))) == kept


def test_naive_times_are_town_time_and_files_may_be_unsorted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = readings(slug_day(), start=datetime(2026, 3, 7, 12, tzinfo=TZ), naive=True)
    random.Random(3).shuffle(rows)
    f = write(tmp_path, rows)
    code, doc = run_json(capsys, str(f))
    assert code == 1
    (slug,) = doc["series"][0]["slugs"]
    # 24 hours after 12:00 EST on the 7th the clock (now daylight time) reads 13:00
    assert slug["start"] == "2026-03-08T13:00:00-04:00"


def test_mixed_units_are_converted_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gpm = readings(["10.5"] * 1440, unit="gpm")
    gpd = readings(
        ["80000"] * 16 + ["15120"] * 5, unit="gpd", start=datetime(2026, 3, 3, tzinfo=TZ)
    )
    f = write(tmp_path, gpm + gpd)
    code, doc = run_json(capsys, str(f))
    assert code == 1
    (s,) = doc["series"]
    assert s["unit"] == "gpd"
    (slug,) = s["slugs"]
    # 10.5 gpm is exactly 15120 gpd
    assert (slug["baseline"], slug["threshold"], slug["peak"]) == ("15120", "75600", "80000")


def test_fixed_baseline_with_a_unit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, readings(["40"] * 5 + ["60"] * 20 + ["40"] * 5, unit="gpm"))
    code, doc = run_json(capsys, str(f), "--baseline", "14400 gpd")  # 10 gpm
    assert code == 1
    (slug,) = doc["series"][0]["slugs"]
    assert (slug["baseline"], slug["threshold"], slug["duration_minutes"]) == ("10", "50", 20.0)
    assert doc["series"][0]["unjudged"] == 0
    code, _, err = run(capsys, str(f), "--baseline", "3 mg/l")
    assert code == 2 and "does not apply" in err
    code, _, err = run(capsys, str(f), "--baseline", "ten")
    assert code == 2 and "--baseline" in err


def test_baseline_hours_and_max_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    values = ["10"] * 120 + ["1000"] * 10 + ["10"] * 5
    rows = readings(values)
    later = readings(["1000"] * 10 + ["10"] * 5, start=datetime(2026, 3, 2, 2, 20, tzinfo=TZ))
    f = write(tmp_path, rows[:130] + later)
    code, doc = run_json(capsys, str(f), "--baseline-hours", "2")
    assert doc["series"][0]["slugs"] == [] and doc["series"][0]["gaps"] == 1
    code, doc = run_json(capsys, str(f), "--baseline-hours", "2", "--max-gap", "15min")
    (slug,) = doc["series"][0]["slugs"]
    assert slug["duration_minutes"] == 30.0
    for bad in ("soon", "0", "-5min"):
        code, _, err = run(capsys, str(f), f"--max-gap={bad}")
        assert code == 2 and "--max-gap" in err
    code, _, err = run(capsys, str(f), "--baseline-hours", "0")
    assert code == 2


def test_meter_and_parameter_filters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = (
        readings(slug_day(), meter="A", parameter="flow")
        + readings(["10"] * 1466, meter="B", parameter="flow")
        + readings(["7"] * 1466, meter="A", parameter="pH")
    )
    f = write(tmp_path, rows)
    code, doc = run_json(capsys, str(f))
    assert [(s["meter"], s["parameter"]) for s in doc["series"]] == [
        ("A", "flow"),
        ("A", "ph"),
        ("B", "flow"),
    ]
    code, doc = run_json(capsys, str(f), "--meter", "B")
    assert code == 0 and [s["meter"] for s in doc["series"]] == ["B"]
    code, doc = run_json(capsys, str(f), "--parameter", "PH")
    assert code == 0 and [(s["meter"], s["parameter"]) for s in doc["series"]] == [("A", "ph")]
    code, doc = run_json(capsys, str(f), "--meter", "A", "--parameter", "flow")
    assert code == 1 and len(doc["series"]) == 1
    code, _, err = run(capsys, str(f), "--parameter", "fizz")
    assert code == 2 and "--parameter" in err


def test_csv_table_and_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = readings(slug_day(), parameter="flow") + readings(
        ["7"] * 5 + ["5"] * 3 + ["7"] * 5, parameter="pH", start=datetime(2026, 3, 4, tzinfo=TZ)
    )
    f = write(tmp_path, rows)
    code, out, _ = run(capsys, str(f), "--format", "csv")
    assert code == 1
    table = list(csv.DictReader(io.StringIO(out)))
    assert [r["kind"] for r in table] == ["slug", "excursion"]
    assert (
        table[0]["citation"] == "§ 196-15 SLUG"
        and table[0]["report_required"] == "§ 196-19 D(9)(d)"
    )
    assert table[1]["status"] == "prohibited" and table[1]["value"] == "5"
    code, out, _ = run(capsys, str(f))
    assert code == 1
    assert (
        "Slugs (§ 196-15 SLUG)" in out
        and "Excursions" in out
        and "2026-03-03T00:00:00-05:00" in out
    )
    target = tmp_path / "report.json"
    code, out, _ = run(capsys, str(f), "--format", "json", "--output", str(target))
    assert code == 1 and out == ""
    assert len(json.loads(target.read_text(encoding="utf-8"))["series"]) == 2


def test_plot_is_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = readings(slug_day(), parameter="flow") + readings(
        ["7"] * 5 + ["5"] * 3 + ["7"] * 5, parameter="pH", start=datetime(2026, 3, 3, tzinfo=TZ)
    )
    f = write(tmp_path, rows)
    png = tmp_path / "p.png"
    code, _, err = run(capsys, str(f), "--plot", str(png))
    assert code == 1 and "Traceback" not in err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    svg = tmp_path / "p.svg"
    assert run(capsys, str(f), "--plot", str(svg), "--meter", "default")[0] == 1
    assert "<svg" in svg.read_text(encoding="utf-8")[:500]
    code, _, err = run(capsys, str(f), "--plot", str(tmp_path / "p.pdf"))
    assert code == 2 and ".png or .svg" in err


def test_parquet_input_matches_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = readings(slug_day(peak="100.25"), meter="M1")
    f = write(tmp_path, rows)
    frame = pl.read_csv(f, infer_schema=False).with_columns(
        pl.col("timestamp").str.to_datetime(time_zone="UTC"), pl.col("value").cast(pl.Float64)
    )
    p = tmp_path / "r.parquet"
    frame.write_parquet(p)
    naive = tmp_path / "naive.parquet"
    frame.with_columns(
        pl.col("timestamp").dt.convert_time_zone("America/New_York").dt.replace_time_zone(None)
    ).write_parquet(naive)
    docs = [run_json(capsys, str(x))[1] for x in (f, p, naive)]
    assert docs[0]["series"] == docs[1]["series"] == docs[2]["series"]
    assert docs[0]["series"][0]["slugs"][0]["peak"] == "100.25"


def test_large_files_are_split_to_disk_with_the_same_result(tmp_path: Path) -> None:
    rows = (
        readings(slug_day(), meter="A/1", parameter="flow")
        + readings(["7"] * 20 + ["4"] * 5, meter="B", parameter="pH")
        + readings(["7"] * 20, meter="B", parameter="PH ", start=datetime(2026, 3, 3, tzinfo=TZ))
        + readings(["1"] * 3, meter="B", parameter="fizz")
    )
    rows[3]["value"] = "x"
    f = write(tmp_path, rows)
    whole = analyse(f, Options())
    split = analyse(f, Options(memory_budget=0, spill_dir=str(tmp_path)))
    assert split.as_dict() == whole.as_dict()
    assert [(s.meter, s.parameter) for s in whole.series] == [("A/1", "flow"), ("B", "ph")]
    assert whole.series[1].readings == 45
    assert [e.row for e in whole.errors] == [5, 1513, 1514, 1515]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("sewer-slugs-")]


def test_the_monitoring_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The example month: two slugs, the 15-minute near miss is not one, one pH excursion."""
    code, doc = run_json(capsys, str(EXAMPLE))
    assert code == 1
    found = {
        (s["meter"], s["parameter"]): ([x["start"] for x in s["slugs"]], s["excursions"])
        for s in doc["series"]
    }
    assert found[("IU-01", "flow")][0] == ["2026-03-12T10:14:00-04:00"]
    assert found[("IU-02", "flow")][0] == ["2026-03-09T02:40:00-04:00"]
    (ph,) = found[("IU-01", "ph")][1]
    assert (ph["start"], ph["status"]) == ("2026-03-18T14:05:00-04:00", "prohibited")
    # the baseline is the mean of the 1,440 readings of the day before, computed here plainly
    day = pl.read_parquet(EXAMPLE).filter(
        (pl.col("meter") == "IU-01")
        & (pl.col("parameter") == "flow")
        & (pl.col("timestamp") >= datetime(2026, 3, 11, 10, 14, tzinfo=TZ))
        & (pl.col("timestamp") < datetime(2026, 3, 12, 10, 14, tzinfo=TZ))
    )
    mean = sum(Decimal(x) for x in day["value"]) / day.height
    (slug,) = next(s for s in doc["series"] if s["meter"] == "IU-01")["slugs"]
    assert day.height == 1440 and slug["baseline"] == str(mean.quantize(Decimal("0.000001")))
    flows = {(s["meter"]): s for s in doc["series"] if s["parameter"] == "flow"}
    assert flows["IU-02"]["unit"] == "gpd" and flows["IU-02"]["missing"] == 150
    assert sum(len(s["excursions"]) for s in doc["series"]) == 1


def test_timestamp_layouts(tmp_path: Path) -> None:
    """The common layout takes a fast path; the others the general one; all exact."""
    f = tmp_path / "r.csv"
    f.write_text(
        "timestamp,value\n"
        "2026-03-02T05:30:00+05:30,1\n"  # 00:00 UTC
        "2026-03-01T19:01:00-05:00,2\n"  # 00:01 UTC
        "2026-03-02 00:02:00.5Z,3\n"
        "2026-03-02T00:03Z,4\n"
        "2026-03-02T00:04:00+0000,5\n"
        "2026-03-01 19:05:00,6\n"  # naive: town time, EST
        "2026-03-01T19:06,7\n"
        "2026-03-01T19:07:00-05:0x,8\n",
        encoding="utf-8",
    )
    report = analyse(f, Options(keep_series=True))
    series = report.series[0].data
    assert series is not None
    base = 1_772_409_600_000_000  # 2026-03-02T00:00:00Z
    minute = 60_000_000
    assert series.t.tolist() == [
        base,
        base + minute,
        base + 2 * minute + 500_000,
        base + 3 * minute,
        base + 4 * minute,
        base + 5 * minute,
        base + 6 * minute,
    ]
    assert [(e.row, e.field) for e in report.errors] == [(9, "timestamp")]
