"""The columnar engine (``sewer_engines.evaluation``) equals the plain reading of the rules
(``sewer_rules.evaluation.check``) on generated results files: every row's status, findings
and advisories, every row error, every sample's classification and every monthly average.

The rows are drawn to reach every branch: one and many results a sample, every analyte and
unit spelling the rules know (µg/l against mg/l limits, °C against °F), non-detects written
``<x``, ``ND`` with a reporting limit or a qualifier, missing and unreadable fields, times in
every accepted form (``Z``, offsets, without seconds, fractions, a space for ``T``) and some
that are not, the spring gap and the autumn overlap, and permit limits of each kind.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.evaluation import evaluate_table
from sewer_rules.evaluation import check
from sewer_rules.evaluation.permit_limits import LIMIT_TYPES, PermitLimits
from sewer_rules.parameters import ParameterSet, load_jurisdiction

COLUMNS = (
    "sample_id",
    "sampled_at",
    "sample_type",
    "parameter",
    "value",
    "unit",
    "facility",
    "qualifier",
    "reporting_limit",
    "analyzed_at",
    "source",
)
# (spelling, units it may be written in, typical low, high)
ANALYTES = [
    ("pH", ["SU", "s.u."], "0", "14"),
    ("BOD", ["mg/l", "mg/L", "ppm"], "0", "400"),
    ("TSS", ["mg/l"], "0", "400"),
    ("O&G", ["mg/l"], "0", "200"),
    ("cyanide", ["mg/l", "ug/L", "µg/l"], "0", "3"),
    ("copper", ["mg/l", "ug/l"], "0", "3"),
    ("zinc", ["mg/l"], "0", "3"),
    ("copper", ["mg/l"], "0", "3"),
    ("BOD", ["mg/l"], "0", "20"),
    ("Temperature", ["F", "°C"], "0", "200"),
    ("chloride", ["mg/l"], "0", "3000"),
    ("color", ["PCU", "mg/l"], "0", "80"),
    ("phenols", ["mg/l"], "0", "1"),
    ("flow", ["gpd", "MGD"], "0", "5"),
    ("dissolved solids", ["mg/l"], "0", "12000"),
    ("unobtainium", ["mg/l"], "0", "1"),
]
#: Analytes the generated permits limit, drawn more often.
PERMITTED = [
    ("copper", ["mg/l"], "0", "3"),
    ("BOD", ["mg/l"], "0", "5"),
    ("cyanide", ["mg/l"], "0", "3"),
]
SAMPLE_TYPES = ["grab", "composite", "grab", "composite", "continuous", " Grab ", "weekly"]


@st.composite
def times(draw: st.DrawFn, start: datetime) -> str:
    """A time in one of the accepted forms (or, now and then, one that is not); ``start`` and
    the moments are clock times (written without their zone unless an offset is drawn)."""
    # near the ends of months and of the limits' ranges, where the town date and the UTC date
    # of an evening differ
    near = draw(
        st.sampled_from(
            [
                start,
                datetime(2026, 2, 28, tzinfo=UTC),
                datetime(2026, 3, 14, tzinfo=UTC),
                datetime(2026, 3, 31, tzinfo=UTC),
            ]
        )
    )
    moment = near + timedelta(
        days=draw(st.integers(0, 1)),
        hours=draw(st.sampled_from([0, 1, 8, 13, 19, 20, 22, 23])),
        minutes=draw(st.integers(0, 59)),
    )
    if draw(st.integers(0, 9)) == 0:  # the spring gap and the autumn overlap of 2026
        moment = draw(
            st.sampled_from(
                [datetime(2026, 3, 8, 2, 30, tzinfo=UTC), datetime(2026, 11, 1, 1, 30, tzinfo=UTC)]
            )
        )
    seconds = draw(st.integers(0, 59))
    sep = draw(st.sampled_from(["T", " "]))
    clock = moment.strftime(f"%Y-%m-%d{sep}%H:%M")
    form = draw(st.integers(0, 3))
    if form >= 1:
        clock += f":{seconds:02d}"
    if form >= 2:
        clock += "." + draw(st.sampled_from(["5", "250", "123456", "123456789"]))
    offset = draw(st.sampled_from(["", "", "Z", "-05:00", "-04:00", "+01:00", "-0500"]))
    if draw(st.integers(0, 19)) == 0:
        return draw(
            st.sampled_from(["2026-13-01T08:00", "yesterday", "", "2026-03-02", "2026-1-4"])
        )
    return clock + offset


@st.composite
def results_file(draw: st.DrawFn) -> list[dict[str, str | None]]:
    n_samples = draw(st.integers(1, 6))
    rows: list[dict[str, str | None]] = []
    for s in range(n_samples):
        sampled = draw(times(datetime(2026, 2, 20, tzinfo=UTC)))
        per_sample = draw(st.sampled_from([1, 1, 3, 10]))
        facility = draw(st.sampled_from(["F1", "F1", "F2", None]))
        source = draw(st.sampled_from([None, "cooling", "process", "air conditioning"]))
        for _ in range(per_sample):
            spelling, units, lo, hi = draw(st.sampled_from(ANALYTES + PERMITTED * 4))
            number = draw(st.decimals(min_value=lo, max_value=hi, places=draw(st.integers(0, 4))))
            kind = draw(st.integers(0, 20))
            qualifier = rl = None
            value: str | None = str(number)
            if kind == 0:
                value = f"<{number}"
            elif kind == 1:
                value, rl = "ND", draw(st.sampled_from(["0.01", "5", None, "x"]))
            elif kind == 2:
                qualifier = "U"
                rl = draw(st.sampled_from([None, str(number)]))
            elif kind == 3:
                value = draw(st.sampled_from([None, "", "abc", "-1", "1e-3", "15"]))
            analyzed = None
            if draw(st.integers(0, 3)) == 0:
                analyzed = draw(times(datetime(2026, 2, 20, tzinfo=UTC)))
            rows.append(
                {
                    "sample_id": draw(st.sampled_from([f"S{s}"] * 9 + [" "])),
                    "sampled_at": sampled,
                    "sample_type": draw(st.sampled_from(SAMPLE_TYPES)),
                    "parameter": spelling,
                    "value": value,
                    "unit": draw(st.sampled_from([*units, *[units[0]] * 6, "furlongs"])),
                    "facility": facility,
                    "qualifier": qualifier,
                    "reporting_limit": rl,
                    "analyzed_at": analyzed,
                    "source": source,
                }
            )
    return rows


@st.composite
def permit_limits(draw: st.DrawFn) -> PermitLimits | None:
    if draw(st.integers(0, 3)) == 0:
        return None
    records = []
    for kind in LIMIT_TYPES:
        for parameter in ("copper", "BOD", "cyanide", "pH"):
            if draw(st.integers(0, 3)) > 0:
                records.append(
                    {
                        "facility": "F1",
                        "parameter": parameter,
                        "limit_type": kind,
                        "value": str(draw(st.decimals(min_value="0.01", max_value=3, places=2))),
                        "unit": "SU"
                        if parameter == "pH"
                        else draw(st.sampled_from(["mg/l", "ug/l"])),
                        "permit_id": "P-1",
                        "effective_from": draw(st.sampled_from(["", "2026-03-01", "2026-03-15"])),
                    }
                )
    return PermitLimits.from_records(records) if records else None


def engine_report(
    rows: list[dict[str, str | None]], params: ParameterSet, limits: Any
) -> dict[str, Any]:
    raw = pl.DataFrame(
        {c: [r[c] for r in rows] for c in COLUMNS}, schema=dict.fromkeys(COLUMNS, pl.String)
    ).with_columns(pl.int_range(2, len(rows) + 2, dtype=pl.Int64).alias("row"))
    ev = evaluate_table(raw, params, limits)
    results = []
    for r in ev.results.iter_rows(named=True):
        results.append(
            (
                r["row"],
                r["status"],
                [tuple(f.values()) for f in r["findings"] or []],
                [tuple(a.values()) for a in r["advisories"] or []],
            )
        )
    used = {
        (f["row"], f["message"]): (f["parameter"], f["effective"])
        for f in ev.findings.iter_rows(named=True)
    }
    return {
        "results": results,
        "used": used,
        "errors": ev.errors.select("row", "field", "message").rows(),
        "samples": ev.samples.rows(),
        "monthly": ev.monthly.rows() if ev.monthly.height else [],
    }


def reference_report(
    rows: list[dict[str, str | None]], params: ParameterSet, limits: Any
) -> dict[str, Any]:
    report = check(rows, params, limits)
    results, used = [], {}
    for res in report.results:
        findings = []
        for f in res.findings:
            findings.append(tuple(f.as_dict().values()))
            if f.parameter is not None:
                used[res.reading.row, f.message] = (f.parameter.name, f.parameter.effective)
            else:
                used[res.reading.row, f.message] = (None, None)
        advisories = [tuple(a.as_dict().values()) for a in res.advisories]
        results.append((res.reading.row, str(res.status), findings, advisories))
    return {
        "results": results,
        "used": used,
        "errors": [(e.row, e.field, e.message) for e in report.errors],
        "samples": [(s.sample_id, s.cooling_water, s.unpolluted_water) for s in report.samples],
        "monthly": [
            (
                m.facility,
                m.parameter,
                m.month,
                m.days_measured,
                m.average,
                m.limit,
                m.limit_unit,
                str(m.status),
                m.citation,
                m.permit_id,
            )
            for m in report.monthly
        ],
    }


@pytest.fixture(scope="module")
def demo() -> ParameterSet:
    return load_jurisdiction("demo")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=results_file(), limits=permit_limits())
def test_engine_equals_reference(rows: list[dict[str, str | None]], limits: Any) -> None:
    params = load_jurisdiction("demo")
    engine, reference = engine_report(rows, params, limits), reference_report(rows, params, limits)
    for part in ("errors", "results", "samples", "monthly", "used"):
        assert engine[part] == reference[part], part


def test_a_wappinger_file_of_every_shape_is_evaluated_alike() -> None:
    """The bundled law's own parameters (limits the Superintendent has not set are
    ``no_limit``), on a file of fixed rows covering each value form."""
    params = load_jurisdiction("wappinger")
    rows = [
        dict.fromkeys(COLUMNS)
        | {
            "sample_id": f"S{i // 3}",
            "sampled_at": ts,
            "sample_type": "grab",
            "parameter": p,
            "value": v,
            "unit": u,
            "qualifier": q,
            "reporting_limit": rl,
        }
        for i, (ts, p, v, u, q, rl) in enumerate(
            [
                ("2026-03-02T08:30", "pH", "5.4", "SU", None, None),
                ("2026-03-02T13:30Z", "copper", "<0.5", "mg/l", None, None),
                ("2026-03-02 08:30:00.5-05:00", "cyanide", "2100", "ug/l", None, None),
                ("2026-03-02T08:30:00", "O&G", "ND", "mg/l", None, "120"),
                ("2026-03-02T08:30-0500", "BOD", "250", "mg/l", "U", "260"),
                ("2026-03-08T02:30", "Temperature", "66", "°C", None, None),
            ]
        )
    ]
    assert engine_report(rows, params, None) == reference_report(rows, params, None)
    assert date(2026, 3, 2)  # the rows' date is inside the parameters' range
