"""The report of ``sewer-use slugs`` as the terminal reads it (tables of the series, slugs,
excursions, monthly time out of range and row errors) and as CSV (one row per slug and per
excursion). Apart from the command (:mod:`.cmd_slugs`), which parses the options and runs the
engine, because these only write what the engine found.
"""

from __future__ import annotations

import csv
from typing import TYPE_CHECKING, TextIO

from .cmd_slugs import US_PER_HOUR
from .output import table

if TYPE_CHECKING:
    from sewer_engines.monitoring.analysis import Report

CSV_COLUMNS = (
    "meter",
    "parameter",
    "unit",
    "kind",
    "start",
    "end",
    "duration_minutes",
    "value",
    "baseline",
    "threshold",
    "limit",
    "status",
    "citation",
    "report_required",
    "excused",
    "baseline_carried_from",
)


def write_csv(report: Report, out: TextIO) -> None:
    """One row per slug and per excursion."""
    from sewer_rules.findings import Status

    tz = report.timezone
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for s in report.series:
        head = [s.meter, s.parameter, s.unit]
        for slug in s.slugs:
            d = slug.as_dict(tz)
            w.writerow(
                [
                    *head,
                    "slug",
                    d["start"],
                    d["end"],
                    d["duration_minutes"],
                    d["peak"],
                    d["baseline"],
                    d["threshold"],
                    "",
                    str(Status.REVIEW),
                    d["citation"],
                    d["report_required"],
                    "",
                    d["baseline_carried_from"] or "",
                ]
            )
        for e in s.excursions:
            x = e.as_dict(tz)
            w.writerow(
                [
                    *head,
                    "excursion",
                    x["start"],
                    x["end"],
                    x["duration_minutes"],
                    x["extreme"],
                    "",
                    "",
                    x["limit"],
                    x["status"],
                    x["citation"],
                    "",
                    "true" if e.excused else "false",
                    "",
                ]
            )


def render_table(report: Report) -> str:
    tz = report.timezone
    parts = [
        f"sewer-use slugs: {report.source}",
        f"Jurisdiction: {report.jurisdiction} (parameters {report.parameters_version}); "
        f"times in {tz}",
        "",
    ]
    parts.append(
        table(
            (
                "meter",
                "parameter",
                "unit",
                "readings",
                "judged",
                "unjudged",
                "missing",
                "gaps",
                "slugs",
                "excursions",
            ),
            [
                (
                    s.meter,
                    s.parameter,
                    s.unit,
                    s.readings,
                    s.judged,
                    s.unjudged,
                    s.missing,
                    s.gaps,
                    len(s.slugs),
                    len(s.excursions),
                )
                for s in report.series
            ],
        )
    )
    for s in report.series:
        reasons = s.not_judged()["reasons"]
        assert isinstance(reasons, list)
        if reasons:
            parts.append(f"{s.meter} {s.parameter}: not judged: {'; '.join(reasons)}.")
        if s.carried:
            parts.append(
                f"{s.meter} {s.parameter}: {s.carried} reading(s) judged on a baseline carried "
                f"from the {s.window_us / US_PER_HOUR:g} hours ending with the last "
                "normal-operation reading (their own window held none)."
            )
    slugs = [(s, x.as_dict(tz)) for s in report.series for x in s.slugs]
    if slugs:
        parts += ["", "Slugs (§ 196-15 SLUG) — each must be reported immediately, § 196-19 D(9)(d)"]
        parts.append(
            table(
                (
                    "meter",
                    "parameter",
                    "start",
                    "end",
                    "minutes",
                    "peak",
                    "baseline",
                    "threshold",
                    "unit",
                ),
                [
                    (
                        s.meter,
                        s.parameter,
                        d["start"],
                        d["end"],
                        d["duration_minutes"],
                        d["peak"],
                        d["baseline"],
                        d["threshold"],
                        s.unit,
                    )
                    for s, d in slugs
                ],
            )
        )
        for s, d in slugs:
            if d["baseline_carried_from"]:
                parts.append(
                    f"  {s.meter} {s.parameter} slug from {d['start']}: baseline carried from "
                    f"the {s.window_us / US_PER_HOUR:g} hours ending at "
                    f"{d['baseline_carried_from']}"
                )
    exc = [(s, x.as_dict(tz)) for s in report.series for x in s.excursions]
    if exc:
        parts += ["", "Excursions"]
        parts.append(
            table(
                (
                    "meter",
                    "parameter",
                    "start",
                    "end",
                    "minutes",
                    "extreme",
                    "limit",
                    "unit",
                    "status",
                    "citation",
                    "excused",
                ),
                [
                    (
                        s.meter,
                        s.parameter,
                        d["start"],
                        d["end"],
                        d["duration_minutes"],
                        d["extreme"],
                        d["limit"],
                        s.unit,
                        d["status"],
                        d["citation"],
                        "yes" if d["excused"] else "",
                    )
                    for s, d in exc
                ],
            )
        )
    monthly = [(s, m.as_dict()) for s in report.series for m in s.monthly]
    if monthly:
        parts += ["", "Monthly time out of range (and, for pH, the 40 CFR 401.17 allowance)"]
        parts.append(
            table(
                (
                    "meter",
                    "parameter",
                    "month",
                    "excursions",
                    "minutes",
                    "longest",
                    "allowance exceeded",
                ),
                [
                    (
                        s.meter,
                        s.parameter,
                        d["month"],
                        d["excursions"],
                        d["excursion_minutes"],
                        d["longest_excursion_minutes"],
                        ("yes" if d["allowance_exceeded"] else "no") if s.parameter == "ph" else "",
                    )
                    for s, d in monthly
                ],
            )
        )
    if report.errors_total:
        shown = report.errors[:20]
        parts += ["", f"Row errors ({report.errors_total})"]
        parts.append(
            table(("row", "field", "message"), [(e.row, e.field, e.message) for e in shown])
        )
        if report.errors_total > len(shown):
            parts.append(
                f"... {report.errors_total - len(shown)} more (--format json lists {len(report.errors)})"
            )
    total_slugs = len(slugs)
    counted = sum(1 for s in report.series for e in s.excursions if not e.excused)
    parts += [
        "",
        f"{total_slugs} slug(s), {counted} excursion(s) counted, {report.errors_total} row error(s).",
    ]
    return "\n".join(parts)
