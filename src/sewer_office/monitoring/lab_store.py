"""Storing a validated laboratory import: samples, results and findings in bulk (PostgreSQL
``COPY``), the month's averages judged, and the audit event — all in one transaction.

The import (:mod:`.lab_import`) calls :func:`save_import` only when every row has passed its
checks: what is stored here is never partial.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import polars as pl
from django.db import transaction
from django.utils import timezone

from sewer_engines.evaluation import Evaluation
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.core import audit, bulk
from sewer_office.findings.choices import FindingKind, ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.services import QUIET_STATUSES

from . import samplers
from .by_town import Evaluated
from .choices import ImportSource
from .lab_checks import CUSTODY_TEXT, CUSTODY_TIMES
from .models import LabImport, LabResult, SamplingEvent
from .monthly import judge_complete_months

if TYPE_CHECKING:
    pass


def save_import(
    statuses: dict[str, int],
    digest: str,
    source: str,
    source_name: str,
    actor: Actor | None,
    est_ids: list[int],
    rows: pl.DataFrame,
    ev: Evaluation,
    recorded: pl.DataFrame,
    evaluated: Evaluated,
    versions: dict[int, str],
    today: date | None,
    *,
    mapping: dict[str, Any],
    at: datetime | None = None,
) -> tuple[LabImport, list[dict[str, Any]]]:
    """Store the validated import in one transaction, with its audit event (``statuses``: the
    report's count of results by status; ``evaluated``: the towns whose values judged it;
    ``versions``: each facility's parameters version, its town's; ``mapping``: the laboratory
    mapping the file was read through, empty for the project's layout)."""
    with transaction.atomic():
        lab_import = LabImport.objects.create(
            sha256=digest,
            source=source,
            source_name=source_name[:300],
            imported_by=person_or_none(actor),
            jurisdiction=evaluated.jurisdiction,
            parameters_version=ev.parameters_version,
            establishment_id=est_ids[0] if source == ImportSource.SELF_MONITORING else None,
            mapping=mapping,
            imported_at=at or timezone.now(),
        )
        stored = _store(lab_import, rows, ev, recorded, versions)
        lab_import.result_count, lab_import.finding_count = rows.height, stored
        monthly = judge_complete_months(rows, today)
        lab_import.finding_count += len(monthly)
        lab_import.save(update_fields=["result_count", "finding_count"])
        audit.record(
            actor=actor,
            action="import_results",
            obj=lab_import,
            after={
                "source_name": source_name,
                "sha256": digest,
                "results": rows.height,
                "findings": lab_import.finding_count,
                "statuses": statuses,
                "parameters_version": ev.parameters_version,
                "mapping": mapping.get("name", ""),
            },
            citation="§ 196-19 I",
            at=at,
        )
    return lab_import, monthly


def _store(
    lab_import: LabImport,
    rows: pl.DataFrame,
    ev: Evaluation,
    recorded: pl.DataFrame,
    versions: dict[int, str],
) -> int:
    """Samples (those not recorded before), results and findings in bulk — each finding with
    the parameters version of its facility's town (``versions``); returns the number of
    findings stored."""
    now = timezone.now()
    samples = (
        rows.sort("row")
        .group_by("est", "sample_id", maintain_order=True)
        .agg(
            pl.col("sp").first(),
            pl.col("sample_type").first(),
            pl.col("sampled_utc").first(),
            pl.col(samplers.COLUMN).first(),
            *[pl.col(c).first() for c in (*CUSTODY_TIMES, *CUSTODY_TEXT)],
        )
        .join(
            recorded.select("est", "sample_id", "event"),
            on=["est", "sample_id"],
            how="left",
            maintain_order="left",
        )
    )
    new = samples.filter(pl.col("event").is_null())
    first_event = bulk.reserve_ids(SamplingEvent, new.height)
    new = new.with_row_index("event_id", offset=first_event).with_columns(
        pl.col("event_id").cast(pl.Int64)
    )
    samples = pl.concat(
        [
            samples.filter(pl.col("event").is_not_null()).select(
                "est", "sample_id", pl.col("event").alias("event_id")
            ),
            new.select("est", "sample_id", "event_id"),
        ]
    )
    bulk.insert(
        SamplingEvent,
        new.select(
            pl.col("event_id").alias("id"),
            pl.lit(now).alias("created_at"),
            pl.lit(now).alias("updated_at"),
            pl.col("est").alias("establishment_id"),
            pl.col("sp").alias("sampling_point_id"),
            "sample_id",
            "sample_type",
            pl.col("sampled_utc").alias("collected_at"),
            samplers.COLUMN,
            *CUSTODY_TIMES,
            *CUSTODY_TEXT,
            pl.lit(lab_import.pk).alias("lab_import_id"),
        ),
    )
    first_result = bulk.reserve_ids(LabResult, rows.height)
    results = (
        rows.join(samples.select("est", "sample_id", "event_id"), on=["est", "sample_id"])
        .sort("row")
        .with_row_index("result_id", offset=first_result)
        .with_columns(pl.col("result_id").cast(pl.Int64))
    )
    bulk.insert(
        LabResult,
        results.select(
            pl.col("result_id").alias("id"),
            "event_id",
            pl.col("est").alias("establishment_id"),
            pl.lit(lab_import.pk).alias("lab_import_id"),
            "row",
            pl.col("sampled_utc").alias("sampled_at"),
            pl.col("analyte").alias("parameter"),
            "value_text",
            pl.col("unit_symbol").alias("unit"),
            "qualifier",
            "reporting_limit",
            pl.col("method").fill_null(""),
            pl.col("analyzed_utc").alias("analyzed_at"),
            "status",
            pl.lit("reported").alias("state"),
            pl.lit(now).alias("created_at"),
        ),
    )
    per_row = results.select(
        "row", "result_id", "est", "analyte", pl.col("sampled_utc").alias("observed_at")
    )
    findings = ev.findings.join(per_row, on="row").select(
        pl.col("est").alias("establishment_id"),
        pl.lit(FindingKind.LAB_RESULT.value).alias("kind"),
        pl.col("result_id").alias("result_id"),
        "status",
        "citation",
        pl.col("limit").fill_null(""),
        pl.col("limit_unit").fill_null(""),
        "message",
        pl.col("parameter").fill_null(""),
        "effective",
        "analyte",
        "observed_at",
    )
    advisories = ev.advisories.join(per_row, on="row").select(
        pl.col("est").alias("establishment_id"),
        pl.lit(FindingKind.ADVISORY.value).alias("kind"),
        pl.col("result_id").alias("result_id"),
        pl.lit("advisory").alias("status"),
        "citation",
        pl.lit("").alias("limit"),
        pl.lit("").alias("limit_unit"),
        "message",
        pl.col("code").alias("parameter"),
        pl.lit(None, dtype=pl.Date).alias("effective"),
        "analyte",
        "observed_at",
    )
    everything = pl.concat([findings, advisories])
    first_finding = bulk.reserve_ids(Finding, everything.height)
    quiet = list(QUIET_STATUSES)
    bulk.insert(
        Finding,
        everything.with_row_index("id", offset=first_finding).with_columns(
            pl.col("id").cast(pl.Int64),
            _version_column(versions, lab_import.parameters_version),
            pl.when(pl.col("status").is_in(quiet))
            .then(pl.lit(ReviewState.NONE.value))
            .otherwise(pl.lit(ReviewState.NEW.value))
            .alias("review"),
            pl.lit(now).alias("created_at"),
            pl.lit(True).alias("current"),
        ),
    )
    return everything.height


def _version_column(versions: dict[int, str], single: str) -> pl.Expr:
    """Each finding's parameters version: its facility's town's (one town: one literal)."""
    if len(set(versions.values())) <= 1:
        return pl.lit(single).alias("parameters_version")
    return (
        pl.col("establishment_id")
        .replace_strict(versions, return_dtype=pl.String)  # every stored row's facility
        .alias("parameters_version")
    )
