"""Monthly averages of permit limits, judged on complete months only: a month that has ended by
the import's date (town time), over every current result of the facility in that month — not
only those of one file — stored as findings of kind ``monthly_average``. A later import touching
the month replaces them (the old ones stay, no longer current).

Also the stored results as the text table the engine reads, which a correction evaluates again.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import polars as pl
from django.utils import timezone

from sewer_engines.evaluation import evaluate_table
from sewer_office.core.town_law import require_article
from sewer_office.findings.choices import FindingKind, ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.services import QUIET_STATUSES
from sewer_office.registry.models import Establishment
from sewer_rules.analytes import resolve
from sewer_rules.parameters import ParameterSet

from .in_force import ARTICLE_LIMITS, params_in_force, permit_limits
from .models import DischargeLimit, LabResult

if TYPE_CHECKING:
    from polars._typing import PolarsDataType


def _month_start(d: date) -> date:
    return d.replace(day=1)


def _next_month(d: date) -> date:
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def stored_table(results: Any) -> pl.DataFrame:
    """Stored results as the text table the engine reads (``row`` from 2, as in a file), plus
    ``id``: what a month's judgement and a correction evaluate again."""
    columns: dict[str, tuple[str, PolarsDataType]] = {
        "id": ("id", pl.Int64),
        "sample_id": ("event__sample_id", pl.String),
        "sampled_at": ("sampled_at", pl.Datetime("us", "UTC")),
        "sample_type": ("event__sample_type", pl.String),
        "parameter": ("parameter", pl.String),
        "value": ("value_text", pl.String),
        "unit": ("unit", pl.String),
        "facility": ("establishment__code", pl.String),
        "qualifier": ("qualifier", pl.String),
        "reporting_limit": ("reporting_limit", pl.String),
        "analyzed_at": ("analyzed_at", pl.Datetime("us", "UTC")),
        "method": ("method", pl.String),
    }
    frame = pl.DataFrame(
        list(results.order_by("id").values_list(*(field for field, _ in columns.values()))),
        schema={name: dtype for name, (_, dtype) in columns.items()},
        orient="row",
    )
    return frame.with_columns(
        pl.col("sampled_at", "analyzed_at").dt.strftime("%Y-%m-%dT%H:%M:%S%z"),
        pl.int_range(2, frame.height + 2, dtype=pl.Int64).alias("row"),
    )


def judge_complete_months(rows: pl.DataFrame, today: date | None) -> list[dict[str, Any]]:
    """Monthly averages of the facility-months ``rows`` touched (columns ``est``, ``day``) that
    have ended, over every current result of each such month; each facility's months judged
    under its town's values (its time zone, its parameters version), one evaluation per town."""
    today = today or timezone.localdate()
    this_month = _month_start(today)
    touched = {
        (int(est), _month_start(day))
        for est, day in rows.select("est", "day").unique().iter_rows()
        if _month_start(day) < this_month
    }
    if not touched:
        return []
    est_ids = sorted({e for e, _ in touched})
    monthly_limits = list(
        DischargeLimit.objects.filter(
            establishment_id__in=est_ids, limit_type="monthly_average"
        ).values_list("establishment_id", "parameter")
    )
    if not monthly_limits:
        return []
    judged = {e for e, _ in monthly_limits}
    touched = {(e, m) for e, m in touched if e in judged}
    if not touched:
        return []
    by_town: dict[str, dict[int, str]] = {}
    for pk, code, town in Establishment.objects.filter(pk__in=judged).values_list(
        "id", "code", "jurisdiction"
    ):
        by_town.setdefault(town, {})[pk] = code
    out: list[dict[str, Any]] = []
    for town, codes in by_town.items():
        # the callers refuse a facility of a town of another law before anything is stored
        require_article(town, ARTICLE_LIMITS)
        mine = {(e, m) for e, m in touched if e in codes}
        limits = [(e, p) for e, p in monthly_limits if e in codes]
        out += _judge_town(params_in_force(town), codes, mine, limits)
    return out


def _judge_town(
    params: ParameterSet,
    codes: dict[int, str],
    touched: set[tuple[int, date]],
    monthly_limits: list[tuple[int, str]],
) -> list[dict[str, Any]]:
    """The months ``touched`` of one town's facilities (``codes``), under its ``params``."""
    parameters_version = params.version
    tz = ZoneInfo(params.timezone)
    first = min(m for _, m in touched)
    last = _next_month(max(m for _, m in touched))
    judged = set(codes)
    raw = stored_table(
        LabResult.objects.filter(
            establishment_id__in=sorted(judged),
            parameter__in=sorted({_analyte(p) for _, p in monthly_limits}),
            sampled_at__gte=datetime.combine(first, time(), tzinfo=tz),
            sampled_at__lt=datetime.combine(last, time(), tzinfo=tz),
        ).exclude(state="superseded")
    )
    if raw.height == 0:
        return []
    ev = evaluate_table(raw, params, permit_limits(sorted(judged), only_monthly=True))
    by_code = {code: est for est, code in codes.items()}
    # The month's earlier monthly findings are replaced (kept, no longer current): one
    # statement per month, whatever the number of facilities.
    by_month: dict[date, list[int]] = {}
    for est_id, month in touched:
        by_month.setdefault(month, []).append(est_id)
    for month, ids in sorted(by_month.items()):
        for k in range(0, len(ids), 500):
            Finding.objects.filter(
                establishment_id__in=ids[k : k + 500],
                kind=FindingKind.MONTHLY_AVERAGE,
                month=month,
                current=True,
            ).update(current=False)
    out: list[dict[str, Any]] = []
    findings = []
    for m in ev.monthly.iter_rows(named=True):
        facility_id = by_code.get(m["facility"])
        month = date.fromisoformat(m["month"] + "-01")
        if facility_id is None or (facility_id, month) not in touched:
            continue
        end = datetime.combine(_next_month(month), time(), tzinfo=tz)
        findings.append(
            Finding(
                establishment_id=facility_id,
                kind=FindingKind.MONTHLY_AVERAGE,
                status=m["status"],
                citation=m["citation"],
                limit=m["limit"],
                limit_unit=m["limit_unit"],
                message=(
                    f"monthly average of {m['parameter']} for {m['month']}: {m['average']} "
                    f"{m['limit_unit']} over {m['days_measured']} day(s) measured; permit limit "
                    f"{m['limit']} {m['limit_unit']} ({m['permit_id']})"
                ),
                parameter=f"permit {m['permit_id']} monthly_average",
                parameters_version=parameters_version,
                analyte=m["parameter"],
                observed_at=end - timedelta(seconds=1),
                month=month,
                review=ReviewState.NONE if m["status"] in QUIET_STATUSES else ReviewState.NEW,
            )
        )
        out.append(m)
    Finding.objects.bulk_create(findings, batch_size=1000)
    return out


def _analyte(name: str) -> str:
    return resolve(name).name
