"""The compiled loops (:mod:`sewer_rules.monitoring.native`) against the numpy and polars paths.

Two shortcuts, each checked against what it shortens:

- the historians' reader gives, for every file it takes, the series the general reader gives
  (generated files: offsets of every kind, the clock changes, values of every length and
  sign, both line ends, a last line with and without its newline, files long enough to be
  read on two threads), and takes no file the general reader would read with a remark or
  otherwise (each kind of line it must decline);
- the sequential judgement gives the readings, counts and normal-operation marks of the
  vectorised passes and of the one-reading-at-a-time reference, under dated rules that split
  a series (windows, multiples, rules not in force).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_io.historian import HistorianFile
from sewer_io.meter_files import analyse, open_readings
from sewer_io.readings import Readings
from sewer_rules.monitoring import native
from sewer_rules.monitoring.kernel import WindowRule
from sewer_rules.monitoring.normal import by_passes, normal_exceedances
from sewer_rules.monitoring.series import Series, cadence
from sewer_rules.monitoring.source import ReadOptions

from .test_slugs_engine import MAX_GAP, MIN, meter_series, reference


def test_the_compiled_module_is_built() -> None:
    """``make venv`` builds it (a C compiler is on every machine the project is tested on):
    without it the shortcuts would silently not run and only the speed would tell."""
    assert native.BUILT
    assert native.available()


# --- the historians' reader ------------------------------------------------------------------

OFFSETS = ["-05:00", "-04:00", "+00:00", "+05:30", "-09:30", "+14:00", "-12:00", "+13:45"]


def _stamp(utc_us: int, offset: str) -> str:
    sign = -1 if offset[0] == "-" else 1
    shift = timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6])) * sign
    local = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=utc_us) + shift
    return local.strftime("%Y-%m-%dT%H:%M:%S") + offset


@st.composite
def historian_files(draw: st.DrawFn) -> bytes:
    """A file the compiled reader must take: times strictly increasing (whole seconds, steps
    from one second to days, across the clock changes), each with an offset of its own, and
    plain decimals of one to eighteen digits."""
    n = draw(st.integers(1, 60))
    start = draw(st.integers(-2_000_000_000, 4_000_000_000)) * 1_000_000  # 1906 .. 2096
    steps = draw(
        st.lists(
            st.sampled_from([1, 59, 60, 60, 60, 61, 3600, 86_400 * 3]),
            min_size=n - 1,
            max_size=n - 1,
        )
    )
    times = [start]
    for step in steps:
        times.append(times[-1] + step * 1_000_000)
    # the file's most places, and integer parts that fit 64 bits at that scale (else the
    # reader declines: test_values_beyond_64_bits_at_the_file_s_scale_go_to_the_general_reader)
    most = draw(st.integers(0, 17))
    whole = st.one_of(st.integers(0, 10**6), st.just(0), st.integers(0, 10**17))
    lines = []
    for at in times:
        offset = draw(st.sampled_from(OFFSETS))
        integer = draw(whole) % 10 ** (18 - most)
        places = draw(st.integers(0, most))
        digits = str(integer)
        if draw(st.integers(0, 9)) == 0 and len(digits) < 18 - most:
            digits = "0" + digits  # a leading zero
        if places:
            fraction = str(draw(st.integers(0, 10**places - 1))).rjust(places, "0")
            text = f"{digits}.{fraction}"
        else:
            text = digits
        if draw(st.integers(0, 5)) == 0:
            text = "-" + text
        lines.append(f"{_stamp(at, offset)},{text}")
    header = draw(st.sampled_from(["timestamp,value", "Timestamp,Value", "TIMESTAMP,VALUE"]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    last = draw(st.sampled_from([end, ""]))
    return (end.join([header, *lines]) + last).encode()


def _general(path: Path) -> list[Series]:
    source = Readings(path, ReadOptions())
    found = list(source.series())
    assert source.errors_total == 0
    return found


def _same(a: Series, b: Series) -> None:
    assert (a.meter, a.parameter, a.unit, a.scale) == (b.meter, b.parameter, b.unit, b.scale)
    assert a.t.tolist() == b.t.tolist()
    assert a.v.tolist() == b.v.tolist()
    assert a.rows.tolist() == b.rows.tolist()
    assert (a.missing, a.deduplicated) == (b.missing, b.deduplicated)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(historian_files())
def test_the_reader_gives_the_general_readers_series(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.csv"
        path.write_bytes(data)
        taken = HistorianFile.open(path, ReadOptions())
        assert taken is not None, data[:300]
        [fast] = list(taken.series())
        [general] = _general(path)
        _same(fast, general)
        assert taken.errors == [] and taken.errors_total == 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    historian_files(), st.lists(st.tuples(st.integers(0, 10**6), st.binary(max_size=3)), max_size=4)
)
def test_whatever_the_bytes_the_reader_takes_only_what_the_general_reader_reads(
    data: bytes, edits: list[tuple[int, bytes]]
) -> None:
    """A historian's file with bytes replaced, inserted or removed anywhere after its header:
    the compiled reader never fails, and a file it still takes is the general reader's."""
    body = bytearray(data)
    start = data.index(b"\n") + 1
    for at, new in edits:
        at = start + at % max(1, len(body) - start)
        body[at : at + 1] = new
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.csv"
        path.write_bytes(bytes(body))
        taken = HistorianFile.open(path, ReadOptions())
        if taken is not None:
            [fast] = list(taken.series())
            [general] = _general(path)
            _same(fast, general)


def _lines(n: int, start: str = "2026-03-07T12:00:00", offset: str = "-05:00") -> list[str]:
    at = datetime.fromisoformat(start)
    return [
        f"{(at + timedelta(minutes=i)).isoformat()}{offset},{10 + i % 7}.{i % 100:02d}"
        for i in range(n)
    ]


def _write(folder: Path, lines: list[str], name: str = "r.csv") -> Path:
    path = folder / name
    path.write_text("\n".join(["timestamp,value", *lines]) + "\n")
    return path


DECLINED = {
    "a space after the comma": (5, "2026-03-07T12:05:00-05:00, 11.5"),
    "an impossible date": (5, "2026-02-30T12:05:00-05:00,11.5"),
    "hour 24": (5, "2026-03-07T24:00:00-05:00,11.5"),
    "second 60": (5, "2026-03-07T12:04:60-05:00,11.5"),
    "an offset beyond 14 hours": (5, "2026-03-07T12:05:00+15:00,11.5"),
    "an offset written Z": (5, "2026-03-07T17:05:00Z,11.5"),
    "a naive time (town time)": (5, "2026-03-07T12:05:00,11.5"),
    "fractions of a second": (5, "2026-03-07T12:05:00.5-05:00,11.5"),
    "a space between date and time": (5, "2026-03-07 12:05:00-05:00,11.5"),
    "an exponent": (5, "2026-03-07T12:05:00-05:00,1.15e1"),
    "an empty value (a gap)": (5, "2026-03-07T12:05:00-05:00,"),
    "NA": (5, "2026-03-07T12:05:00-05:00,NA"),
    "no digit before the point": (5, "2026-03-07T12:05:00-05:00,.5"),
    "no digit after the point": (5, "2026-03-07T12:05:00-05:00,5."),
    "a plus sign": (5, "2026-03-07T12:05:00-05:00,+5"),
    "nineteen digits": (5, "2026-03-07T12:05:00-05:00,1234567890.123456789"),
    "a quoted value": (5, '2026-03-07T12:05:00-05:00,"11.5"'),
    "a third column": (5, "2026-03-07T12:05:00-05:00,11.5,x"),
    "the same time twice": (5, "2026-03-07T12:04:00-05:00,11.5"),
    "a time before the one above": (5, "2026-03-07T11:00:00-05:00,11.5"),
    "a blank line": (5, ""),
    "a bad line at the end": (39_999, "2026-03-07T12:05:00-05:00,abc"),
}


@pytest.mark.parametrize("case", sorted(DECLINED))
def test_the_reader_declines_every_other_line(case: str, tmp_path: Path) -> None:
    """Any other line, wherever it stands (the last case is in the second thread's half of a
    file long enough to be read on two), sends the whole file to the general reader."""
    at, line = DECLINED[case]
    lines = _lines(40_000 if at > 100 else 10)
    lines[at] = line
    path = _write(tmp_path, lines)
    assert HistorianFile.open(path, ReadOptions()) is None
    assert isinstance(open_readings(path, ReadOptions()), Readings)


def test_values_beyond_64_bits_at_the_file_s_scale_go_to_the_general_reader(
    tmp_path: Path,
) -> None:
    """Each value fits 18 digits, but not both at the scale of the other (18 + 1 places):
    declined, and the general reader reads them exactly (Python integers)."""
    lines = _lines(3)
    lines[0] = lines[0].split(",")[0] + ",123456789012345678"
    lines[1] = lines[1].split(",")[0] + ",0.1"
    path = _write(tmp_path, lines)
    assert HistorianFile.open(path, ReadOptions()) is None
    [s] = _general(path)
    assert s.decimal(int(s.v[0])) == Decimal("123456789012345678")


def test_the_seam_between_the_two_halves_is_checked(tmp_path: Path) -> None:
    """On two threads the file is cut at the end of the line after its middle byte; the
    first line of the second half repeating the last time of the first is still refused."""
    lines = _lines(60_000)
    path = _write(tmp_path, lines)
    data = path.read_bytes()
    body = data.index(b"\n") + 1
    cut = data.index(b"\n", body + (len(data) - body) // 2) + 1
    k = data[body:cut].count(b"\n")  # the second half's first line
    assert HistorianFile.open(path, ReadOptions()) is not None
    lines[k] = lines[k - 1].split(",")[0] + ",12.5"
    path = _write(tmp_path, lines)
    assert HistorianFile.open(path, ReadOptions()) is None


@pytest.mark.parametrize("threads", [1, 2])
def test_one_thread_or_two_read_alike(
    threads: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "cpus", lambda: threads)
    path = _write(tmp_path, _lines(50_000, "2026-11-01T00:00:00", "-04:00"))
    taken = HistorianFile.open(path, ReadOptions())
    assert taken is not None
    [fast] = list(taken.series())
    [general] = _general(path)
    _same(fast, general)


def test_what_is_asked_decides_whether_the_reader_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Part of a file asked for, a file larger than the memory budget, a Parquet file, or
    ``SEWER_USE_NATIVE=0``: the general reader."""
    path = _write(tmp_path, _lines(20))
    assert HistorianFile.open(path, ReadOptions()) is not None
    assert HistorianFile.open(path, ReadOptions(meter="default")) is None
    assert HistorianFile.open(path, ReadOptions(parameter="flow")) is None
    assert HistorianFile.open(path, ReadOptions(memory_budget=100)) is None
    parquet = tmp_path / "r.parquet"
    parquet.write_bytes(path.read_bytes())
    assert HistorianFile.open(parquet, ReadOptions()) is None
    assert HistorianFile.open(tmp_path / "missing.csv", ReadOptions()) is None
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    assert HistorianFile.open(path, ReadOptions()) is None


def _discharge_file(folder: Path) -> Path:
    """Two days of one-minute flow and a 300-minute discharge at ten times the flow."""
    start = datetime(2026, 3, 6, tzinfo=UTC)
    lines = []
    for i in range(2 * 1440 + 600):
        flow = Decimal("190.95000000000002") if 2 * 1440 <= i < 2 * 1440 + 300 else Decimal(19)
        flow += Decimal(i % 5) / 100
        lines.append(
            f"{_stamp(int((start + timedelta(minutes=i)).timestamp()) * 10**6, '-05:00')},{flow}"
        )
    return _write(folder, lines)


def test_the_report_is_the_same_by_either_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _discharge_file(tmp_path)
    fast = analyse(path).as_dict()
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    general = analyse(path).as_dict()
    assert fast == general
    [series] = fast["series"]
    [slug] = series["slugs"]
    assert slug["duration_minutes"] == 300.0


def test_a_historian_file_is_judged_without_polars_or_pyarrow(tmp_path: Path) -> None:
    """Start-up is part of what the user waits for: a file the compiled reader takes loads
    neither library (a child process, as a user runs the command)."""
    path = _discharge_file(tmp_path)
    code = (
        "import sys\n"
        "from sewer_cli.main import main\n"
        "try:\n"
        f"    main(['slugs', {str(path)!r}, '--format', 'json', '--output', {str(tmp_path / 'o.json')!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'polars', 'pyarrow', 'pandas'}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SEWER_USE_NATIVE"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert '"duration_minutes": 300.0' in (tmp_path / "o.json").read_text()


# --- the sequential judgement ------------------------------------------------------------------


@st.composite
def dated_rules(draw: st.DrawFn, n: int) -> list[WindowRule]:
    """The series cut into up to four periods, each with its window, multiple (p/q) and
    whether a multiple is in force — as dated parameters cut a series."""
    cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=3))) | {0, n})
    rules = []
    for a, b in itertools.pairwise(cuts):
        window = draw(st.sampled_from([0, 6, 15, 40])) * MIN
        p, q = draw(st.sampled_from([(5, 1), (5, 1), (3, 1), (11, 2), (0, 1)]))
        rules.append(WindowRule(a, b, window, p, q, in_force=draw(st.booleans()) or p == 5))
    return rules


def _equal(a, b) -> None:  # type: ignore[no-untyped-def]
    assert a.hits.tolist() == b.hits.tolist()
    assert (a.judged, a.unjudged) == (b.judged, b.unjudged)
    if a.hits.size:
        assert a.normal is not None and b.normal is not None
        assert a.normal.tolist() == b.normal.tolist()
    else:
        assert a.normal is None and b.normal is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), meter_series(max_size=150), st.sampled_from([1, 10**14, -1]))
def test_the_compiled_judgement_is_that_of_the_passes(data, series, factor) -> None:  # type: ignore[no-untyped-def]
    """Under dated rules (several windows and multiples, rules not in force, no window), with
    values near 64 bits and negative ones: the same readings, counts and normal marks."""
    t, values = series
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    v = s.v * factor
    rules = data.draw(dated_rules(len(t)))
    tt = np.asarray(t, dtype=np.int64)
    compiled = native.normal_judgement(tt, v, rules)
    assert compiled is not None
    _equal(compiled, by_passes(tt, v, cadence(tt, MAX_GAP), rules))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_series(max_size=150), st.sampled_from([6, 15, 40]))
def test_the_compiled_judgement_is_the_rule_read_literally(series, window_minutes) -> None:  # type: ignore[no-untyped-def]
    t, values = series
    window = window_minutes * MIN
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    got = native.normal_judgement(
        np.asarray(t, dtype=np.int64), s.v, [WindowRule(0, len(t), window, 5, 1)]
    )
    assert got is not None
    assert got.hits.tolist() == hits
    assert (got.judged, got.unjudged) == (judged, unjudged)


def test_what_the_compiled_loop_cannot_hold_goes_to_the_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python integers (values beyond 64 bits), overlapping rules, a factor beyond 31 bits,
    or ``SEWER_USE_NATIVE=0``: None, and :func:`normal_exceedances` takes the passes."""
    t = np.arange(100, dtype=np.int64) * MIN
    v = np.full(100, 10, dtype=np.int64)
    v[60:80] = 100
    rule = [WindowRule(0, 100, 30 * MIN, 5, 1)]
    assert native.normal_judgement(t, v, rule) is not None
    assert native.normal_judgement(t, v.astype(object) * 10**30, rule) is None
    overlapping = [WindowRule(0, 60, 30 * MIN, 5, 1), WindowRule(50, 100, 30 * MIN, 5, 1)]
    assert native.normal_judgement(t, v, overlapping) is None
    assert native.normal_judgement(t, v, [WindowRule(0, 100, 30 * MIN, 2**31, 1)]) is None
    passes = normal_exceedances(t, v.astype(object) * 10**30, cadence(t, MAX_GAP), rule)
    assert passes.passes >= 2 and passes.hits.tolist() == list(range(60, 80))
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    assert native.normal_judgement(t, v, rule) is None
    assert normal_exceedances(t, v, cadence(t, MAX_GAP), rule).passes >= 2
