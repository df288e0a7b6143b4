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
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, cast
from zoneinfo import ZoneInfo

import polars as pl
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from sewer_io.check_io import UnusableFile, frame_with_rows, mapped_rows
from sewer_io.lab_mapping import LabMapping
from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import APPLICANT, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit, bulk
from sewer_office.core.errors import Forbidden, shorten, upload_refused
from sewer_office.findings.choices import FindingKind, ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.services import QUIET_STATUSES
from sewer_office.registry.models import Establishment
from sewer_rules.analytes import resolve
from sewer_rules.evaluation import Evaluation, evaluate_table
from sewer_rules.evaluation.permit_limits import PermitLimits
from sewer_rules.evaluation.prepare import parse_datetimes
from sewer_rules.hostile import CONTROL_PATTERN, TextRefused, control_character, utf8_text
from sewer_rules.parameters import ParameterSet, load_jurisdiction

from . import samplers
from .choices import ImportSource, Sampler
from .models import DischargeLimit, LabImport, LabResult, SamplingEvent, SamplingPoint

if TYPE_CHECKING:
    from polars._typing import PolarsDataType

CUSTODY_TIMES = ("relinquished_at", "received_at")
#: Values per ``IN (...)`` list: SQLite bounds the parameters of one statement.
IN_CHUNK = 500
CUSTODY_TEXT = ("collected_by", "relinquished_by", "received_by", "laboratory")

#: The file's text columns and the field each is stored in: longer than the field is a row error
#: (at validation, with the row and column, never a failure of the database's insert).
STORED_TEXT: dict[str, tuple[type[Any], str]] = {
    "sample_id": (SamplingEvent, "sample_id"),
    "sample_type": (SamplingEvent, "sample_type"),
    **{name: (SamplingEvent, name) for name in CUSTODY_TEXT},
    "value": (LabResult, "value_text"),
    "unit": (LabResult, "unit"),
    "qualifier": (LabResult, "qualifier"),
    "reporting_limit": (LabResult, "reporting_limit"),
    "method": (LabResult, "method"),
}

__all__ = ["ImportReport", "UnusableFile", "import_lab_file", "read_lab_bytes", "read_upload"]


def read_upload(upload: Any) -> bytes:
    """An uploaded laboratory file's bytes, refused by its size before it is read."""
    name = str(getattr(upload, "name", "") or "upload")
    refusal = upload_refused(name, int(upload.size))
    if refusal:
        raise UnusableFile(refusal)
    return cast(bytes, upload.read())


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


def read_lab_bytes(data: bytes, source_name: str) -> pl.DataFrame:
    """The file as text columns plus ``row``; :class:`UnusableFile` when it cannot be read."""
    raw, _refused = read_lab_file(data, source_name)
    return raw


def read_lab_file(
    data: bytes, source_name: str, mapping: LabMapping | None = None
) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """The file in the project's layout (text columns plus ``row``, the file's lines) and the
    rows its laboratory's ``mapping`` refused (none without a mapping: the file is then in the
    project's own layout). Without a ``sampling_point`` in the mapping, every row's is blank
    (the facility's only sampling point). :class:`UnusableFile` when it cannot be read."""
    frame = csv_text_frame(data, source_name)
    refused: list[tuple[int, str, str]] = []
    if mapping is None:
        raw = frame_with_rows(frame, source_name)
    else:
        if not frame.columns or frame.columns == [""]:
            raise UnusableFile(f"{source_name}: empty file (no header)")
        numbered = frame.with_row_index("row", offset=2).with_columns(pl.col("row").cast(pl.Int64))
        # Blank lines are dropped before the mapping's constants would fill them.
        numbered = numbered.filter(~pl.all_horizontal(pl.exclude("row").is_null()))
        mapped = mapped_rows(numbered, source_name, mapping)
        raw, refused = mapped.frame, list(mapped.errors.iter_rows())
        if "facility" not in raw.columns:
            raise UnusableFile(
                f"{source_name}: the mapping '{mapping.name}' gives no facility (a column or a "
                "constant)"
            )
        if "sampling_point" not in raw.columns:
            raw = raw.with_columns(pl.lit(None, dtype=pl.String).alias("sampling_point"))
    # Blank lines (a trailing newline too many) are not results.
    raw = raw.filter(~pl.all_horizontal(pl.exclude("row").is_null()))
    if raw.height == 0 and not refused:
        raise UnusableFile(f"{source_name}: empty file (a header but no rows)")
    if "facility" not in raw.columns:
        raise UnusableFile(f"{source_name}: missing required column 'facility'")
    if "sampling_point" not in raw.columns:
        raise UnusableFile(f"{source_name}: missing required column 'sampling_point'")
    return raw, refused


def csv_text_frame(data: bytes, source_name: str) -> pl.DataFrame:
    """The file's CSV as text columns, its header as written; refused by size, name or text."""
    refusal = upload_refused(source_name, len(data))
    if refusal:
        raise UnusableFile(refusal)
    name_limit = LabImport._meta.get_field("source_name").max_length or 0
    if len(source_name) > name_limit:
        raise UnusableFile(
            f"{shorten(source_name)}: a file name of {len(source_name)} characters, longer than "
            f"the {name_limit} stored"
        )
    try:  # a UTF-8 byte order mark (spreadsheets write one) is dropped, not a header
        data = utf8_text(data).encode("utf-8")
    except TextRefused as e:
        raise UnusableFile(f"{shorten(source_name)}: {e}") from None
    try:
        frame = pl.read_csv(
            io.BytesIO(data), infer_schema=False, encoding="utf8", raise_if_empty=False
        )
    except (pl.exceptions.PolarsError, UnicodeDecodeError) as e:
        raise UnusableFile(f"{source_name}: unreadable as CSV: {str(e).splitlines()[0]}") from None
    return frame


def params_in_force() -> ParameterSet:
    return load_jurisdiction(settings.SEWER_USE_JURISDICTION)


def permit_limits(
    establishment_ids: list[int], *, monthly: bool = True, only_monthly: bool = False
) -> PermitLimits | None:
    """The facilities' discharge limits as the engine reads them (None when there are none).

    ``monthly=False`` leaves out monthly averages: an import judges them separately, on
    complete months and over every stored result of the month, not only the file's.
    """
    limits = DischargeLimit.objects.filter(establishment_id__in=establishment_ids)
    if not monthly:
        limits = limits.exclude(limit_type="monthly_average")
    if only_monthly:
        limits = limits.filter(limit_type="monthly_average")
    records = [
        lim.as_record() for lim in limits.select_related("establishment", "approval").order_by("id")
    ]
    return PermitLimits.from_records(records, "discharge limits") if records else None


# --- validation ---------------------------------------------------------------------------------


def _text(raw: pl.DataFrame, name: str) -> pl.Expr:
    if name in raw.columns:
        return pl.col(name).str.strip_chars().fill_null("")
    return pl.lit("")


def _facilities(raw: pl.DataFrame, actor: Any) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """Map facility codes to establishments the actor may report for; errors for the rest."""
    codes = raw.select(_text(raw, "facility").str.to_uppercase().alias("code")).get_column("code")
    wanted = sorted(c for c in codes.unique().to_list() if c)
    known: dict[str, int] = {}
    for i in range(0, len(wanted), IN_CHUNK):  # a file may name any number of codes
        qs = Establishment.objects.filter(code__in=wanted[i : i + IN_CHUNK])
        if actor is not None:  # None: the command line at the server, which acts for the office
            qs = visible(qs, actor)
        known.update(qs.values_list("code", "id"))
    frame = raw.select("row").with_columns(
        codes.alias("code"),
        codes.replace_strict(known, default=None, return_dtype=pl.Int64).alias("est"),
    )
    bad = frame.filter(pl.col("est").is_null())
    errors = [
        (
            r,
            "facility",
            "missing (the facility code of an establishment)"
            if not code
            else f"'{code}' is not a facility code you may report for",
        )
        for r, code in bad.select("row", "code").iter_rows()
    ]
    return frame, errors


def _sampling_points(
    raw: pl.DataFrame, fac: pl.DataFrame
) -> tuple[pl.Series, list[tuple[int, str, str]]]:
    """Each row's sampling point id: its code at the facility, or — when blank — the facility's
    only active sampling point."""
    ids = [int(i) for i in fac.get_column("est").drop_nulls().unique().to_list()]
    points = pl.DataFrame(
        list(
            SamplingPoint.objects.filter(establishment_id__in=ids, active=True).values_list(
                "id", "establishment_id", "code"
            )
        ),
        schema={"sp": pl.Int64, "est": pl.Int64, "code": pl.String},
        orient="row",
    ).with_columns(pl.col("code").str.to_uppercase())
    single = (
        points.group_by("est")
        .agg(pl.col("sp").first(), pl.len().alias("n"))
        .filter(pl.col("n") == 1)
        .select("est", pl.col("sp").alias("only"))
    )
    rows = (
        fac.select("row", "est")
        .with_columns(
            raw.select(_text(raw, "sampling_point").str.to_uppercase().alias("code")).to_series()
        )
        .join(points, on=["est", "code"], how="left", maintain_order="left")
        .join(single, on="est", how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("code") == "").then(pl.col("only")).otherwise(pl.col("sp")).alias("sp")
        )
    )
    bad = rows.filter(pl.col("est").is_not_null() & pl.col("sp").is_null())
    errors = [
        (
            r,
            "sampling_point",
            "missing (the facility has several sampling points, or none)"
            if not code
            else f"'{code}' is not a sampling point of the facility",
        )
        for r, code in bad.select("row", "code").iter_rows()
    ]
    return rows.get_column("sp"), errors


def _sample_consistency(frame: pl.DataFrame) -> list[tuple[int, str, str]]:
    """One time and one sampling point per sample; no parameter twice in a sample."""
    errors: list[tuple[int, str, str]] = []
    # A row without a sample_id is already an error of its own: it belongs to no sample, so
    # it is compared with no other row (else every such row would also "differ" from the first).
    keyed = frame.filter(pl.col("est").is_not_null() & pl.col("sample_id").fill_null("").ne(""))
    first = keyed.group_by("est", "sample_id").agg(
        pl.col("sampled_at").first().alias("t0"),
        pl.col("sp").first().alias("sp0"),
        pl.col("row").first().alias("r0"),
    )
    joined = keyed.join(first, on=["est", "sample_id"])
    for r, r0 in (
        joined.filter(pl.col("sampled_at") != pl.col("t0")).select("row", "r0").iter_rows()
    ):
        errors.append((r, "sampled_at", f"differs from the same sample's time on row {r0}"))
    for r, r0 in joined.filter(pl.col("sp") != pl.col("sp0")).select("row", "r0").iter_rows():
        errors.append((r, "sampling_point", f"differs from the same sample's on row {r0}"))
    dup = keyed.filter(pl.col("analyte").is_not_null()).with_columns(
        pl.col("row").first().over("est", "sample_id", "analyte").alias("r0")
    )
    for r, r0 in dup.filter(pl.col("row") != pl.col("r0")).select("row", "r0").iter_rows():
        errors.append((r, "parameter", f"the sample's result for this parameter is on row {r0}"))
    return errors


#: How far from a file's sampling times a sample recorded beforehand is looked for.
RECORDED_SAMPLE_WINDOW = timedelta(days=60)


def recorded_samples(frame: pl.DataFrame) -> pl.DataFrame:
    """The samples of the file already recorded (by an earlier file, or when they were taken):
    ``est, sample_id, event, collected, event_sp, event_type, event_sampler``.

    Looked up among the facilities' samples around the file's time span, so the query stays
    small however large the file; a sample is recorded once per facility and sample id.
    """
    schema: dict[str, PolarsDataType] = {
        "event": pl.Int64,
        "est": pl.Int64,
        "sample_id": pl.String,
        "collected": pl.Datetime("us", "UTC"),
        "event_sp": pl.Int64,
        "event_type": pl.String,
        "event_sampler": pl.String,
    }
    keyed = frame.filter(pl.col("est").is_not_null() & pl.col("utc").is_not_null())
    if keyed.height == 0:
        return pl.DataFrame(schema=schema)
    ids = [int(i) for i in keyed.get_column("est").unique().to_list()]
    # a non-empty datetime column: its min and max are datetimes
    t0 = cast(datetime, keyed.get_column("utc").min()) - RECORDED_SAMPLE_WINDOW
    t1 = cast(datetime, keyed.get_column("utc").max()) + RECORDED_SAMPLE_WINDOW
    events = pl.DataFrame(
        list(
            SamplingEvent.objects.filter(
                establishment_id__in=ids, collected_at__gte=t0, collected_at__lte=t1
            ).values_list(
                "id",
                "establishment_id",
                "sample_id",
                "collected_at",
                "sampling_point_id",
                "sample_type",
                "sampler",
            )
        ),
        schema=schema,
        orient="row",
    )
    wanted = keyed.select("est", "sample_id").unique()
    return events.join(wanted, on=["est", "sample_id"])


def _against_recorded(
    frame: pl.DataFrame, recorded: pl.DataFrame, tz: str
) -> list[tuple[int, str, str]]:
    """Rows that contradict their sample as recorded: another time, point or sample type."""
    matched = frame.filter(pl.col("utc").is_not_null()).join(recorded, on=["est", "sample_id"])
    errors = []
    for r, sid, at in (
        matched.filter(pl.col("utc") != pl.col("collected"))
        .select("row", "sample_id", "collected")
        .iter_rows()
    ):
        local = at.astimezone(ZoneInfo(tz))
        errors.append(
            (r, "sampled_at", f"sample {sid} was recorded as collected at {local:%Y-%m-%d %H:%M}")
        )
    for r, sid in (
        matched.filter(
            pl.col("event_sp").is_not_null()
            & pl.col("sp").is_not_null()
            & (pl.col("sp") != pl.col("event_sp"))
        )
        .select("row", "sample_id")
        .iter_rows()
    ):
        errors.append((r, "sampling_point", f"sample {sid} was recorded at another sampling point"))
    for r, sid, kind in (
        matched.filter(
            pl.col("sample_type").is_not_null() & (pl.col("sample_type") != pl.col("event_type"))
        )
        .select("row", "sample_id", "event_type")
        .iter_rows()
    ):
        errors.append((r, "sample_type", f"sample {sid} was recorded as a {kind} sample"))
    return errors


def _already_stored(frame: pl.DataFrame, recorded: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows whose sample and parameter already have a current stored result."""
    matched = frame.filter(pl.col("analyte").is_not_null()).join(
        recorded.select("est", "sample_id", "event"), on=["est", "sample_id"]
    )
    if matched.height == 0:
        return []
    event_ids = matched.get_column("event").unique().to_list()
    stored: list[tuple[int, str, int]] = []
    for i in range(0, len(event_ids), IN_CHUNK):
        stored += list(
            LabResult.objects.filter(event_id__in=event_ids[i : i + IN_CHUNK])
            .exclude(state="superseded")
            .values_list("event_id", "parameter", "id")
        )
    table = pl.DataFrame(
        stored, schema={"event": pl.Int64, "analyte": pl.String, "existing": pl.Int64}, orient="row"
    )
    hits = matched.join(table, on=["event", "analyte"])
    return [
        (r, "parameter", f"already stored as result #{e}: record a correction that supersedes it")
        for r, e in hits.select("row", "existing").iter_rows()
    ]


def _lengths(raw: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows with a text longer than the field it is stored in (:data:`STORED_TEXT`)."""
    errors: list[tuple[int, str, str]] = []
    for column, (model, name) in STORED_TEXT.items():
        if column not in raw.columns:
            continue
        limit = model._meta.get_field(name).max_length
        length = pl.col(column).str.strip_chars().str.len_chars()
        long = raw.filter(length > limit).select("row", length.alias("n"))
        errors += [
            (row, column, f"{n:,} characters, longer than the {limit} stored")
            for row, n in long.iter_rows()
        ]
    return errors


def _controls(raw: pl.DataFrame) -> list[tuple[int, str, str]]:
    """Rows with a control character (NUL...) in a cell: no record may hold one (PostgreSQL
    refuses a NUL in text), so the row is refused with its field, not stored or failed."""
    errors: list[tuple[int, str, str]] = []
    for column in raw.columns:
        if column == "row" or raw.schema[column] != pl.String:
            continue
        bad = raw.filter(pl.col(column).str.contains(CONTROL_PATTERN).fill_null(False))
        for row, text in bad.select("row", column).iter_rows():
            errors.append(
                (row, column, f"holds the control character {control_character(text)}: remove it")
            )
    return errors


def _custody(raw: pl.DataFrame, tz: str) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    cols: dict[str, pl.Series] = {}
    errors = []
    for name in CUSTODY_TIMES:
        if name not in raw.columns:
            cols[name] = pl.Series(name, [None] * raw.height, dtype=pl.Datetime("us", "UTC"))
            continue
        text = raw.get_column(name).str.strip_chars().fill_null("")
        parsed = parse_datetimes(text.replace("", None), tz).get_column("utc").alias(name)
        bad = raw.select("row").filter((text != "") & parsed.is_null())
        errors += [(r, name, "not a date and time (ISO 8601)") for (r,) in bad.iter_rows()]
        cols[name] = parsed
    text_cols = raw.select("row", *[_text(raw, c).alias(c) for c in CUSTODY_TEXT]).drop("row")
    return pl.DataFrame(list(cols.values())).hstack(text_cols), errors


# --- the import ---------------------------------------------------------------------------------

#: Who stores and corrects the office's laboratory results (§ 196-15 SUPERINTENDENT, ENGINEER).
RESULT_OFFICERS = (SUPERINTENDENT, ENGINEER)


def source_for(actor: Any, *, manual: bool = False) -> str:
    """The kind of import ``actor`` makes: the office's (a laboratory file, or results typed
    in), or a facility's own self-monitoring results."""
    if actor is None or has_role(actor, *RESULT_OFFICERS):
        return ImportSource.MANUAL if manual else ImportSource.LAB_FILE
    return ImportSource.SELF_MONITORING


def _check_importer(actor: Any, source: str) -> None:
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
    actor: Any,
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
    raw = raw.with_columns(_text(raw, "facility").str.to_uppercase().alias("facility"))
    report.rows = raw.height + len({r for r, _f, _m in refused})
    params = params_in_force()
    fac, errors = _facilities(raw, actor)
    errors += refused
    errors += _lengths(raw) + _controls(raw)
    est_ids = [int(i) for i in fac.get_column("est").drop_nulls().unique().to_list()]
    sp, sp_errors = _sampling_points(raw, fac)
    errors += sp_errors
    custody, custody_errors = _custody(raw, params.timezone)
    errors += custody_errors
    who, who_errors = samplers.read_samplers(raw, sampler, source)
    errors += who_errors
    ev = evaluate_table(
        raw.drop("sampling_point", samplers.COLUMN, *CUSTODY_TIMES, *CUSTODY_TEXT, strict=False),
        params,
        permit_limits(est_ids, monthly=False),
    )
    report.evaluation = ev
    report.parameters_version = ev.parameters_version
    errors += [(r, f, m) for r, f, m in ev.errors.select("row", "field", "message").iter_rows()]
    valid = ev.results.select("row", "analyte")
    keyed = (
        raw.select(
            "row",
            _text(raw, "sample_id").alias("sample_id"),
            _text(raw, "sampled_at").alias("sampled_at"),
        )
        .with_columns(fac.get_column("est"), sp, who)
        .join(valid, on="row", how="left")
    )
    errors += _sample_consistency(keyed) + samplers.sampler_consistency(keyed)
    keyed = keyed.join(
        ev.results.select("row", pl.col("sampled_utc").alias("utc"), "sample_type"),
        on="row",
        how="left",
        maintain_order="left",
    )
    recorded = recorded_samples(keyed)
    errors += _against_recorded(keyed, recorded, params.timezone)
    errors += samplers.against_recorded(keyed, recorded)
    errors += _already_stored(keyed, recorded)
    report.errors = sorted(set(errors))
    report.statuses = dict(ev.results.get_column("status").value_counts().iter_rows())
    report.findings = ev.findings.height + ev.advisories.height
    if not report.ok or dry_run:
        return report
    rows = ev.results.join(
        raw.select(
            "row",
            _text(raw, "qualifier").alias("qualifier"),
            _text(raw, "reporting_limit").alias("reporting_limit"),
        )
        .with_columns(fac.get_column("est"), sp, who)
        .hstack(custody),
        on="row",
    )
    try:
        lab_import, monthly = _save(
            report,
            digest,
            source,
            source_name,
            actor,
            est_ids,
            rows,
            ev,
            recorded,
            params,
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


def _save(
    report: ImportReport,
    digest: str,
    source: str,
    source_name: str,
    actor: Any,
    est_ids: list[int],
    rows: pl.DataFrame,
    ev: Evaluation,
    recorded: pl.DataFrame,
    params: ParameterSet,
    today: date | None,
    *,
    mapping: dict[str, Any],
    at: datetime | None = None,
) -> tuple[LabImport, list[dict[str, Any]]]:
    """Store the validated import in one transaction, with its audit event (``mapping``: the
    laboratory mapping the file was read through, empty for the project's layout)."""
    with transaction.atomic():
        lab_import = LabImport.objects.create(
            sha256=digest,
            source=source,
            source_name=source_name[:300],
            imported_by=actor if getattr(actor, "is_authenticated", False) else None,
            jurisdiction=settings.SEWER_USE_JURISDICTION,
            parameters_version=ev.parameters_version,
            establishment_id=est_ids[0] if source == ImportSource.SELF_MONITORING else None,
            mapping=mapping,
            imported_at=at or timezone.now(),
        )
        stored = _store(lab_import, rows, ev, recorded)
        lab_import.result_count, lab_import.finding_count = rows.height, stored
        monthly = judge_complete_months(lab_import.parameters_version, rows, params, today)
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
                "statuses": report.statuses,
                "parameters_version": ev.parameters_version,
                "mapping": mapping.get("name", ""),
            },
            citation="§ 196-19 I",
            at=at,
        )
    return lab_import, monthly


def _store(
    lab_import: LabImport, rows: pl.DataFrame, ev: Evaluation, recorded: pl.DataFrame
) -> int:
    """Samples (those not recorded before), results and findings in bulk; returns the number of
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
            pl.lit(lab_import.parameters_version).alias("parameters_version"),
            pl.when(pl.col("status").is_in(quiet))
            .then(pl.lit(ReviewState.NONE.value))
            .otherwise(pl.lit(ReviewState.NEW.value))
            .alias("review"),
            pl.lit(now).alias("created_at"),
            pl.lit(True).alias("current"),
        ),
    )
    return everything.height


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


def judge_complete_months(
    parameters_version: str, rows: pl.DataFrame, params: ParameterSet, today: date | None
) -> list[dict[str, Any]]:
    """Monthly averages of the facility-months ``rows`` touched (columns ``est``, ``day``) that
    have ended, over every current result of each such month; all judged in one evaluation."""
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
    tz = ZoneInfo(params.timezone)
    first = min(m for _, m in touched)
    last = _next_month(max(m for _, m in touched))
    codes = dict(Establishment.objects.filter(pk__in=judged).values_list("id", "code"))
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
