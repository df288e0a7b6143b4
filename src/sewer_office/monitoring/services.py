"""Services of the monitoring app: manual entry, corrections, approval, laboratory mappings (a
facility's sampling points, limits and samples: :mod:`.sampling`).

Every service checks who may act, validates, and writes its change and the audit event in one
transaction. A laboratory result is never edited: :func:`correct_result` stores a new result
that supersedes it, evaluated again by ``sewer_rules``; the old result and its findings stay
(superseded, no longer current), so the history of what was reported and found is kept.
"""

from __future__ import annotations

import csv
import hashlib
import io
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import polars as pl
from django.db import transaction
from django.utils import timezone

from sewer_engines.evaluation import evaluate_table
from sewer_io import lab_mapping as layouts
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.jurisdictions import kept_from, sees_every_jurisdiction
from sewer_office.accounts.roles import (
    APPLICANT,
    BUILDING_INSPECTOR,
    CLERK,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
)
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.town_law import require_acting_for, require_article_for
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import initial_review

from .choices import ResultState
from .in_force import ARTICLE_LIMITS, params_in_force, permit_limits
from .lab_import import RESULT_OFFICERS, ImportReport, import_lab_file, source_for
from .models import LabMapping, LabResult
from .monthly import judge_complete_months, stored_table

MANUAL_COLUMNS = (
    "sample_id",
    "sampled_at",
    "sample_type",
    "parameter",
    "value",
    "unit",
    "facility",
    "sampling_point",
    "qualifier",
    "reporting_limit",
    "analyzed_at",
    "method",
    "collected_by",
    "relinquished_at",
    "relinquished_by",
    "received_at",
    "received_by",
    "laboratory",
)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return timezone.localtime(value).isoformat(timespec="minutes")
    return str(value).strip()


def enter_results(actor: Actor, rows: list[dict[str, Any]]) -> ImportReport:
    """Results typed in by hand: the same validation and evaluation as a laboratory file.

    Staff enter for any facility; an outside user only for the facilities they report for
    (self-monitoring). Row numbers in errors count the entered rows from 2, as in a file.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(MANUAL_COLUMNS)
    for row in rows:
        writer.writerow([_text(row.get(c)) for c in MANUAL_COLUMNS])
    data = buf.getvalue().encode("utf-8")
    nonce = f"{actor.pk}:{timezone.now().isoformat()}".encode()
    source = source_for(actor, manual=True)
    return import_lab_file(
        data,
        "manual entry",
        actor,
        source=source,
        digest=hashlib.sha256(data + nonce).hexdigest(),
    )


def require_officer(actor: Actor, what: str) -> None:
    if not has_role(actor, *RESULT_OFFICERS):
        raise Forbidden(f"{what} is reserved to the Superintendent and the engineer.")


def correct_result(
    result: LabResult,
    actor: Actor,
    *,
    value: str,
    unit: str,
    reason: str,
    qualifier: str = "",
    reporting_limit: str = "",
) -> LabResult:
    """A new result superseding ``result`` (with the reason), evaluated again; audited."""
    require_officer(actor, "Correcting a laboratory result")
    require_acting_for(actor, result.establishment, "Correcting a laboratory result")
    # evaluated again under its facility's town's values: refused for a town of another law
    params = params_in_force(require_article_for(result, ARTICLE_LIMITS))
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the result is corrected."]})
    if result.state == ResultState.SUPERSEDED:
        raise Blocked("This result was already corrected: correct the result that replaced it.")
    # The day's other current results of the same parameter count for a daily maximum: the
    # day of the facility's town.
    day_start = result.sampled_at.astimezone(ZoneInfo(params.timezone)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    table = stored_table(
        LabResult.objects.filter(
            establishment=result.establishment_id,
            parameter=result.parameter,
            sampled_at__gte=day_start,
            sampled_at__lt=day_start + timedelta(days=1),
        ).exclude(state=ResultState.SUPERSEDED)
    )
    fixed = {
        "value": value.strip(),
        "unit": unit.strip(),
        "qualifier": qualifier.strip(),
        "reporting_limit": reporting_limit.strip(),
    }
    this = pl.col("id") == result.pk
    raw = (
        table.sort(~this, maintain_order=True)  # the corrected result first: row 2
        .with_columns(
            pl.int_range(2, table.height + 2, dtype=pl.Int64).alias("row"),
            *[
                pl.when(this).then(pl.lit(v)).otherwise(pl.col(k)).alias(k)
                for k, v in fixed.items()
            ],
        )
        .drop("id")
    )
    ev = evaluate_table(raw, params, permit_limits([result.establishment_id], monthly=False))
    mine = ev.errors.filter(pl.col("row") == 2)
    if mine.height:
        raise InvalidInput({f: [m] for f, m in mine.select("field", "message").iter_rows()})
    row = ev.results.filter(pl.col("row") == 2).row(0, named=True)
    with transaction.atomic():
        old = LabResult.objects.select_for_update().get(pk=result.pk)
        if old.state == ResultState.SUPERSEDED:
            raise Blocked("This result was already corrected.")
        before = audit.snapshot(old)
        new = LabResult.objects.create(
            event=old.event,
            establishment=old.establishment,
            lab_import=None,
            row=None,
            sampled_at=old.sampled_at,
            parameter=row["analyte"],
            value_text=row["value_text"],
            unit=row["unit_symbol"],
            qualifier=fixed["qualifier"],
            reporting_limit=fixed["reporting_limit"],
            method=old.method,
            analyzed_at=old.analyzed_at,
            status=row["status"],
            supersedes=old,
            correction_reason=reason.strip(),
        )
        old.state = ResultState.SUPERSEDED
        old.save(update_fields=["state"])
        Finding.objects.filter(result=old).update(current=False)
        _store_row_findings(new, ev, params_version=ev.parameters_version)
        audit.record(
            actor=actor,
            action="correct_result",
            obj=new,
            before=before,
            after=audit.snapshot(new),
            reason=reason.strip(),
            citation="§ 196-19 I",
        )
        months = pl.DataFrame(
            {"est": [old.establishment_id], "day": [day_start.date()]},
            schema={"est": pl.Int64, "day": pl.Date},
        )
        judge_complete_months(months, None)
    return new


def _store_row_findings(result: LabResult, ev: Any, params_version: str) -> None:
    rows = []
    for f in ev.findings.filter(pl.col("row") == 2).iter_rows(named=True):
        rows.append(
            Finding(
                establishment_id=result.establishment_id,
                kind=FindingKind.LAB_RESULT,
                result=result,
                status=f["status"],
                citation=f["citation"],
                limit=f["limit"] or "",
                limit_unit=f["limit_unit"] or "",
                message=f["message"],
                parameter=f["parameter"] or "",
                effective=f["effective"],
                parameters_version=params_version,
                analyte=result.parameter,
                observed_at=result.sampled_at,
                review=initial_review(f["status"]),
            )
        )
    for a in ev.advisories.filter(pl.col("row") == 2).iter_rows(named=True):
        rows.append(
            Finding(
                establishment_id=result.establishment_id,
                kind=FindingKind.ADVISORY,
                result=result,
                status="advisory",
                citation=a["citation"],
                message=a["message"],
                parameter=a["code"],
                parameters_version=params_version,
                analyte=result.parameter,
                observed_at=result.sampled_at,
                review=initial_review("advisory"),
            )
        )
    Finding.objects.bulk_create(rows)


def approve_results(results: Any, actor: Actor, note: str = "") -> int:
    """Approve reported results (they become immutable records of the office); each approval
    is written to its result's history."""
    require_officer(actor, "Approving laboratory results")
    if not sees_every_jurisdiction(actor):  # the towns of the results, by the one rule
        towns = results.order_by().values_list("establishment__jurisdiction", flat=True)
        if any(kept_from(actor, town) for town in towns.distinct()):
            raise Forbidden("Approving laboratory results: some are of a town you do not act for.")
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            results.filter(state=ResultState.REPORTED)
            .select_for_update()
            .order_by("id")
            .values_list("id", flat=True)
        )
        for i in range(0, len(ids), 500):  # SQLite bounds the parameters of one statement
            LabResult.objects.filter(id__in=ids[i : i + 500]).update(
                state=ResultState.APPROVED, approved_at=now, approved_by=actor
            )
        audit.record_many(
            actor=actor,
            action="approve_result",
            model=LabResult,
            ids=ids,
            after={"state": "approved", "batch": len(ids)},
            reason=note,
            citation="§ 196-19 I",
            state_from=ResultState.REPORTED,
            state_to=ResultState.APPROVED,
            at=now,
        )
    return len(ids)


#: Who records a sample taken (the Superintendent, the engineer, the Building Inspector on an
#: inspection, § 196-21 A) — or the facility itself, for its self-monitoring samples.
SAMPLERS = (SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR, APPLICANT)


# --- laboratory mappings ------------------------------------------------------------------------

#: Who writes the office's laboratory mappings: the staff who import and check laboratory files.
MAPPERS = (CLERK, ENGINEER, SUPERINTENDENT)


def check_mapper(actor: Actor | None) -> None:
    if actor is not None and not has_role(actor, *MAPPERS):
        raise Forbidden(
            "Laboratory mappings are written by the clerk, the engineer and the Superintendent."
        )


def save_lab_mapping(
    actor: Actor, mapping: layouts.LabMapping, record: LabMapping | None = None
) -> LabMapping:
    """Store a new mapping, or a changed one over ``record``, with its audit event.

    Its name is unique, is no preset's (``--mapping NAME`` finds a preset first) and is no file
    name (``--mapping`` takes a name ending in .yaml or .json, or with a slash, for a file)."""
    check_mapper(actor)
    name = mapping.name.strip()
    errors: dict[str, list[str]] = {}
    if name in layouts.preset_names():
        errors["name"] = [f"'{name}' is the name of a preset: choose another"]
    elif layouts.looks_like_file(name):
        errors["name"] = ["a name, not a file name (no .yaml, .json or slash)"]
    else:
        others = LabMapping.objects.filter(name=name)
        if record is not None:
            others = others.exclude(pk=record.pk)
        if others.exists():
            errors["name"] = [f"a mapping named '{name}' already exists"]
    if len(mapping.laboratory) > LabMapping._meta.get_field("laboratory").max_length:  # type: ignore[operator]
        errors["laboratory"] = ["too long"]
    if errors:
        raise InvalidInput(errors)
    fields = {
        "name": name,
        "laboratory": mapping.laboratory,
        "mapping": mapping.to_dict(),
        "updated_by": person_or_none(actor),
    }
    with transaction.atomic():
        if record is None:
            return audit.create_recorded(
                LabMapping,
                {**fields, "created_by": fields["updated_by"]},
                actor=actor,
                action="create_lab_mapping",
            )
        locked = LabMapping.objects.select_for_update().get(pk=record.pk)
        return audit.change_recorded(locked, fields, actor=actor, action="change_lab_mapping")


def delete_lab_mapping(actor: Actor, record: LabMapping) -> None:
    """Delete a mapping (the imports read through it keep their own copy of it); the audit
    event keeps what it was."""
    check_mapper(actor)
    with transaction.atomic():
        audit.record(
            actor=actor, action="delete_lab_mapping", obj=record, before=audit.snapshot(record)
        )
        record.delete()
