"""The compiled reader of meter files (:mod:`sewer_io.historian`) against the general reader.

The compiled reader is a shortcut: for every file it takes it must give the series the general
reader (:class:`sewer_io.readings.Readings`) gives — meters, instants, exact values, their
scale, row numbers, missing values counted — and it must take no file the general reader
would read with a remark (a row error, duplicate instants). Checked here on generated files of
every shape a historian writes: times with ``Z``, ``±HH:MM`` or ``±HHMM`` or none (town time,
around the clock changes), with or without seconds and fractions of them, ``T`` or a space;
with or without a meter column, columns in any order, a column passed over; values of every
length, missing values, rows out of order, duplicates; and every shape must be taken when
the general reader reads it without a remark. Files longer than a megabyte (read on two
threads), the general reader's sample of time layouts (its first 1,000 rows off its own
shortcut), and the zone's table of offsets are checked on their own.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.monitoring import native
from sewer_engines.monitoring.series import Series
from sewer_engines.monitoring.source import ReadingsError, ReadOptions
from sewer_io.historian import HistorianFile
from sewer_io.meter_files import analyse, open_readings
from sewer_io.readings import Readings


def clock(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    """A time on a clock, of no zone (what a naive time in a file is until it is read)."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC).replace(tzinfo=None)


NEW_YORK = ZoneInfo("America/New_York")
EPOCH = clock(1970, 1, 1)
US = 1_000_000
OFFSETS = ["-05:00", "-04:00", "+00:00", "+05:30", "-09:30", "+14:00", "-12:00", "+13:45"]
MISSING = ["", "NA", "na", "N/A", "NaN", "null", "None", "NULL"]
METERS = ["FM-101", "FM 2", "a", "Z9", "meter_with_a_long_name"]


def test_the_compiled_module_is_built() -> None:
    """``make venv`` builds it (a C compiler is on every machine the project is tested on):
    without it the shortcut would silently not run and only the speed would tell."""
    assert native.BUILT
    assert native.available()


# --- generated files ----------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """How a file (or a row) writes its times."""

    sep: str  # "T" or " "
    seconds: bool
    fraction: int  # digits of the fraction of a second (0: none)
    zone: str  # "Z", "colon" (±HH:MM), "compact" (±HHMM) or "naive" (town time)

    @property
    def grid(self) -> int:
        """The step (µs) of the instants this layout writes exactly."""
        if not self.seconds:
            return 60 * US
        return int(10 ** (6 - min(self.fraction, 6)))


layouts = st.builds(
    Layout,
    st.sampled_from(["T", "T", " "]),
    st.booleans(),
    st.sampled_from([0, 0, 1, 3, 6, 9]),
    st.sampled_from(["Z", "colon", "colon", "compact", "naive"]),
).map(lambda x: x if x.seconds else Layout(x.sep, False, 0, x.zone))


def _local_text(local: datetime, micro_digits: str, layout: Layout) -> str:
    text = local.strftime("%Y-%m-%d") + layout.sep + local.strftime("%H:%M")
    if layout.seconds:
        text += local.strftime(":%S")
        if layout.fraction:
            text += "." + micro_digits
    return text


def _aware(at_us: int, offset: str, layout: Layout, extra: str) -> str:
    """The instant ``at_us`` written at ``offset`` (``extra``: digits past the sixth)."""
    sign = -1 if offset[0] == "-" else 1
    shift = timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6])) * sign
    local = EPOCH + timedelta(microseconds=at_us) + shift
    digits = (f"{local.microsecond:06d}" + extra)[: layout.fraction]
    zone = {"Z": "Z", "colon": offset, "compact": offset.replace(":", "")}[layout.zone]
    if layout.zone == "Z":
        local = EPOCH + timedelta(microseconds=at_us)
        digits = (f"{local.microsecond:06d}" + extra)[: layout.fraction]
    return _local_text(local, digits, layout) + zone


def _naive(local_us: int, layout: Layout, extra: str) -> tuple[str, bool]:
    """The town time ``local_us`` (µs since 1970 on the town's clocks) as written, and whether
    it names one instant (not skipped nor repeated by the clocks)."""
    local = EPOCH + timedelta(microseconds=local_us)
    digits = (f"{local.microsecond:06d}" + extra)[: layout.fraction]
    first = local.replace(tzinfo=NEW_YORK, fold=0)
    second = local.replace(tzinfo=NEW_YORK, fold=1)
    back = first.astimezone(UTC).astimezone(NEW_YORK).replace(tzinfo=None)
    unique = first.utcoffset() == second.utcoffset() and back == local
    return _local_text(local, digits, layout), unique


def _value(draw: st.DrawFn, most: int) -> str:
    integer = draw(st.one_of(st.integers(0, 10**6), st.just(0), st.integers(0, 10**17)))
    integer %= 10 ** (18 - most)
    places = draw(st.integers(0, most))
    digits = str(integer)
    if draw(st.integers(0, 9)) == 0 and len(digits) < 18 - most:
        digits = "0" + digits  # a leading zero
    text = digits
    if places:
        text += "." + str(draw(st.integers(0, 10**places - 1))).rjust(places, "0")
    return ("-" if draw(st.integers(0, 5)) == 0 else "") + text


#: Starts of files: anywhere in 1906..2096, and at the town's clock changes (where a naive
#: time may be skipped or repeated).
CHANGES = [
    clock(2026, 3, 8, 1, 30),
    clock(2026, 11, 1, 0, 45),
    clock(1974, 1, 6, 1, 0),
    clock(2007, 3, 11, 1, 50),
    clock(2099, 11, 1, 0, 30),
    clock(1970, 4, 26, 1, 0),
]


@dataclass
class Drawn:
    data: bytes
    must_take: bool  # every line one the general reader reads without a remark


@st.composite
def meter_files(draw: st.DrawFn, mixed_layouts: bool = True) -> Drawn:
    """A meter file in one of every shape; ``must_take`` when nothing in it is a remark of the
    general reader nor beyond what the compiled reader takes on purpose."""
    must_take = True
    n = draw(st.integers(1, 60))
    layout = draw(layouts)
    mixed = mixed_layouts and draw(st.integers(0, 4)) == 0
    # instants (UTC, or town time for a naive layout), strictly increasing on the layout's grid
    grid = 60 * US if mixed else layout.grid
    if draw(st.booleans()):
        start_dt = draw(st.sampled_from(CHANGES))
        start = int((start_dt - EPOCH).total_seconds()) * US
    else:
        low = 0 if layout.zone == "naive" or mixed else -2_000_000_000
        start = draw(st.integers(low, 3_900_000_000)) * US
    start -= start % grid
    # steps of one to 3,600 of the grid's, or three days (a gap)
    steps = draw(
        st.lists(
            st.sampled_from(
                [grid, grid, 59 * grid, 60 * grid, 61 * grid, 3600 * grid, 259_200 * US]
            ),
            min_size=n - 1,
            max_size=n - 1,
        )
    )
    times = [start]
    for step in steps:
        times.append(times[-1] + step)
    # meters: none (one series), or one to three named ones
    metered = draw(st.booleans())
    names = draw(st.lists(st.sampled_from(METERS), min_size=1, max_size=3, unique=True))
    if metered and draw(st.integers(0, 14)) == 0:
        names = [" FM-101"]  # a padded name: the general reader strips it, this one declines
        must_take = False
    most = draw(st.integers(0, 17))
    rows: list[tuple[str, str, str]] = []
    for at in times:
        row_layout = draw(layouts) if mixed else layout
        extra = draw(st.sampled_from(["", "7", "999"]))
        if row_layout.zone == "naive":
            text, unique = _naive(at, row_layout, extra)
            year = int(text[:4])
            must_take &= unique and 1970 <= year <= 2099
        else:
            text = _aware(at, draw(st.sampled_from(OFFSETS)), row_layout, extra)
            must_take &= 1900 <= int(text[:4]) <= 2999
        if draw(st.integers(0, 11)) == 0:
            value = draw(st.sampled_from(MISSING))
        else:
            value = _value(draw, most)
        rows.append((draw(st.sampled_from(names)), text, value))
    if mixed:
        must_take = False  # a time may land on another's instant
    if all(value.lower() in ("", "na", "n/a", "nan", "null", "none") for _, _, value in rows):
        must_take = False  # no reading at all: left to the general reader
    # rows out of order, and duplicates (an error of the general reader unless deduplicated)
    if n > 2 and draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(0, n - 2))
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
    if draw(st.integers(0, 9)) == 0:
        i = draw(st.integers(0, n - 1))
        rows.insert(draw(st.integers(0, n)), rows[i])
        must_take = False
    columns = ["timestamp", "value", *(["meter"] if metered else [])]
    if draw(st.integers(0, 5)) == 0:
        columns.append("quality")
    columns = draw(st.permutations(columns))
    header = [
        draw(st.sampled_from([c, c.upper(), c.title(), f" {c} " if c != "quality" else c]))
        for c in columns
    ]
    lines = []
    for meter, text, value in rows:
        cells = {"meter": meter, "timestamp": text, "value": value, "quality": "good"}
        lines.append(",".join(cells[c] for c in columns))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    last = draw(st.sampled_from([end, ""]))
    data = (end.join([",".join(header), *lines]) + last).encode()
    return Drawn(data, must_take)


def _general(path: Path, options: ReadOptions | None = None) -> list[Series]:
    source = Readings(path, options or ReadOptions())
    found = list(source.series())
    assert source.errors_total == 0, source.errors[:3]
    return found


def _same(fast: list[Series], general: list[Series]) -> None:
    assert [s.meter for s in fast] == [s.meter for s in general]
    for a, b in zip(fast, general, strict=True):
        assert (a.meter, a.parameter, a.unit, a.scale) == (b.meter, b.parameter, b.unit, b.scale)
        assert a.t.tolist() == b.t.tolist()
        assert a.v.tolist() == b.v.tolist()
        assert a.rows.tolist() == b.rows.tolist()
        assert (a.missing, a.deduplicated) == (b.missing, b.deduplicated)


def _check(data: bytes, must_take: bool, options: ReadOptions | None = None) -> bool:
    """Both readers on ``data``: the compiled reader's series are the general reader's
    whenever it takes the file, and it takes it when ``must_take``; whether it did."""
    options = options or ReadOptions()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.csv"
        path.write_bytes(data)
        taken = HistorianFile.open(path, options)
        if must_take:
            assert taken is not None, data[:400]
        if taken is None:
            assert isinstance(open_readings(path, options), Readings)
            return False
        assert taken.errors == [] and taken.errors_total == 0
        _same(list(taken.series()), _general(path, options))
        return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_files())
def test_the_reader_gives_the_general_readers_series(drawn: Drawn) -> None:
    _check(drawn.data, drawn.must_take)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_files(mixed_layouts=False), st.sampled_from([*METERS, "default"]))
def test_a_meter_asked_for_is_that_meter_s_series(drawn: Drawn, meter: str) -> None:
    _check(drawn.data, drawn.must_take, ReadOptions(meter=meter))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_files(), st.lists(st.tuples(st.integers(0, 10**6), st.binary(max_size=3)), max_size=4))
def test_whatever_the_bytes_the_reader_takes_only_what_the_general_reader_reads(
    drawn: Drawn, edits: list[tuple[int, bytes]]
) -> None:
    """A file with bytes replaced, inserted or removed anywhere after its header: the compiled
    reader never fails, and a file it still takes is the general reader's."""
    body = bytearray(drawn.data)
    start = drawn.data.index(b"\n") + 1
    for at, new in edits:
        at = start + at % max(1, len(body) - start)
        body[at : at + 1] = new
    with contextlib.suppress(ReadingsError):  # the general reader refuses it (duplicates)
        _check(bytes(body), False)


# --- shapes, one by one ---------------------------------------------------------------------

SHAPES = {
    "offset with seconds": "2026-03-07T12:{m:02d}:00-05:00",
    "Z with seconds": "2026-03-07T17:{m:02d}:00Z",
    "Z without seconds": "2026-03-07T17:{m:02d}Z",
    "offset without seconds": "2026-03-07T12:{m:02d}-05:00",
    "offset without its colon": "2026-03-07T12:{m:02d}:00-0500",
    "milliseconds": "2026-03-07T17:{m:02d}:00.000Z",
    "microseconds": "2026-03-07T12:{m:02d}:00.123456-05:00",
    "nanoseconds": "2026-03-07T12:{m:02d}:00.123456789-05:00",
    "a space for the T": "2026-03-07 12:{m:02d}:00-05:00",
    "town time": "2026-03-07T12:{m:02d}:00",
    "town time without seconds": "2026-03-07 12:{m:02d}",
}


def _lines(n: int, start: str = "2026-03-07T12:00:00", offset: str = "-05:00") -> list[str]:
    at = datetime.fromisoformat(start)
    return [
        f"{(at + timedelta(minutes=i)).isoformat()}{offset},{10 + i % 7}.{i % 100:02d}"
        for i in range(n)
    ]


def _write(folder: Path, lines: list[str], header: str = "timestamp,value") -> Path:
    path = folder / "r.csv"
    path.write_text("\n".join([header, *lines]) + "\n")
    return path


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("metered", [False, True])
def test_every_shape_is_taken(shape: str, metered: bool, tmp_path: Path) -> None:
    """Each shape a historian writes, with a meter column or without, gaps included."""
    lines = []
    for m in range(60):
        value = "NA" if m == 7 else "" if m == 8 else f"{19 + m % 5}.{m % 3}5"
        stamp = SHAPES[shape].format(m=m)
        lines.append(
            f"{'FM-1' if m % 2 else 'FM-2'},{stamp},{value}" if metered else f"{stamp},{value}"
        )
    path = _write(tmp_path, lines, "meter,timestamp,value" if metered else "timestamp,value")
    taken = HistorianFile.open(path, ReadOptions())
    assert taken is not None
    fast = list(taken.series())
    assert [len(s) for s in fast] == ([29, 29] if metered else [58])
    assert sum(s.missing for s in fast) == 2
    _same(fast, _general(path))


DECLINED = {
    "a space after the comma": (5, "2026-03-07T12:05:00-05:00, 11.5"),
    "an impossible date": (5, "2026-02-30T12:05:00-05:00,11.5"),
    "hour 24": (5, "2026-03-07T24:00:00-05:00,11.5"),
    "second 60": (5, "2026-03-07T12:04:60-05:00,11.5"),
    "an offset beyond 14 hours": (5, "2026-03-07T12:05:00+15:00,11.5"),
    "an offset of hours only": (5, "2026-03-07T12:05:00-05,11.5"),
    "a lower-case z": (5, "2026-03-07T17:05:00z,11.5"),
    "ten digits of a fraction": (5, "2026-03-07T12:05:00.1234567891-05:00,11.5"),
    "a point and no fraction": (5, "2026-03-07T12:05:00.-05:00,11.5"),
    "a date alone": (5, "2026-03-07,11.5"),
    "one digit of the hour": (5, "2026-03-07T1:05:00-05:00,11.5"),
    "an exponent": (5, "2026-03-07T12:05:00-05:00,1.15e1"),
    "inf": (5, "2026-03-07T12:05:00-05:00,inf"),
    "no digit before the point": (5, "2026-03-07T12:05:00-05:00,.5"),
    "no digit after the point": (5, "2026-03-07T12:05:00-05:00,5."),
    "a plus sign": (5, "2026-03-07T12:05:00-05:00,+5"),
    "nineteen digits": (5, "2026-03-07T12:05:00-05:00,1234567890.123456789"),
    "a quoted value": (5, '2026-03-07T12:05:00-05:00,"11.5"'),
    "a third column": (5, "2026-03-07T12:05:00-05:00,11.5,x"),
    "a missing time": (5, ",11.5"),
    "the same time twice": (5, "2026-03-07T12:04:00-05:00,11.5"),
    "a blank line": (5, ""),
    "a bad line at the end": (39_999, "2026-03-07T12:05:00-05:00,abc"),
    "a year before 1900": (5, "1899-03-07T12:05:00-05:00,11.5"),
    "a town time among times with offsets": (5, "2026-03-07T12:05:00,11.5"),
    "a town time the clocks skipped": (5, "2026-03-08T02:30:00,11.5"),
    "a town time the clocks repeated": (5, "2026-11-01T01:30:00,11.5"),
    "a town time after 2099": (5, "2100-03-07T12:05:00,11.5"),
    "a town time far from the file's first and last": (5, "2029-03-07T12:05:00,11.5"),
}


#: The cases above that stand in a file of town times (the others: times with offsets).
TOWN_CASES = {
    "a town time the clocks skipped",
    "a town time the clocks repeated",
    "a town time after 2099",
    "a town time far from the file's first and last",
}


@pytest.mark.parametrize("case", sorted(DECLINED))
def test_the_reader_declines_every_other_line(case: str, tmp_path: Path) -> None:
    """Any other line, wherever it stands (the last case is in the second thread's half of a
    file long enough to be read on two), sends the whole file to the general reader."""
    at, line = DECLINED[case]
    town = case in TOWN_CASES
    lines = _lines(40_000 if at > 100 else 10, offset="" if town else "-05:00")
    lines[at] = line
    path = _write(tmp_path, lines)
    assert HistorianFile.open(path, ReadOptions()) is None
    assert isinstance(open_readings(path, ReadOptions()), Readings)


@pytest.mark.parametrize(
    "header",
    [
        "timestamp,value,parameter",
        "timestamp,value,unit",
        "timestamp,value,Value",
        '"timestamp",value',
        "timestamp,,value",
        "\ufefftimestamp,value",
        "time,value",
    ],
)
def test_columns_the_reader_leaves_to_the_general_reader(header: str, tmp_path: Path) -> None:
    """A parameter or a unit column, a name twice, a quote, an empty name, a byte-order mark,
    no timestamp column."""
    columns = len(header.split(","))
    lines = [x + ",flow" * (columns - 2) for x in _lines(5)]
    path = tmp_path / "r.csv"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    assert HistorianFile.open(path, ReadOptions()) is None


@pytest.mark.parametrize(
    "line", ["2026-03-07T12:05:00-05:00,11.5", "2026-03-07T17:05Z,11.5", "2026-03-07T12:05,11.5"]
)
def test_times_with_and_without_offsets_in_one_file(line: str, tmp_path: Path) -> None:
    """Town times and a time with its offset, or the other way round: both readers read both."""
    for offset in ("", "-05:00"):
        lines = _lines(10, offset=offset)
        lines[5] = line
        path = _write(tmp_path, lines)
        taken = _check(path.read_bytes(), False)
        town_line = not line.endswith(("-05:00,11.5", "Z,11.5"))
        # a town time among times with offsets: no table of the zone is built for the file
        assert taken or (offset == "-05:00" and town_line)


def test_values_beyond_64_bits_at_the_meter_s_scale_go_to_the_general_reader(
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


def test_each_meter_has_its_own_scale(tmp_path: Path) -> None:
    """One meter's value of 18 digits and another's of ten places: each series is scaled by
    its own values, as the general reader scales them."""
    lines = [
        f"{'A' if i % 2 else 'B'},{x.split(',')[0]},{'123456789012345678' if i % 2 else '0.0000000001'}"
        for i, x in enumerate(_lines(6))
    ]
    path = _write(tmp_path, lines, "meter,timestamp,value")
    taken = HistorianFile.open(path, ReadOptions())
    assert taken is not None
    fast = list(taken.series())
    assert [(s.meter, s.scale) for s in fast] == [("A", 0), ("B", 10)]
    _same(fast, _general(path))


# --- the general reader's sample of layouts -------------------------------------------------


def test_a_layout_after_the_general_reader_s_sample_is_declined(tmp_path: Path) -> None:
    """The general reader takes its time layouts from the first 1,000 rows it does not read on
    its own shortcut: a later row in another layout is a row error there, so declined here;
    the same row within the sample is read by both."""
    lines = [f"{x.split('-05:00')[0]}Z,1.5" for x in _lines(1_200)]
    for at, taken in ((1_100, False), (900, True)):
        changed = list(lines)
        changed[at] = changed[at].replace(":00Z", "Z")  # the same instant, without seconds
        path = _write(tmp_path, changed)
        assert (HistorianFile.open(path, ReadOptions()) is not None) is taken
        if not taken:
            source = Readings(path, ReadOptions())
            list(source.series())
            assert source.errors_total == 1
        else:
            _check(path.read_bytes(), True)


def test_rows_on_the_general_reader_s_shortcut_are_not_in_its_sample(tmp_path: Path) -> None:
    """2,000 rows in the historians' layout and, after them, rows written with ``Z``: the
    general reader samples only these, so a row of a third layout among the first 1,000 of
    them is read, and after them is a row error."""
    head = _lines(2_000)
    tail = [f"{x.split('-05:00')[0]}Z,1.5" for x in _lines(1_200, "2026-03-10T00:00:00")]
    for at, taken in ((1_100, False), (500, True)):
        changed = list(tail)
        changed[at] = changed[at].replace(":00Z", "Z")
        path = _write(tmp_path, head + changed)
        assert (HistorianFile.open(path, ReadOptions()) is not None) is taken
        if taken:
            _check(path.read_bytes(), True)


def test_a_year_the_general_reader_s_shortcut_does_not_sample_is_declined(
    tmp_path: Path,
) -> None:
    """The general reader's own shortcut reads 25-byte times within the years it samples (the
    first and last such rows' and between); a row of another year joins its sample of
    layouts, which could then push a layout out of it: such a file is declined."""
    lines = _lines(30) + [f"{x.split('-05:00')[0]}Z,1.5" for x in _lines(5, "2026-03-09T00:00:00")]
    lines[10] = "1990-03-07T12:10:00-05:00,1.5"
    path = _write(tmp_path, lines)
    assert HistorianFile.open(path, ReadOptions()) is None
    lines[10] = "2027-03-07T12:10:00-05:00,1.5"  # within a year of the last: sampled
    path = _write(tmp_path, lines)
    _check(path.read_bytes(), True)


# --- files read on two threads ----------------------------------------------------------------


def _big_file(seed: int, metered: bool) -> bytes:
    """About 1.5 MB of one-minute readings in a random shape: missing values, rows out of
    order, meters interleaved or in blocks."""
    rng = random.Random(seed)
    layout = rng.choice(["%Y-%m-%dT%H:%M:%S{z}", "%Y-%m-%dT%H:%M{z}", "%Y-%m-%d %H:%M:%S.%f{z}"])
    zone = rng.choice(["Z", "+05:30", ""])
    start = clock(2026, 3, 1) if zone else clock(2026, 3, 20)
    rows = []
    n = 50_000
    for i in range(n):
        at = start + timedelta(minutes=i // (2 if metered else 1))
        text = at.strftime(layout.replace("{z}", zone))
        value = "" if rng.random() < 0.01 else f"{rng.randrange(10**6) / 100}"
        meter = (f"M{i % 2}" if rng.random() < 0.5 else "M0") if metered else None
        rows.append((meter, text, value))
    if metered:  # one meter's minutes once each
        once = {(r[0], r[1]): r for r in reversed(rows)}
        rows = [r for r in rows if once[(r[0], r[1])] is r]
    for _ in range(20):
        i = rng.randrange(len(rows) - 1)
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
    header = "meter,timestamp,value" if metered else "timestamp,value"
    lines = [",".join(x for x in r if x is not None) for r in rows]
    return ("\n".join([header, *lines]) + "\n").encode()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("metered", [False, True])
def test_two_threads_read_as_the_general_reader(
    seed: int, metered: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "cpus", lambda: 2)
    assert _check(_big_file(seed, metered), True)


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
    _same(list(taken.series()), _general(path))


def test_what_is_asked_decides_whether_the_reader_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parameter asked for, a file larger than the memory budget, a Parquet file, or
    ``SEWER_USE_NATIVE=0``: the general reader. A meter asked for: that meter's series."""
    path = _write(tmp_path, _lines(20))
    assert HistorianFile.open(path, ReadOptions()) is not None
    asked = HistorianFile.open(path, ReadOptions(meter="default"))
    assert asked is not None and [s.meter for s in asked.series()] == ["default"]
    other = HistorianFile.open(path, ReadOptions(meter="FM-9"))
    assert other is not None and list(other.series()) == []
    assert HistorianFile.open(path, ReadOptions(parameter="flow")) is None
    assert HistorianFile.open(path, ReadOptions(memory_budget=100)) is None
    parquet = tmp_path / "r.parquet"
    parquet.write_bytes(path.read_bytes())
    assert HistorianFile.open(parquet, ReadOptions()) is None
    assert HistorianFile.open(tmp_path / "missing.csv", ReadOptions()) is None
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    assert HistorianFile.open(path, ReadOptions()) is None


# --- the zone's table -------------------------------------------------------------------------


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["America/New_York", "America/St_Johns", "Australia/Lord_Howe", "UTC"]),
    st.integers(1970, 2099),
    st.integers(0, 365 * 86_400 * 4),
    st.sampled_from([1, 60, 1_800]),
)
def test_town_time_is_read_on_the_zone_s_clocks(
    timezone: str, year: int, into: int, step: int
) -> None:
    """Naive times every ``step`` seconds for a while from a moment of a year (at the clock
    changes, often): the compiled reader's instants are the general reader's, and a time the
    clocks skipped or repeated is declined."""
    begin = clock(year, 1, 1) + timedelta(seconds=(into // step) * step)
    lines = []
    for i in range(150):
        at = begin + timedelta(seconds=i * step * 37)
        lines.append(f"{at.isoformat()},{i}")
    data = ("\n".join(["timestamp,value", *lines]) + "\n").encode()
    options = ReadOptions(timezone=timezone)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.csv"
        path.write_bytes(data)
        taken = HistorianFile.open(path, options)
        source = Readings(path, options)
        try:
            general = list(source.series())
        except ReadingsError:
            general = None  # two town times on one instant
        if taken is None:
            # or a time beyond the years read here (NAIVE_YEARS, counted from UTC midnight)
            beyond = lines[0] < "1970-01-02" or lines[-1] >= "2099-12-31"
            assert general is None or source.errors_total > 0 or beyond
        else:
            assert general is not None and source.errors_total == 0
            _same(list(taken.series()), general)


def test_the_zone_s_table_marks_the_changes_of_the_town_s_clocks() -> None:
    edges, offsets = native.zone_spans("America/New_York", 2026, 2026)
    local = [str(EPOCH + timedelta(seconds=int(x))) for x in edges]
    assert local[1:5] == [
        "2026-03-08 02:00:00",
        "2026-03-08 03:00:00",
        "2026-11-01 01:00:00",
        "2026-11-01 02:00:00",
    ]
    gap = np.iinfo(np.int64).min
    assert offsets.tolist() == [-5 * 3600, gap, -4 * 3600, gap, -5 * 3600]


# --- the command ------------------------------------------------------------------------------


def _discharge_file(folder: Path, layout: str = "%Y-%m-%dT%H:%M:%SZ") -> Path:
    """Two days of one-minute flow and a 300-minute discharge at ten times the flow."""
    start = datetime(2026, 3, 6, tzinfo=UTC)
    lines = []
    for i in range(2 * 1440 + 600):
        flow = Decimal("190.95000000000002") if 2 * 1440 <= i < 2 * 1440 + 300 else Decimal(19)
        flow += Decimal(i % 5) / 100
        lines.append(f"{(start + timedelta(minutes=i)).strftime(layout)},{flow}")
    return _write(folder, lines)


@pytest.mark.parametrize(
    "layout", ["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%MZ", "%Y-%m-%d %H:%M:%S.000Z"]
)
def test_the_report_is_the_same_by_either_path(
    layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _discharge_file(tmp_path, layout)
    assert HistorianFile.open(path, ReadOptions()) is not None
    fast = analyse(path).as_dict()
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    general = analyse(path).as_dict()
    assert fast == general
    found = fast["series"]
    assert isinstance(found, list)
    [series] = found
    [slug] = series["slugs"]
    assert slug["duration_minutes"] == 300.0


def test_a_meter_file_is_judged_without_polars_or_pyarrow(tmp_path: Path) -> None:
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
