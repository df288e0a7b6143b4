"""What the office reads to decide significant noncompliance (40 CFR 403.8(f)(2)(viii)): the
period asked for, and the stored results, limits, flows, report due dates and missed
milestones of every facility, read in bulk (a few queries, whatever the number of facilities)
into the inputs of the rule (:mod:`sewer_engines.federal.snc_inputs`).

Apart from :mod:`.snc`, which decides and stores, so that the reading (the queries and their
shape) and the decision (the rule's answer, its records and violations) can be read apart."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import polars as pl
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from sewer_engines.evaluation.engine import RULES
from sewer_engines.evaluation.prepare import prepare
from sewer_engines.federal import snc_inputs
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.enforcement.schedules import missed_milestones
from sewer_office.monitoring.in_force import permit_limits
from sewer_office.monitoring.models import DischargeLimit, LabResult
from sewer_office.registry.models import Establishment
from sewer_rules.federal.snc_chronic_and_trc import Determination
from sewer_rules.federal.snc_criteria import criterion
from sewer_rules.federal.snc_late_reports import Report
from sewer_rules.federal.snc_periods import PeriodError, Window, parse_period, six_month_windows
from sewer_rules.parameters import ParameterError, ParameterSet

from .choices import REPORT_CITATIONS
from .models import ReportDue
from .status import with_status


def _facility_key(est_id: int, code: str) -> str:
    return code or f"EST-{est_id}"


def read_period(text: str, rolling: bool | None, params: ParameterSet) -> tuple[Window, bool]:
    try:
        period = parse_period(text)
        chosen = (
            bool(params.value("snc.rolling_window", period.end)) if rolling is None else rolling
        )
        six_month_windows(period, chosen)
    except (PeriodError, ParameterError) as e:
        raise InvalidInput({"period": [str(e)]}) from None
    return period, chosen


def _signed_day(due: ReportDue) -> date | None:
    """The town's day a report awaiting review was signed (:func:`.status.with_status`)."""
    signed = getattr(due, "pending_signed_at", None)
    return timezone.localdate(signed) if signed is not None else None


def snc_inputs_for(
    period: Window, rolling: bool, establishment_ids: Sequence[int] | None, params: ParameterSet
) -> tuple[dict[str, int], list[Any], pl.DataFrame, list[Report], dict[int, int]]:
    """Facilities, limits, measurements and reports of ``period``, read in bulk.

    Returns the facility key → establishment id map, the limits and the prepared result rows
    of the rules (:func:`~sewer_engines.federal.snc_columnar.determine_table` counts them),
    the reports (F), and the map from a measurement's row to its stored result id.
    """
    windows = six_month_windows(period, rolling)
    first, last = windows[0].start, windows[-1].end
    limit_qs = DischargeLimit.objects.filter(effective_from__lte=last).filter(
        Q(effective_to__isnull=True) | Q(effective_to__gte=first)
    )
    due_qs = ReportDue.objects.filter(due_on__gte=period.start, due_on__lte=period.end)
    if establishment_ids is not None:
        limit_qs = limit_qs.filter(establishment_id__in=establishment_ids)
        due_qs = due_qs.filter(establishment_id__in=establishment_ids)
    ids = sorted(
        set(limit_qs.values_list("establishment_id", flat=True))
        | set(due_qs.values_list("establishment_id", flat=True))
    )
    codes = dict(Establishment.objects.filter(pk__in=ids).values_list("id", "code"))
    keys = {_facility_key(i, codes.get(i, "")): i for i in ids}
    table = permit_limits(ids)
    limits = snc_inputs.limits(table) if table is not None else []
    measurements = pl.DataFrame()
    row_ids: dict[int, int] = {}
    if limits:
        tz = ZoneInfo(params.timezone)
        analytes = sorted({lim.analyte for lim in limits})
        qs = LabResult.objects.filter(
            establishment_id__in=sorted({keys[lim.facility] for lim in limits}),
            parameter__in=analytes,
            sampled_at__gte=datetime.combine(first, time(), tzinfo=tz),
            sampled_at__lt=datetime.combine(last + timedelta(days=1), time(), tzinfo=tz),
        ).exclude(state="superseded")
        raw = results_table(qs, {i: _facility_key(i, codes.get(i, "")) for i in ids})
        if raw.height:
            names = sorted({r.parameter for r in RULES})
            prepared = prepare(raw, params.timezone, params.breakpoints(names)[0])
            if prepared.errors.height:
                bad = [
                    f"result #{raw.get_column('id')[row - 2]}: {fld}: {msg}"
                    for row, fld, msg in prepared.errors.head(10).iter_rows()
                ]
                raise Blocked("Stored results the rules cannot read:\n" + "\n".join(bad))
            measurements = prepared.rows
            row_ids = dict(zip(raw.get_column("row"), raw.get_column("id"), strict=True))
    labels = dict(REPORT_CITATIONS)
    # A report signed and waiting for the office's review was submitted on the day it was
    # signed (the day an acceptance records as received): not late for SNC unless rejected.
    reports = [
        Report(
            _facility_key(d.establishment_id, codes.get(d.establishment_id, "")),
            f"{d.kind} #{d.pk}",
            d.due_on,
            d.received_on or _signed_day(d),
        )
        for d in with_status(due_qs)
        if d.kind in labels
    ]
    return keys, limits, measurements, reports, row_ids


RESULT_COLUMNS = (
    ("id", "id"),
    ("establishment_id", "establishment"),
    ("event__sample_id", "sample_id"),
    ("sampled_at", "sampled_at"),
    ("event__sample_type", "sample_type"),
    ("parameter", "parameter"),
    ("value_text", "value"),
    ("unit", "unit"),
    ("qualifier", "qualifier"),
    ("reporting_limit", "reporting_limit"),
)


def results_table(qs: QuerySet[LabResult], keys: dict[int, str]) -> pl.DataFrame:
    """Stored results as the text table the engine reads (as ``stored_table``), fetched with
    one query straight from the database cursor: no model objects, no per-value conversion
    (SQLite returns UTC times as text, PostgreSQL as aware datetimes; both become ISO text)."""
    sql, sql_params = (
        qs.values_list(*(f for f, _ in RESULT_COLUMNS)).order_by("id").query.sql_with_params()
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, sql_params)
        rows = cursor.fetchall()
    names = [n for _, n in RESULT_COLUMNS]
    frame = pl.DataFrame(rows, schema=names, orient="row", infer_schema_length=None)
    if frame.height == 0:
        return frame
    when = pl.col("sampled_at")
    if frame.schema["sampled_at"] == pl.String:
        when = when + "+00:00"
    else:
        when = when.dt.convert_time_zone("UTC").dt.strftime("%Y-%m-%dT%H:%M:%S%.f%z")
    return frame.with_columns(
        when.alias("sampled_at"),
        pl.col("establishment").replace_strict(keys, return_dtype=pl.String).alias("facility"),
        pl.col(pl.String).cast(pl.String),
        pl.int_range(2, frame.height + 2, dtype=pl.Int64).alias("row"),
    ).drop("establishment")


def _series(
    d: Determination,
    row_ids: dict[int, int],
    siu_days: list[list[str]] | None = None,
    scope_note: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One limit series of the rules' determination as stored: the fields of its ``as_dict``
    with the deciding window's measurements named by stored result (``[result ids, exceeds,
    at or above TRC]``; the values are those of the results, which are never edited), the
    days the user was an SIU over the windows (``siu_days``: what the count was limited to)
    and, when results of the parameter were set aside, why (``scope``)."""
    w = d.deciding
    lim = d.limit
    evaluated = ["A"] if d.trc is None else ["A", "B"]
    extra: dict[str, Any] = {} if siu_days is None else {"siu_days": siu_days}
    if scope_note is not None:
        extra["scope"] = scope_note
    return {
        "parameter": lim.analyte,
        "limit_type": lim.limit_type,
        "limit": str(lim.value),
        "unit": lim.unit,
        "limit_as_written": lim.text or None,
        "limit_authority": lim.citation or None,
        "trc": None if d.trc is None else str(d.trc),
        "window": w.window.as_dict(),
        "measurements": w.measurements,
        "exceeding": w.exceeding,
        "trc_exceeding": w.trc_exceeding,
        "snc": d.snc,
        "criteria": d.criteria,
        "citations": [str(criterion(c)) for c in (d.criteria or evaluated)],
        "windows": [x.as_dict() for x in d.windows],
        "counted": [
            [[row_ids.get(r, r) for r in c.measurement.rows], c.exceeds, c.at_or_above_trc]
            for c in w.counted
        ],
        **extra,
    }


def milestone_criteria(
    establishment_ids: Sequence[int], period: Window
) -> dict[int, list[dict[str, str]]]:
    """Criterion (E) per facility: compliance-schedule milestones missed by more than 90 days
    in the period (:func:`sewer_office.enforcement.schedules.missed_milestones`, one query for
    every facility)."""
    wanted = set(establishment_ids)
    out: dict[int, list[dict[str, str]]] = defaultdict(list)
    for m in missed_milestones(None, period.start, period.end):
        est = m.schedule.establishment_id
        if est in wanted:
            out[est].append(
                {
                    "criterion": "E",
                    "citation": str(criterion("E")),
                    "on": m.due_on.isoformat(),
                    "text": (
                        f"{m.schedule.number}: milestone “{m.description}” due {m.due_on} "
                        + (f"completed {m.completed_on}" if m.completed_on else "not completed")
                        + ", more than 90 days late"
                    ),
                }
            )
    return out
