"""The compiled loops of :mod:`sewer_native`, where they are built, as shortcuts of two steps.

Two steps of ``sewer-use slugs`` (and of the office's readings upload) cost more in numpy and
polars than a user should wait for on a file of millions of readings:

- **reading a historian's export** — ``timestamp,value``, every time ``YYYY-MM-DDTHH:MM:SS±HH:MM``
  and every value a plain decimal, times strictly increasing — into instants and exact scaled
  values (:func:`historian_series`);
- **judging readings against the mean of the normal-operation readings before them**
  (§ 196-15 SLUG as INTERPRETATIONS.md reads it), which is sequential: a reading's status
  depends on the statuses before it (:func:`normal_judgement`).

Each is a shortcut, never a second reading of the law or of a file. The reader takes only the
files the general reader (:mod:`.readings`) reads without a remark — at the first line of any
other kind it gives up and the general reader reads the whole file, with its row errors — and
gives the series the general reader gives (meter ``default``, parameter ``flow``, its canonical
unit, the values at the fewest places they need). The judgement is the sequential reading of
the rule, the same one :mod:`.normal` reaches by whole vectorised passes; what is judged and
counted is decided here, by the same dated rules (:class:`.kernel.WindowRule`). The tests
compare both with the numpy and polars paths and with the one-reading-at-a-time reference.

Where the module is not built (no C compiler when the project was installed), or when
``SEWER_USE_NATIVE=0`` is set, both return None and the numpy and polars paths run: the same
results, slower.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

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

HEADER = b"timestamp,value"
#: The shortest line the reader takes: 25 characters of time, a comma, a digit, a newline.
SHORTEST_LINE = 28
#: Limits of the 128-bit arithmetic: ``q × count × value`` and ``p × sum`` stay below 2**127.
_MOST_READINGS = 1 << 31
_MOST_FACTOR = 1 << 31


def available() -> bool:
    """Whether the compiled loops run (built, and not turned off by ``SEWER_USE_NATIVE=0``)."""
    return BUILT and os.environ.get("SEWER_USE_NATIVE", "1") != "0"


def is_historian_header(line: bytes) -> bool:
    """Whether a file's first line is the two columns the reader takes, as written."""
    return line.strip().lower() == HEADER


def historian_series(data: bytes) -> Series | None:
    """The file ``data`` (header included) as the series the general reader would give, or
    None when the module is not available or the file is not wholly a historian's export."""
    if not available():
        return None
    first = data.find(b"\n")
    if first < 0 or not is_historian_header(data[:first]):
        return None
    capacity = (len(data) - first) // SHORTEST_LINE + 2
    # untouched memory costs nothing: the arrays are as long as the shortest lines allow
    t = np.empty(capacity, dtype=np.int64)
    v = np.empty(capacity, dtype=np.int64)
    places = np.empty(capacity, dtype=np.uint8)
    got = _kernels.historian(data, first + 1, t, v, places, cpus())
    if got is None:
        return None
    rows, scale = got  # the fewest places the values need (as fewest_places gives)
    unit = BY_NAME[DEFAULT_PARAMETER].canonical_unit
    numbers = np.arange(2, rows + 2, dtype=np.int64)  # the header is row 1
    return Series(DEFAULT_METER, DEFAULT_PARAMETER, unit, t[:rows], v[:rows], scale, numbers)


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
