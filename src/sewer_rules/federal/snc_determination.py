"""Significant noncompliance over a period: every facility × parameter × limit, determined.

40 CFR 403.8(f)(2)(viii): "... an Industrial User is in significant noncompliance if its
violation meets one or more of the following criteria" (:mod:`.snc_criteria`). What is computed
here from files: (A) and (B) from the measurements and a facility's numeric limits
(:mod:`.snc_chronic_and_trc`), over the six-month windows of the period (:mod:`.snc_periods`),
and (F) from report due and received dates (:mod:`.snc_late_reports`). (C), (D), (E), (G) and
(H) are determinations of staff, recorded in the office. :func:`determine` is the readable
reference; ``sewer_engines.federal.snc_columnar`` gives its answer for hundreds of thousands of
results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from sewer_rules.parameters import ParameterSet

from .cfr403_snc import EXCLUDED_FROM_TRC, technical_review_criterion
from .snc_chronic_and_trc import (
    MINIMUM_TYPES,
    MONTHLY_TYPES,
    Determination,
    Limit,
    Measurement,
    WindowCount,
    comparer,
    in_window,
    monthly_averages,
)
from .snc_criteria import STAFF_CRITERIA, criterion
from .snc_late_reports import Report, ReportDetermination
from .snc_periods import Window, six_month_windows

ROLLING_WINDOW = "snc.rolling_window"


@dataclass(frozen=True)
class SNCReport:
    period: Window
    rolling: bool
    determinations: tuple[Determination, ...]
    reports: tuple[ReportDetermination, ...] = field(default=())

    @property
    def found(self) -> bool:
        return any(d.snc for d in self.determinations) or any(r.snc for r in self.reports)

    def as_dict(self) -> dict[str, object]:
        return {
            "period": self.period.as_dict(),
            "window": "rolling" if self.rolling else "fixed",
            "determinations": [d.as_dict() for d in self.determinations],
            "reports": [r.as_dict() for r in self.reports],
            "facilities_in_snc": sorted(
                {d.limit.facility for d in self.determinations if d.snc}
                | {r.report.facility for r in self.reports if r.snc}
            ),
            "not_computed": [
                f"{criterion(c)}: determined by staff, recorded in the office"
                for c in STAFF_CRITERIA
            ],
        }


def determine(
    measurements: Sequence[Measurement],
    limits: Sequence[Limit],
    period: Window,
    params: ParameterSet,
    *,
    rolling: bool | None = None,
    reports: Sequence[Report] = (),
    as_of: date | None = None,
) -> SNCReport:
    """(A), (B) per facility × parameter × limit and (F) per report, over ``period``."""
    if rolling is None:
        rolling = bool(params.value(ROLLING_WINDOW, period.end))
    windows = six_month_windows(period, rolling)
    by_series: dict[tuple[str, str], list[Measurement]] = defaultdict(list)
    for m in measurements:
        by_series[(m.facility, m.analyte)].append(m)
    monthly_keys = {
        (lim.facility, lim.analyte) for lim in limits if lim.limit_type in MONTHLY_TYPES
    }
    monthly = {key: monthly_averages(by_series.get(key, [])) for key in monthly_keys}
    # each pool sorted once by day (then rows), with its days for the windows' bisection
    pools: dict[tuple[bool, str, str], tuple[list[Measurement], list[date]]] = {}

    def pool_of(facility: str, analyte: str, month: bool) -> tuple[list[Measurement], list[date]]:
        key = (month, facility, analyte)
        if key not in pools:
            source = (monthly if month else by_series).get((facility, analyte), [])
            ordered = sorted(source, key=lambda m: (m.day, m.rows))
            pools[key] = (ordered, [m.day for m in ordered])
        return pools[key]

    series: dict[tuple[str, str, str], list[Limit]] = defaultdict(list)
    for lim in limits:
        series[(lim.facility, lim.analyte, lim.limit_type)].append(lim)
    determinations = []
    for (facility, analyte, limit_type), versions in sorted(series.items()):
        pool, days = pool_of(facility, analyte, limit_type in MONTHLY_TYPES)
        for lim in sorted(versions, key=lambda v: v.valid_from):
            if lim.valid_to < windows[0].start or lim.valid_from > windows[-1].end:
                continue
            trc = None
            if limit_type not in MINIMUM_TYPES and analyte not in EXCLUDED_FROM_TRC:
                trc = technical_review_criterion(analyte, params, period.end)
            compare = comparer(lim, trc)
            counts = tuple(
                WindowCount(
                    w,
                    tuple(
                        compare(m)
                        for m in in_window(pool, days, w)
                        if lim.valid_from <= m.day <= lim.valid_to
                    ),
                    trc,
                    params.value("snc.chronic_percent", w.end),
                    params.value("snc.trc_percent", w.end),
                )
                for w in windows
            )
            determinations.append(Determination(lim, counts, trc))
    late = params.value("snc.report_late_days", period.end)
    judged_on = as_of or period.end
    report_results = tuple(
        ReportDetermination(r, judged_on, ((r.received or judged_on) - r.due).days, int(late))
        for r in sorted(reports, key=lambda r: (r.facility, r.due, r.report))
        if r.due in period
    )
    return SNCReport(period, rolling, tuple(determinations), report_results)
