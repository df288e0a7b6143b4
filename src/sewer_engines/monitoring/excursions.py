"""The excursion engine: § 196-19 C(3), D(8), D(1) over a series of millions of readings.

The rules are :mod:`sewer_rules.monitoring.excursions` (each limit read one reading at a
time). This engine gives the same excursions (the rules'
:class:`~sewer_rules.monitoring.excursions.Excursion`) on a :class:`.series.Series`: the
readings are split where the limit's dated value changes, each stretch compared with its
limit as a scaled integer in one array comparison (:func:`.limits.limit_hits`), and the
readings beyond it grouped into runs (:func:`.series.runs`). The property tests compare it
with the rules.
"""

from __future__ import annotations

import numpy as np

from sewer_rules.findings import UsedParameter
from sewer_rules.monitoring.excursions import (
    LIMITS,
    Excursion,
    ExcursionResult,
    Limit,
    beyond,
    excursions_of,
    limit_in_unit,
    ph_above_maximum,
    ph_below_minimum,
    temperature_above_maximum,
)
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.sections import engine_of

from .kernel import Judgement
from .limits import LimitRule, limit_hits
from .series import Cadence, Series, runs, scaled_ceil, scaled_floor, segments


@engine_of(beyond)
def beyond_series(
    series: Series, params: ParameterSet, tz: str, cad: Cadence, limit: Limit
) -> tuple[list[Excursion], Judgement]:
    """The runs of readings beyond ``limit``, and the judgement (readings beyond it, how many
    were judged), on a whole series."""
    segs = segments(series.t, params, [limit.parameter], tz)
    rules: list[LimitRule] = []
    limits = []
    for seg in segs:
        x = limit_in_unit(params, limit, seg.on, series.unit)
        limits.append(x)
        bound = None
        if x is not None:
            bound = scaled_floor(x, series.scale) if limit.above else scaled_ceil(x, series.scale)
        rules.append(LimitRule(seg.start, seg.stop, bound, limit.above))
    judgement = limit_hits(series.v, rules)
    found = runs(series.t, judgement.hits, cad)
    starts = np.array([s.start for s in segs], dtype=np.int64)
    out: list[Excursion] = []
    v = series.v
    for i in range(len(found)):
        first, last = int(found.first[i]), int(found.last[i])
        seg_limit = limits[int(np.searchsorted(starts, first, side="right")) - 1]
        assert seg_limit is not None  # only judged readings qualify
        part = v[first : last + 1]
        extreme = int(part.max()) if limit.above else int(part.min())
        out.append(
            Excursion(
                start=int(found.start[i]),
                end=int(found.end[i]),
                first=first,
                last=last,
                extreme=series.decimal(extreme),
                limit=seg_limit,
                rule=limit,
            )
        )
    return out, judgement


def has_limits(series: Series) -> bool:
    """Whether the article limits the series' parameter (pH, temperature)."""
    return series.parameter in LIMITS


@engine_of(excursions_of, ph_below_minimum, ph_above_maximum, temperature_above_maximum)
def excursions(series: Series, params: ParameterSet, tz: str, cad: Cadence) -> ExcursionResult:
    """Every excursion of the series beyond each of the article's limits, by start time."""
    found: list[Excursion] = []
    judged = 0
    unjudged = len(series)
    used: list[UsedParameter] = []
    for limit in LIMITS.get(series.parameter, ()):
        exc, judgement = beyond_series(series, params, tz, cad, limit)
        found.extend(exc)
        judged = max(judged, judgement.judged)
        unjudged = min(unjudged, judgement.unjudged)
        for seg in segments(series.t, params, [limit.parameter], tz):
            try:
                pv = params.get(limit.parameter, seg.on)
            except ParameterError:
                continue
            used.append(UsedParameter(limit.parameter, pv.effective, pv.authority))
    found.sort(key=lambda e: (e.start, e.rule.parameter))
    return ExcursionResult(found, judged, unjudged, used)
