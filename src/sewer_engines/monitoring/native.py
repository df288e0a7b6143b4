"""The compiled loops of :mod:`sewer_native`, where they are built, as shortcuts of two steps.

Two steps of ``sewer-use slugs`` (and of the office's readings upload) cost more in numpy and
polars than a user should wait for on a file of millions of readings:

- **reading a meter file's CSV** — ``timestamp,value`` or ``meter,timestamp,value`` (in any
  order), every time ISO 8601 in any layout the general reader takes (``Z``, ``±HH:MM`` or
  ``±HHMM``, or none: town time; with or without seconds and their fractions; ``T`` or a
  space), every value a plain decimal or missing — into instants and exact scaled values,
  one series a meter (:func:`historian_series`);
- **judging readings against the mean of the normal-operation readings before them**
  (§ 196-15 SLUG as docs/interpretations.md reads it), which is sequential: a reading's status
  depends on the statuses before it (:func:`normal_judgement`).

Each is a shortcut, never a second reading of the law or of a file. The reader takes only the
files the general reader (:mod:`.readings`) reads without a remark — at the first line of any
other kind it gives up and the general reader reads the whole file, with its row errors — and
gives the series the general reader gives (each meter, or ``default``; parameter ``flow``, its
canonical unit; the values at the fewest places they need; the readings in time order; the
missing values counted). Naive times are read on the town's clocks by a table of its
zone's offsets taken from the zone database for the years the file spans (:func:`zone_spans`):
a time the clocks skipped or repeated is a row error of the general reader, declined here. The judgement is the sequential reading of
the rule, the same one :mod:`.normal` reaches by whole vectorised passes; what is judged and
counted is decided here, by the same dated rules (:class:`.kernel.WindowRule`). The tests
compare both with the numpy and polars paths and with the one-reading-at-a-time reference.

Where the module is not built (no C compiler when the project was installed), or when
``SEWER_USE_NATIVE=0`` is set, both return None and the numpy and polars paths run: the same
results, slower.
"""

from __future__ import annotations

import functools
import itertools
import mmap
import os
import re
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import numpy.typing as npt

from sewer_rules.analytes import BY_NAME
from sewer_rules.machine import cpus

from .kernel import Judgement, WindowRule
from .series import DEFAULT_METER, DEFAULT_PARAMETER, EMPTY, I64, Series

try:
    from sewer_native import _kernels

    BUILT = True
except ImportError:  # installed without a C compiler: the numpy and polars paths run
    BUILT = False

#: The columns the reader takes; a parameter or a unit column is the general reader's.
COLUMNS = ("timestamp", "value", "meter")
#: The shortest line the reader takes: ``2026-03-08T03:00,`` (a missing value) and a newline.
SHORTEST_LINE = 18
#: At most this many columns (the C reader's limit), the others passed over.
_MOST_COLUMNS = 32
#: The years of naive times read here: those in which the general reader's zone rules and
#: Python's zone database agree (the tests compare them); other years are the general reader's.
NAIVE_YEARS = (1970, 2099)
#: What the C reader writes for a span of local time the clocks skipped or repeated.
_GAP = np.iinfo(np.int64).min
_AWARE = re.compile(rb"(Z|[+-]\d\d:?\d\d)$")
#: Limits of the 128-bit arithmetic: ``q × count × value`` and ``p × sum`` stay below 2**127.
_MOST_READINGS = 1 << 31
_MOST_FACTOR = 1 << 31


def available() -> bool:
    """Whether the compiled loops run (built, and not turned off by ``SEWER_USE_NATIVE=0``)."""
    return BUILT and os.environ.get("SEWER_USE_NATIVE", "1") != "0"


def historian_columns(line: bytes) -> tuple[int, int, int, int] | None:
    """``(count, time, value, meter)`` for a file's first line when the reader takes its
    columns (meter -1: none), else None. The names are matched as the general reader
    matches them (case and surrounding spaces aside); a name twice, a quote, an empty name or
    a parameter or unit column: None."""
    line = line.removesuffix(b"\r")
    if not line or any(c < 0x20 or c > 0x7E or c == 0x22 for c in line):
        return None
    names = [name.strip(b" ").lower().decode("ascii") for name in line.split(b",")]
    if len(names) > _MOST_COLUMNS or "" in names or len(set(names)) < len(names):
        return None
    if "parameter" in names or "unit" in names:
        return None
    if "timestamp" not in names or "value" not in names:
        return None
    meter = names.index("meter") if "meter" in names else -1
    return len(names), names.index("timestamp"), names.index("value"), meter


def _field(line: bytes, column: int) -> bytes:
    fields = line.rstrip(b"\r").split(b",")
    return fields[column] if column < len(fields) else b""


def _naive_years(data: bytes | mmap.mmap, start: int, column: int) -> tuple[int, int] | None:
    """The years of the first and last lines' times when either is naive (town time), else
    None: the zone's table is built only for a file that needs it, over the years it spans."""
    # by offsets into ``data``, never a slice of it (a copy of the whole file)
    stop = data.find(b"\n", start)
    first = data[start : len(data) if stop < 0 else stop]
    end = len(data)
    while end > start and data[end - 1] in b"\r\n":
        end -= 1
    newline = data.rfind(b"\n", start, end)
    last = data[newline + 1 if newline >= 0 else start : end]
    times = [_field(first, column), _field(last, column)]
    if all(_AWARE.search(x) for x in times):
        return None
    years = [int(x[:4]) for x in times if x[:4].isdigit()]
    return (min(years), max(years)) if years else None


@functools.cache
def zone_spans(name: str, low: int, high: int) -> tuple[I64, I64]:
    """The local time of the zone ``name`` from ``low`` to ``high`` (years, within
    :data:`NAIVE_YEARS`) as spans: ``edges`` (local seconds since 1970, ascending) and the
    UTC offset of each span in seconds, or :data:`_GAP` where the clocks skipped or repeated
    that time (a naive time there is a row error of the general reader). Found by stepping a
    day at a time through the zone database and bisecting each change to its second."""
    low, high = max(low, NAIVE_YEARS[0]), min(high, NAIVE_YEARS[1])
    if low > high:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    where = ZoneInfo(name)

    def offset(u: int) -> int:
        shift = datetime.fromtimestamp(u, where).utcoffset()
        return 0 if shift is None else int(shift.total_seconds())

    begin = int(datetime(low, 1, 1, tzinfo=UTC).timestamp())
    stop = int(datetime(high + 1, 1, 1, tzinfo=UTC).timestamp())
    now = offset(begin)
    edges, offsets = [begin + now], []
    u = begin
    while u < stop:
        step = min(u + 86_400, stop)
        if offset(step) == now:
            u = step
            continue
        lo, hi = u, step  # offset(lo) == now != offset(hi): the change is at hi, bisected
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if offset(mid) == now else (lo, mid)
        after = offset(hi)
        # local times [hi + min, hi + max) were skipped (forward) or repeated (back)
        a, b = hi + min(now, after), hi + max(now, after)
        for edge, value in ((a, now), (b, int(_GAP))):
            if edge > edges[-1]:
                edges.append(edge)
                offsets.append(value)
            elif (value == _GAP or edge < edges[-1]) and offsets:
                offsets[-1] = int(_GAP)  # two changes within hours: declined, not guessed
        now, u = after, hi
    if stop + now > edges[-1]:
        edges.append(stop + now)
        offsets.append(now)
    return np.array(edges, dtype=np.int64), np.array(offsets, dtype=np.int64)


def historian_series(data: bytes | mmap.mmap, timezone: str) -> list[Series] | None:
    """The file ``data`` (header included; its bytes, or the file mapped) as the series the general reader would give
    (sorted by meter), or None when the module is not available or a line is not one the
    reader takes as the general reader would (the general reader then reads it, with its
    row errors). ``timezone``: the zone of naive times (the jurisdiction's)."""
    if not available():
        return None
    first = data.find(b"\n")
    columns = historian_columns(data[:first]) if first >= 0 else None
    if columns is None:
        return None
    years = _naive_years(data, first + 1, columns[1])
    edges, offsets = (
        zone_spans(timezone, years[0] - 1, years[1] + 1)
        if years
        else (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    )
    capacity = (len(data) - first) // SHORTEST_LINE + 2
    # untouched memory costs nothing: the arrays are as long as the shortest lines allow
    t = np.empty(capacity, dtype=np.int64)
    v = np.empty(capacity, dtype=np.int64)
    rows = np.empty(capacity, dtype=np.int64)
    places = np.empty(capacity, dtype=np.uint8)
    meters = np.empty(capacity, dtype=np.uint16)
    got = _kernels.historian(
        data, first + 1, columns, t, v, rows, places, meters, edges, offsets, cpus()
    )
    if got is None:
        return None
    unit = BY_NAME[DEFAULT_PARAMETER].canonical_unit
    found = []
    for name, start, count, scale, missing, ordered in got:
        if count == 0:
            continue  # only missing values: the general reader gives no series either
        at = slice(start, start + count)
        times, values, numbers = t[at], v[at], rows[at]
        if not ordered:  # the general reader sorts by time (stable: no two alike here)
            order = np.argsort(times, kind="stable")
            times, values, numbers = times[order], values[order], numbers[order]
            if bool((times[1:] == times[:-1]).any()):
                return None  # two readings at one instant: the general reader's to report
        meter = name.decode("ascii") if columns[3] >= 0 else DEFAULT_METER
        found.append(Series(meter, DEFAULT_PARAMETER, unit, times, values, scale, numbers, missing))
    return found


def normal_judgement(t: I64, v: npt.NDArray[Any], rules: list[WindowRule]) -> Judgement | None:
    """The readings exceeding ``p/q`` times the mean of the normal-operation readings of the
    window before them (or, where it holds none, the mean carried from the window ending with
    the last one), judged one by one in order (:mod:`.normal`'s module docstring), with the
    readings judged, not judged (less than a window of history, no rule in force) and judged
    on a carried mean counted; None when the module is not available or the values are beyond its arithmetic
    (Python integers, or more readings or larger factors than its 128 bits allow)."""
    if not available():
        return None
    n = int(t.shape[0])
    if v.dtype != np.int64 or n >= _MOST_READINGS:
        return None
    ordered = sorted(rules, key=lambda r: r.start)
    if any(a.stop > b.start for a, b in itertools.pairwise(ordered)):
        return None  # rules overlap: not a partition of the series
    if any(not 0 <= r.p < _MOST_FACTOR or not 0 < r.q < _MOST_FACTOR for r in ordered):
        return None
    starts = np.array([r.start for r in ordered], dtype=np.int64)
    stops = np.array([r.stop for r in ordered], dtype=np.int64)
    windows = np.array([r.window for r in ordered], dtype=np.int64)
    ps = np.array([r.p for r in ordered], dtype=np.int64)
    qs = np.array([r.q for r in ordered], dtype=np.int64)
    live = np.array([r.in_force and r.window > 0 for r in ordered], dtype=np.uint8)
    normal = np.empty(n, dtype=np.uint8)
    tt = np.ascontiguousarray(t, dtype=np.int64)
    vv = np.ascontiguousarray(v)
    judged, unjudged, carried = _kernels.trailing_normal(
        tt, vv, starts, stops, windows, ps, qs, live, normal
    )
    hits = np.flatnonzero(normal == 0).astype(np.int64)
    if hits.size == 0:
        return Judgement(EMPTY, judged, unjudged, passes=1, carried=carried)
    return Judgement(
        hits, judged, unjudged, normal=normal.view(np.bool_), passes=1, carried=carried
    )
