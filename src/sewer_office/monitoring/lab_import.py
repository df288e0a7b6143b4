"""Import of a laboratory file: validated in full, evaluated by ``sewer_rules``, stored at once.

The file has the columns of ``sewer-use check`` plus ``facility`` (the establishment's facility
code) and ``sampling_point`` (the code of one of its sampling points; may be blank when the
facility has exactly one). Optional chain-of-custody columns: ``collected_by``,
``relinquished_at``, ``relinquished_by``, ``received_at``, ``received_by``, ``laboratory``; and
``sampler``, who took the sample — the Town or the user (:mod:`.samplers`).

All or nothing: every row is checked first — the engine's own validation (parameter, value,
unit, dates), the facility and sampling point, one time per sample, no result twice, no result
already stored (a correction supersedes it instead) — and if any row fails nothing is stored
and the report lists every failing row and field. The same bytes imported again are refused
(SHA-256). Otherwise the results, their samples, and every finding — with status, citation,
limit, unit, the parameter name and effective date and the parameter-set version used — are
stored in one transaction with the audit event, using bulk insertion (PostgreSQL ``COPY``).

Monthly averages of permit limits are judged only on complete months (a month that has ended
by the import's date, town time), over every current result of the facility in that month —
not only those of the file — and stored as findings of kind ``monthly_average``; a later
import touching the month replaces them (the old ones stay, no longer current).

This module is the import's course; its parts each have their own: reading the file
(:mod:`.lab_files`), the row checks (:mod:`.lab_checks`), storing (:mod:`.lab_store`), the
month's averages (:mod:`.monthly`), the parameters and limits in force (:mod:`.in_force`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import polars as pl
from django.db import IntegrityError
from django.utils import timezone

from sewer_engines.evaluation import Evaluation
from sewer_io.check_io import UnusableFile
from sewer_io.lab_mapping import LabMapping
from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import APPLICANT, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.accounts.towns import primary
from sewer_office.core.errors import Forbidden, shorten

from . import by_town, samplers
from .choices import ImportSource, Sampler
from .in_force import permit_limits
from .lab_checks import (
    CUSTODY_TEXT,
    CUSTODY_TIMES,
    against_recorded,
    already_stored,
    control_characters,
    facilities,
    recorded_samples,
    sample_consistency,
    sampling_points,
    text_column,
    too_long,
)
from .lab_files import read_lab_file
from .lab_store import save_import
from .models import LabImport

if TYPE_CHECKING:
    pass

__all__ = ["ImportReport", "UnusableFile", "import_lab_file"]


@dataclass
class ImportReport:
    """What an import did or would do; ``errors`` are (row, field, message), row 1 = header."""

    source_name: str
    rows: int = 0
    errors: list[tuple[int, str, str]] = field(default_factory=list)
    refused: str = ""  # a reason the whole file is refused (re-import), beside row errors
    stored: bool = False
    lab_import: LabImport | None = None
    statuses: dict[str, int] = field(default_factory=dict)
    findings: int = 0
    monthly: list[dict[str, Any]] = field(default_factory=list)
    parameters_version: str = ""
    evaluation: Evaluation | None = None

    @property
    def ok(self) -> bool:
        return not self.errors and not self.refused

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source_name,
            "stored": self.stored,
            "import_id": self.lab_import.pk if self.lab_import else None,
            "rows": self.rows,
            "refused": self.refused or None,
            "errors": [{"row": r, "field": f, "message": m} for r, f, m in self.errors],
            "statuses": self.statuses,
            "findings": self.findings,
            "monthly": self.monthly,
            "parameters_version": self.parameters_version,
        }


# --- validation ---------------------------------------------------------------------------------


# --- the import ---------------------------------------------------------------------------------

#: Who stores and corrects the office's laboratory results (§ 196-15 SUPERINTENDENT, ENGINEER).
RESULT_OFFICERS = (SUPERINTENDENT, ENGINEER)


def source_for(actor: Actor | None, *, manual: bool = False) -> str:
    """The kind of import ``actor`` makes: the office's (a laboratory file, or results typed
    in), or a facility's own self-monitoring results."""
    if actor is None or has_role(actor, *RESULT_OFFICERS):
        return ImportSource.MANUAL if manual else ImportSource.LAB_FILE
    return ImportSource.SELF_MONITORING


def _check_importer(actor: Actor | None, source: str) -> None:
    """The office's imports are the officers'; self-monitoring is a facility representative's
    (limited to their facilities by the facility check). ``actor`` None: the command line."""
    if actor is None:
        return
    if source == ImportSource.SELF_MONITORING:
        if not has_role(actor, APPLICANT):
            raise Forbidden("Self-monitoring results are uploaded by the facility itself.")
    elif not has_role(actor, *RESULT_OFFICERS):
        raise Forbidden(
            "Importing laboratory results is reserved to the Superintendent and the engineer."
        )


def import_lab_file(
    data: bytes,
    source_name: str,
    actor: Actor | None,
    *,
    dry_run: bool = False,
    source: str = ImportSource.LAB_FILE,
    today: date | None = None,
    digest: str | None = None,
    mapping: LabMapping | None = None,
    sampler: str = Sampler.UNKNOWN,
    at: datetime | None = None,
) -> ImportReport:
    """Validate, evaluate and (unless ``dry_run`` or any error) store a laboratory file.

    ``actor`` None is the command line on the server (``sewer-use import-results`` without
    ``--as``), which acts for the office. ``mapping``: the laboratory's own layout
    (:mod:`sewer_io.lab_mapping`), read into the project's before anything is checked; the
    rows it refuses are errors of the report like any other, by the file's row numbers.
    ``sampler``: who took the samples whose row names no ``sampler`` (a facility's own upload:
    always the user, :mod:`.samplers`). ``at``: when the results reached the office (default
    now; the demo's back-dated story) — the day a user becomes aware of its results, for the
    repeat sample of 40 CFR 403.12(g)(2).
    """
    _check_importer(actor, source)
    report = ImportReport(source_name)
    digest = digest or hashlib.sha256(data).hexdigest()
    previous = LabImport.objects.filter(sha256=digest).first()
    # The same bytes again: refused as a whole (409), not row by row — but only said so to
    # whoever may see that import (an outside user learns nothing of another's file).
    if previous is not None and (
        actor is None or visible(LabImport.objects.filter(pk=previous.pk), actor).exists()
    ):
        report.refused = (
            f"{shorten(source_name)}: this file was already imported on "
            f"{timezone.localtime(previous.imported_at):%Y-%m-%d %H:%M} (import #{previous.pk}, "
            f"{shorten(previous.source_name)}); nothing was stored again"
        )
        return report
    raw, refused = read_lab_file(data, source_name, mapping)
    # Facility codes are matched without regard to case or spaces, by the engine's permit
    # limits as by the registry.
    raw = raw.with_columns(text_column(raw, "facility").str.to_uppercase().alias("facility"))
    report.rows = raw.height + len({r for r, _f, _m in refused})
    fac, errors = facilities(raw, actor)
    errors += refused
    errors += too_long(raw) + control_characters(raw)
    # Each row is judged under its facility's town's law: a row of a town whose law is its own
    # is not judged by the article's limits, and the file is refused as a whole.
    towns = fac.get_column("town")
    if other := by_town.other_laws(towns):
        report.refused = by_town.own_law_refusal(source_name, fac, other)
        report.errors = sorted(set(errors))
        return report
    # A row of no known facility is refused anyway; it is read (for its other errors) under
    # the file's first town's values, or the primary town's when the file names none.
    first = next(iter(by_town.towns_met(towns)), primary())
    est_ids = [int(i) for i in fac.get_column("est").drop_nulls().unique().to_list()]
    sp, sp_errors = sampling_points(raw, fac)
    errors += sp_errors
    custody, custody_errors = by_town.custody_by_town(raw, towns, default=first)
    errors += custody_errors
    who, who_errors = samplers.read_samplers(raw, sampler, source)
    errors += who_errors
    evaluated = by_town.evaluate_by_town(
        raw.drop("sampling_point", samplers.COLUMN, *CUSTODY_TIMES, *CUSTODY_TEXT, strict=False),
        towns,
        permit_limits(est_ids, monthly=False),
        default=first,
    )
    ev = evaluated.evaluation
    report.evaluation = ev
    report.parameters_version = ev.parameters_version
    errors += [(r, f, m) for r, f, m in ev.errors.select("row", "field", "message").iter_rows()]
    valid = ev.results.select("row", "analyte")
    keyed = (
        raw.select(
            "row",
            text_column(raw, "sample_id").alias("sample_id"),
            text_column(raw, "sampled_at").alias("sampled_at"),
        )
        .with_columns(fac.get_column("est"), sp, who)
        .join(valid, on="row", how="left")
    )
    errors += sample_consistency(keyed) + samplers.sampler_consistency(keyed)
    keyed = keyed.join(
        ev.results.select("row", pl.col("sampled_utc").alias("utc"), "sample_type"),
        on="row",
        how="left",
        maintain_order="left",
    )
    recorded = recorded_samples(keyed)
    est_towns = by_town.facility_towns(fac)
    errors += against_recorded(keyed, recorded, by_town.zones(est_towns))
    errors += samplers.against_recorded(keyed, recorded)
    errors += already_stored(keyed, recorded)
    report.errors = sorted(set(errors))
    report.statuses = dict(ev.results.get_column("status").value_counts().iter_rows())
    report.findings = ev.findings.height + ev.advisories.height
    if not report.ok or dry_run:
        return report
    rows = ev.results.join(
        raw.select(
            "row",
            text_column(raw, "qualifier").alias("qualifier"),
            text_column(raw, "reporting_limit").alias("reporting_limit"),
        )
        .with_columns(fac.get_column("est"), sp, who)
        .hstack(custody),
        on="row",
    )
    try:
        lab_import, monthly = save_import(
            report.statuses,
            digest,
            source,
            source_name,
            actor,
            est_ids,
            rows,
            ev,
            recorded,
            evaluated,
            {est: evaluated.versions[town] for est, town in est_towns.items()},
            today,
            mapping=mapping.to_dict() if mapping is not None else {},
            at=at,
        )
    except IntegrityError:
        report.refused = (
            f"{source_name}: a sample of this file is already recorded for its facility with a "
            "collection time far from the file's; nothing was stored (see the facility's samples)"
        )
        return report
    report.stored, report.lab_import, report.monthly = True, lab_import, monthly
    report.findings = lab_import.finding_count
    return report
