"""``sewer-use slugs --plot``: a picture of each series an engineer can put in a notice.

Per series, an overview of the whole period — the readings (a min/max envelope when there
are more readings than pixels), the threshold of five times the trailing 24-hour baseline
(flow and concentrations), the law's limit lines (pH 5.5 and 9.5, temperature 150 °F), every
slug and excursion shaded and marked — and below it close-ups of the first findings, drawn as
steps because each reading stands until the next. Drawing only: every decision is made
exactly by :mod:`sewer_engines.monitoring`; the floats here are for the eye.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import BinaryIO
from zoneinfo import ZoneInfo

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt
from matplotlib.axes import Axes
from matplotlib.gridspec import GridSpec

from sewer_engines.monitoring.analysis import Report, SeriesReport
from sewer_engines.monitoring.series import Series
from sewer_engines.monitoring.slugs import baseline_curve
from sewer_rules.monitoring.excursions import LIMITS
from sewer_rules.monitoring.instants import US_PER_MINUTE, local_date, show, value_on
from sewer_rules.monitoring.runs import DEFAULT_MAX_GAP_US
from sewer_rules.parameters import ParameterSet, load_jurisdiction
from sewer_rules.units import convert

MAX_SERIES = 8
MAX_ZOOMS = 4
BINS = 2400
COLOURS = {"slug": "#d62728", "prohibited": "#d62728", "review": "#ff7f0e", "excused": "#7f7f7f"}

Floats = npt.NDArray[np.float64]


def _times(us: npt.NDArray[np.int64]) -> npt.NDArray[np.datetime64]:
    return us.astype("datetime64[us]")


def _floats(series: Series) -> Floats:
    return np.asarray(series.v, dtype=np.float64) / float(10**series.scale)


def _break_gaps(
    t: npt.NDArray[np.int64], y: Floats, max_gap: int
) -> tuple[npt.NDArray[np.int64], Floats]:
    """Insert a NaN after each gap so that lines are not drawn across missing data."""
    gaps = np.flatnonzero(np.diff(t) > max_gap)
    if gaps.size == 0:
        return t, y
    return np.insert(t, gaps + 1, t[gaps] + 1), np.insert(y, gaps + 1, np.nan)


def _envelope(t: npt.NDArray[np.int64], y: Floats) -> tuple[Floats, Floats, Floats]:
    """Per time bin: centre, min and max (NaN for empty bins, which breaks the band)."""
    edges = np.linspace(float(t[0]), float(t[-1]) + 1, BINS + 1)
    idx = np.searchsorted(t, edges[:-1], side="left")
    stop = np.searchsorted(t, edges[1:], side="left")
    full = stop > idx
    lo = np.full(BINS, np.nan)
    hi = np.full(BINS, np.nan)
    starts = idx[full]
    finite = np.where(np.isnan(y), np.inf, y)
    lo[full] = np.minimum.reduceat(finite, starts)[: starts.size]
    finite = np.where(np.isnan(y), -np.inf, y)
    hi[full] = np.maximum.reduceat(finite, starts)[: starts.size]
    # reduceat runs to the next start, which is where this bin's readings stop
    centre = (edges[:-1] + edges[1:]) / 2
    return centre, lo, hi


def _limits(sr: SeriesReport, params: ParameterSet, on: date) -> list[tuple[float, str]]:
    out = []
    for limit in LIMITS.get(sr.parameter, ()):
        value = value_on(params, limit.parameter, on)
        if value is None:
            continue
        x = convert(value, params.parameter(limit.parameter).unit, sr.unit)
        word = "prohibited below" if not limit.above else f"{limit.status} above"
        out.append((float(x), f"{word} {float(x):g} {sr.unit} ({limit.citation})"))
    return out


def _findings(sr: SeriesReport) -> list[tuple[int, int, str, str]]:
    """(start, end, colour key, label) of each slug and excursion."""
    out = []
    for s in sr.slugs:
        out.append(
            (
                s.start,
                s.end,
                "slug",
                f"slug {s.duration / US_PER_MINUTE:g} min, peak {show(s.peak)} {sr.unit}",
            )
        )
    for e in sr.excursions:
        key = "excused" if e.excused else str(e.status)
        out.append(
            (
                e.start,
                e.end,
                key,
                f"{e.status} {e.duration / US_PER_MINUTE:g} min, {show(e.extreme)} {sr.unit}",
            )
        )
    out.sort()
    return out


def _threshold(
    sr: SeriesReport, series: Series, params: ParameterSet, on: date
) -> tuple[Floats | None, str]:
    if not sr.slugs and sr.baseline is None:
        return None, ""
    multiple = value_on(params, "slug.multiple", on)
    if multiple is None or sr.baseline is None:
        return None, ""
    m = float(multiple)
    if sr.baseline.fixed is not None:
        fixed = float(Fraction(sr.baseline.fixed))
        return np.full(len(series), m * fixed), f"{m:g} × fixed baseline (§ 196-15 SLUG)"
    hours = sr.window_us / (60 * US_PER_MINUTE)
    return m * baseline_curve(
        series, sr.window_us, sr.normal
    ), f"{m:g} × trailing {hours:g}-h mean of normal operation (§ 196-15 SLUG)"


def _axis_dates(ax: Axes, tz: ZoneInfo) -> None:
    # matplotlib.dates' locator and formatter constructors carry no annotations
    locator = mdates.AutoDateLocator(tz=tz)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    formatter = mdates.ConciseDateFormatter(locator, tz=tz)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_formatter(formatter)


def _shade(ax: Axes, findings: list[tuple[int, int, str, str]], marks: bool) -> None:
    seen: set[str] = set()
    for start, end, key, _ in findings:
        label = None
        if key not in seen:
            seen.add(key)
            label = {
                "slug": "slug",
                "prohibited": "excursion, prohibited",
                "review": "excursion, review",
                "excused": "excursion, excused (40 CFR 401.17)",
            }[key]
        ax.axvspan(
            _times(np.array([start]))[0],
            _times(np.array([end]))[0],
            color=COLOURS[key],
            alpha=0.25,
            lw=0,
            label=label,
        )
        if marks:
            mid = _times(np.array([(start + end) // 2]))[0]
            ax.plot(
                [mid],
                [1.0],
                marker="v",
                color=COLOURS[key],
                ms=9,
                transform=ax.get_xaxis_transform(),
                clip_on=False,
                ls="none",
            )


def plot_report(
    report: Report,
    path: str | BinaryIO,
    jurisdiction: str,
    max_gap: int | None = None,
    fmt: str | None = None,
) -> None:
    """Draw each kept series of ``report`` to ``path`` (.png or .svg), its line broken at the
    gaps that end a run (the series' maximum gap as judged; ``max_gap`` for a series judged
    without one).

    ``path`` is a file name (the format taken from its suffix) or a binary stream, for which
    ``fmt`` ("png" or "svg") names the format — the office draws into memory that way.
    """
    params = load_jurisdiction(jurisdiction)
    tz = ZoneInfo(report.timezone)
    chosen = [s for s in report.series if s.data is not None and s.readings > 0]
    left_out = max(0, len(chosen) - MAX_SERIES)
    chosen = chosen[:MAX_SERIES]
    if not chosen:
        fig = plt.figure(figsize=(8, 2))
        fig.text(0.5, 0.5, f"No readings to draw in {report.source}", ha="center", va="center")
        fig.savefig(path, format=fmt)
        plt.close(fig)
        return
    rows: list[tuple[SeriesReport, bool]] = []
    for sr in chosen:
        rows.append((sr, False))
        if _findings(sr):
            rows.append((sr, True))
    heights = [2.0 if zoom else 3.2 for _, zoom in rows]
    fig = plt.figure(figsize=(13, sum(heights) + 0.9), layout="constrained")
    grid = GridSpec(len(rows), MAX_ZOOMS, figure=fig, height_ratios=heights)
    for r, (sr, zoom) in enumerate(rows):
        series = sr.data
        assert series is not None
        on = local_date(sr.last, report.timezone)
        gap = sr.max_gap_us or max_gap or DEFAULT_MAX_GAP_US
        if zoom:
            found = _findings(sr)
            for k, finding in enumerate(found[:MAX_ZOOMS]):
                _zoom(fig.add_subplot(grid[r, k]), sr, series, params, on, finding, tz, gap)
            continue
        _overview(fig.add_subplot(grid[r, :]), sr, series, params, on, tz, gap, report.timezone)
    title = (
        "Continuous monitoring — slugs (§ 196-15 SLUG) and excursions (§ 196-19 C(3), D(1), D(8))"
    )
    if left_out:
        title += f" — {left_out} more series not drawn (choose with --meter/--parameter)"
    fig.suptitle(title, fontsize=11)
    fig.savefig(path, dpi=100, format=fmt)
    plt.close(fig)


def _overview(
    ax: Axes,
    sr: SeriesReport,
    series: Series,
    params: ParameterSet,
    on: date,
    tz: ZoneInfo,
    max_gap: int,
    tzname: str,
) -> None:
    y = _floats(series)
    t = series.t
    if len(series) > 2 * BINS:
        centre, lo, hi = _envelope(t, y)
        x = centre.astype(np.int64).astype("datetime64[us]")
        ax.fill_between(x, lo, hi, color="#1f77b4", alpha=0.8, lw=0.4, label="readings (min–max)")
    else:
        tt, yy = _break_gaps(t, y, max_gap)
        ax.plot(_times(tt), yy, lw=0.8, color="#1f77b4", label="readings")
    thr, label = _threshold(sr, series, params, on)
    if thr is not None:
        if len(series) > 2 * BINS:
            step = max(1, len(series) // (2 * BINS))
            tt, yy = _break_gaps(t[::step], thr[::step], max(max_gap, step * sr.interval_us))
        else:
            tt, yy = _break_gaps(t, thr, max_gap)
        ax.plot(_times(tt), yy, lw=1.0, ls="--", color="#d62728", label=label)
    for value, text in _limits(sr, params, on):
        ax.axhline(value, color="#9467bd", lw=1.0, ls=":", label=text)
    _shade(ax, _findings(sr), marks=True)
    _axis_dates(ax, tz)
    first = local_date(sr.first, tzname).isoformat()
    last = local_date(sr.last, tzname).isoformat()
    ax.set_title(
        f"Meter {sr.meter} — {series.analyte.label} ({sr.unit}) — {first} to {last}, {tzname} — "
        f"{len(sr.slugs)} slug(s), {len(sr.excursions)} excursion(s)",
        fontsize=10,
        loc="left",
    )
    ax.set_ylabel(sr.unit)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=7, ncols=3, framealpha=0.85)


def _zoom(
    ax: Axes,
    sr: SeriesReport,
    series: Series,
    params: ParameterSet,
    on: date,
    finding: tuple[int, int, str, str],
    tz: ZoneInfo,
    max_gap: int,
) -> None:
    start, end, key, label = finding
    pad = max(30 * US_PER_MINUTE, end - start)
    a = int(np.searchsorted(series.t, start - pad, side="left"))
    b = int(np.searchsorted(series.t, end + pad, side="right"))
    t = series.t[a:b]
    y = _floats(series)[a:b]
    tt, yy = _break_gaps(t, y, max_gap)
    ax.plot(_times(tt), yy, drawstyle="steps-post", lw=1.0, color="#1f77b4")
    thr, _ = _threshold(sr, series, params, on)
    if thr is not None:
        tt, yy = _break_gaps(t, thr[a:b], max_gap)
        ax.plot(_times(tt), yy, drawstyle="steps-post", lw=1.0, ls="--", color="#d62728")
    for value, _text in _limits(sr, params, on):
        ax.axhline(value, color="#9467bd", lw=1.0, ls=":")
    _shade(ax, [finding], marks=False)
    _axis_dates(ax, tz)
    ax.tick_params(labelsize=7)
    ax.set_title(label, fontsize=8, color=COLOURS[key])
    ax.grid(alpha=0.3)


__all__ = ["plot_report"]
