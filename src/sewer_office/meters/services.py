"""Meters' services: registering a meter, storing an upload of readings and judging it,
recording a user's report of a slug, and flagging slugs nobody reported.

Every service writes its audit event in the transaction that makes the change. The
determinations are the engine's (:func:`sewer_rules.monitoring.analysis.analyse_series`):
this module only chooses the readings it judges — the uploaded period plus the stored
history the slug baseline averages over — and stores what it found as findings.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from sewer_office.accounts.access import can_see
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role, is_staff_member
from sewer_office.core import audit, bulk
from sewer_office.core.errors import Forbidden, InvalidInput, OfficeError, shorten
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import record_finding
from sewer_office.monitoring.models import SamplingPoint
from sewer_rules.analytes import BY_NAME
from sewer_rules.findings import UsedParameter
from sewer_rules.monitoring.analysis import SeriesReport, analyse_series
from sewer_rules.monitoring.readings import canonical_parameter
from sewer_rules.monitoring.series import (
    US_PER_HOUR,
    US_PER_SECOND,
    Series,
    instant,
    iso,
    local_date,
    show,
    to_us,
    value_on,
)
from sewer_rules.monitoring.slugs import REPORT, Slug, slug_findings
from sewer_rules.monitoring.source import RowError
from sewer_rules.parameters import ParameterSet, load_jurisdiction
from sewer_rules.units import ALIASES, UNITS

from . import days
from .baselines import meter_options
from .choices import ReportChannel
from .files import UploadUnusable, read_for_meter
from .models import (
    Excursion,
    Meter,
    Reading,
    ReadingUpload,
    SlugEvent,
    SlugReevaluation,
    SlugReport,
)
from .superseding import SLUG_CITATION, slug_key, stored_key, supersede

#: Who registers meters and uploads any facility's readings; staff who receive reports.
METER_ROLES = (SUPERINTENDENT, ENGINEER)
BATCH = 5000
REPORT_CITATION = str(REPORT)


class UploadRefused(OfficeError):
    """Readings refused, nothing stored: every failing row and field in ``errors``."""

    def __init__(self, message: str, errors: list[RowError], total: int | None = None) -> None:
        super().__init__(message)
        self.errors = errors
        self.total = len(errors) if total is None else total

    def as_list(self) -> list[dict[str, object]]:
        return [e.as_dict() for e in self.errors]


def params() -> ParameterSet:
    return load_jurisdiction(settings.SEWER_USE_JURISDICTION)


def report_window() -> timedelta:
    """How soon after a slug begins its report must be recorded.

    § 196-19 D(9)(d) says "immediately" and gives no number. The office reads it as
    ``SEWER_USE_SLUG_REPORT_HOURS`` (default 24 hours): a local policy setting of this
    office, not a number of the law.
    """
    return timedelta(hours=float(getattr(settings, "SEWER_USE_SLUG_REPORT_HOURS", 24)))


# --- meters ------------------------------------------------------------------------------------


def register_meter(
    actor: Any,
    *,
    sampling_point: SamplingPoint,
    ident: str,
    parameter: str,
    unit: str = "",
    description: str = "",
    max_gap_seconds: int | None = None,
) -> Meter:
    """Register a meter (Superintendent or engineer); the parameter and unit are checked
    against the engine's names so that its readings can be judged."""
    if actor is not None and not has_role(actor, *METER_ROLES):
        raise Forbidden("Meters are registered by the Superintendent or the engineer.")
    errors: dict[str, list[str]] = {}
    ident = ident.strip()
    if not ident:
        errors["ident"] = ["Give the meter's id."]
    elif Meter.objects.filter(ident=ident).exists():
        errors["ident"] = [f"A meter {ident} is already registered."]
    try:
        name = canonical_parameter(parameter)
    except KeyError:
        errors["parameter"] = [f"unknown parameter '{parameter}'"]
        name = ""
    symbol = ""
    if name:
        analyte = BY_NAME[name]
        alias = ALIASES.get(" ".join(unit.lower().split())) if unit.strip() else None
        symbol = alias or (analyte.canonical_unit if not unit.strip() else "")
        if not symbol:
            errors["unit"] = [f"unknown unit '{unit}'"]
        elif UNITS[symbol].dimension != analyte.dimension:
            errors["unit"] = [f"unit '{unit}' does not measure {name}"]
    if max_gap_seconds is not None and max_gap_seconds <= 0:
        errors["max_gap_seconds"] = ["must be positive"]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        Meter,
        {
            "sampling_point": sampling_point,
            "ident": ident,
            "parameter": name,
            "unit": symbol,
            "description": description,
            "max_gap_seconds": max_gap_seconds,
        },
        actor=actor,
        action="register_meter",
    )


def may_upload(actor: Any, meter: Meter) -> bool:
    """Superintendent and engineer for any meter; a facility's representative for its own
    meters (the issue: a facility uploads its own meter data); None is the system (CLI)."""
    if actor is None:
        return True
    if has_role(actor, *METER_ROLES):
        return True
    return not is_staff_member(actor) and can_see(actor, meter)


# --- uploads -----------------------------------------------------------------------------------


@dataclass
class UploadResult:
    upload: ReadingUpload
    slugs: list[SlugEvent] = field(default_factory=list)
    excursions: list[Excursion] = field(default_factory=list)
    flagged: int = 0

    def as_dict(self) -> dict[str, object]:
        u = self.upload
        return {
            "id": u.pk,
            "meter": u.meter.ident,
            "readings": u.count,
            "missing": u.missing,
            "unjudged": u.unjudged,
            "first": u.first_at.isoformat(),
            "last": u.last_at.isoformat(),
            "parameters_version": u.parameters_version,
            "slugs": [
                {
                    "id": s.pk,
                    "start": s.start.isoformat(),
                    "end": s.end.isoformat(),
                    "peak": s.peak,
                    "threshold": s.threshold,
                    "baseline": s.baseline,
                    "baseline_carried_from": (
                        s.baseline_carried_from.isoformat() if s.baseline_carried_from else None
                    ),
                    "citation": s.citation,
                }
                for s in self.slugs
            ],
            "excursions": [
                {
                    "id": e.pk,
                    "start": e.start.isoformat(),
                    "end": e.end.isoformat(),
                    "extreme": e.extreme,
                    "status": e.status,
                    "citation": e.citation,
                }
                for e in self.excursions
            ],
            "unreported_slugs_flagged": self.flagged,
        }


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def window_us(p: ParameterSet, at_us: int) -> int:
    """The baseline window (``slug.baseline_window``, 24 h) in force on that day."""
    hours = value_on(p, "slug.baseline_window", local_date(at_us, p.timezone))
    return int(Fraction(hours if hours is not None else 24) * US_PER_HOUR)


def history(meter: Meter, before_us: int | None = None) -> tuple[list[int], list[str]]:
    """Every stored reading of ``meter`` before ``before_us`` (None: all), oldest first.

    The whole stored series, not only the 24 hours before: whether a stored reading was
    "normal operation" (§ 196-15 SLUG; a reading above five times its own baseline is not,
    and enters no later baseline) depends on the readings before it, back to the first, so
    judging an upload exactly needs them all. Read as two columns, in time order.
    """
    rows = meter.readings.order_by("at")
    if before_us is not None:
        rows = rows.filter(at__lt=instant(before_us))
    times, values = [], []
    for at, value in rows.values_list("at", "value").iterator(chunk_size=BATCH):
        times.append(to_us(at))
        values.append(value)
    return times, values


def upload_readings(
    meter: Meter, path: str | Path, actor: Any, *, source_name: str = ""
) -> UploadResult:
    """Store a readings file for ``meter`` (appended) and judge it, all or nothing.

    Refused (:class:`UploadRefused`, nothing stored) for any row error, for a file already
    stored for this meter, and for readings not later than the meter's last stored reading.
    :class:`~sewer_office.meters.files.UploadUnusable` for a file that cannot be read.
    """
    if not may_upload(actor, meter):
        raise Forbidden(
            "Readings are uploaded by the Superintendent, the engineer or the facility."
        )
    path = Path(path)
    name = shorten(source_name or path.name)
    p = params()
    digest = sha256_of(path)
    if meter.uploads.filter(sha256=digest).exists():
        raise UploadRefused(
            f"{name}: this file was already stored for meter {meter.ident}",
            [RowError(0, "file", "the same file was already uploaded for this meter")],
        )
    data = read_for_meter(
        path,
        ident=meter.ident,
        parameter=meter.parameter,
        unit=meter.unit,
        timezone=p.timezone,
        name=name,
    )
    if data.errors_total:
        more = data.errors_total - len(data.errors)
        tail = f" (the first {len(data.errors)} listed)" if more else ""
        raise UploadRefused(
            f"{name}: {data.errors_total} row error(s){tail}, nothing stored",
            data.errors,
            data.errors_total,
        )
    if not data.times_us:
        raise UploadRefused(
            f"{name}: no readings", [RowError(0, "value", "the file holds no readings")]
        )
    with transaction.atomic():
        locked = Meter.objects.select_for_update().get(pk=meter.pk)
        last = locked.readings.order_by("-at").values_list("at", flat=True).first()
        first_us = data.times_us[0]
        if last is not None and to_us(last) >= first_us:
            raise UploadRefused(
                f"{name}: readings are appended: this file begins at "
                f"{iso(first_us, p.timezone)}, not after the meter's last stored reading "
                f"({last.astimezone(timezone.get_current_timezone()).isoformat()})",
                [
                    RowError(
                        0,
                        "timestamp",
                        "overlaps the readings already stored; upload only later readings",
                    )
                ],
            )
        result = _store(locked, data.times_us, data.values, data.missing, digest, name, actor, p)
    result.flagged = flag_unreported_slugs()
    return result


def _store(
    meter: Meter,
    times: list[int],
    values: list[str],
    missing: int,
    digest: str,
    name: str,
    actor: Any,
    p: ParameterSet,
) -> UploadResult:
    span = window_us(p, times[0])
    h_times, h_values = history(meter, times[0])
    series = Series.from_decimals(
        meter.ident, meter.parameter, meter.unit, h_times + times, h_values + values
    )
    options = meter_options(meter, p)
    report = analyse_series(series, p, options)
    t0 = int(series.t[0])
    # not judged: less than a day of the meter's history, and no fixed baseline yet in force
    fixed_at = min((at for at, _ in options.dated_baselines), default=None)
    early = t0 + span if fixed_at is None else min(t0 + span, fixed_at)
    unjudged = sum(1 for t in times if t < early) if report.baseline is not None else 0
    try:
        upload = ReadingUpload.objects.create(
            meter=meter,
            sha256=digest,
            source_name=name,
            uploaded_by=actor if getattr(actor, "is_authenticated", False) else None,
            first_at=instant(times[0]),
            last_at=instant(times[-1]),
            count=len(times),
            missing=missing,
            unjudged=unjudged,
            jurisdiction=p.jurisdiction,
            parameters_version=p.version,
        )
    except IntegrityError:
        raise UploadRefused(
            f"{name}: this file was already stored for meter {meter.ident}",
            [RowError(0, "file", "the same file was already uploaded for this meter")],
        ) from None
    bulk.insert(
        Reading,
        pl.DataFrame(
            {
                "meter_id": pl.Series([meter.pk] * len(times), dtype=pl.Int64),
                "upload_id": pl.Series([upload.pk] * len(times), dtype=pl.Int64),
                "at": pl.Series(times, dtype=pl.Int64).cast(pl.Datetime("us", "UTC")),
                "value": pl.Series(values, dtype=pl.String),
            }
        ),
    )
    # the daily volumes billing and pretreatment read (meters/days.py), in this transaction
    days.record_upload(meter, times, values, p.timezone)
    result = UploadResult(upload)
    result.slugs = _store_slugs(meter, upload, report, times[0], p, actor)
    result.excursions = _store_excursions(meter, upload, report, times[0], p)
    upload.slug_count, upload.excursion_count = len(result.slugs), len(result.excursions)
    upload.save(update_fields=["slug_count", "excursion_count"])
    audit.record(
        actor=actor,
        action="upload_readings",
        obj=meter,
        after={
            "upload": upload.pk,
            "source_name": name,
            "sha256": digest,
            "readings": upload.count,
            "first": upload.first_at.isoformat(),
            "last": upload.last_at.isoformat(),
            "slugs": upload.slug_count,
            "excursions": upload.excursion_count,
            "parameters_version": p.version,
        },
        citation=SLUG_CITATION if result.slugs else "",
    )
    return result


def _used(report: SeriesReport, name: str) -> UsedParameter | None:
    return next((u for u in report.used if u.name == name), None)


def _new(start: int, end: int, first_new: int) -> bool:
    """Whether a run involves the uploaded readings: one that ended by the first new reading
    was judged with an earlier upload."""
    return end > first_new


def _store_slugs(
    meter: Meter,
    upload: ReadingUpload,
    report: SeriesReport,
    first_new: int,
    p: ParameterSet,
    actor: Any,
) -> list[SlugEvent]:
    """Store the slugs the upload's readings take part in. A slug stored with the same start
    and found again as recorded stays; one the new readings continue (a discharge running on
    past the previous upload's last reading: it now lasts longer) is superseded, with that
    reason, by the slug as judged now (:mod:`.superseding`), so the office's record is the
    slug ``sewer-use slugs`` finds in the same readings."""
    used = _used(report, "slug.multiple")
    known = {e.start: e for e in current_slugs(meter)}
    out: list[SlugEvent] = []
    continued: list[tuple[SlugEvent, Slug]] = []
    for s in report.slugs:
        if not _new(s.start, s.end, first_new):
            continue
        old = known.get(instant(s.start))
        if old is None:
            out.append(_record_slug(meter, upload, s, p, used))
        elif stored_key(old) != slug_key(s):
            continued.append((old, s))
    if continued:
        record = SlugReevaluation.objects.create(
            meter=meter,
            actor=actor if getattr(actor, "is_authenticated", False) else None,
            reason=(
                f"the discharge continued in the readings of {upload.source_name or 'an upload'} "
                f"(upload {upload.pk}): the slug as judged with them replaces the slug recorded "
                "up to the previous upload's last reading"
            ),
            jurisdiction=p.jurisdiction,
            parameters_version=p.version,
            readings=report.readings,
        )
        supersede([old for old, _ in continued], record, actor)
        out += [_record_slug(meter, old.upload, s, p, used, record) for old, s in continued]
    return out


def current_slugs(meter: Meter) -> Any:
    """The meter's slugs as the law is read now (not superseded by a re-evaluation)."""
    return meter.slugs.filter(superseded_by__isnull=True)


def _record_slug(
    meter: Meter,
    upload: ReadingUpload,
    s: Slug,
    p: ParameterSet,
    used: UsedParameter | None,
    found_by: SlugReevaluation | None = None,
) -> SlugEvent:
    """Store one slug and its finding (inside the caller's transaction)."""
    event = SlugEvent.objects.create(
        meter=meter,
        upload=upload,
        start=instant(s.start),
        end=instant(s.end),
        peak=show(s.peak),
        baseline=show(s.baseline),
        threshold=show(s.threshold),
        baseline_carried_from=instant(s.carried_from) if s.carried_from is not None else None,
        unit=meter.unit,
        readings=s.readings,
        citation=SLUG_CITATION,
        report_citation=REPORT_CITATION,
        found_by=found_by,
    )
    found = slug_findings(s, p.timezone, reported_at=instant(s.start))[0]
    record_finding(
        source=event,
        establishment=meter.sampling_point.establishment,
        kind=FindingKind.SLUG,
        status=str(found.status),
        citation=f"{SLUG_CITATION}; {found.citation}",
        message=f"Meter {meter.ident} ({meter.parameter}): {found.message}",
        observed_at=event.start,
        limit=found.limit or "",
        limit_unit=meter.unit,
        parameter=used.name if used else "slug.multiple",
        effective=used.effective if used else None,
        parameters_version=p.version,
        analyte=meter.parameter,
    )
    return event


def _store_excursions(
    meter: Meter, upload: ReadingUpload, report: SeriesReport, first_new: int, p: ParameterSet
) -> list[Excursion]:
    out: list[Excursion] = []
    known = set(meter.excursions.values_list("start", "citation"))
    for e in report.excursions:
        citation = str(e.rule.citation)
        if not _new(e.start, e.end, first_new) or (instant(e.start), citation) in known:
            continue
        used = _used(report, e.rule.parameter)
        record = Excursion.objects.create(
            meter=meter,
            upload=upload,
            start=instant(e.start),
            end=instant(e.end),
            extreme=show(e.extreme),
            limit=show(e.limit),
            unit=meter.unit,
            readings=e.readings,
            status=str(e.status),
            citation=citation,
        )
        direction = "above" if e.rule.above else "below"
        record_finding(
            source=record,
            establishment=meter.sampling_point.establishment,
            kind=FindingKind.EXCURSION,
            status=str(e.status),
            citation=citation,
            message=(
                f"Meter {meter.ident}: {meter.parameter} {direction} {show(e.limit)} {meter.unit} "
                f"from {iso(e.start, p.timezone)} to {iso(e.end, p.timezone)} "
                f"({e.duration // (60 * US_PER_SECOND)} min, extreme {show(e.extreme)})"
            ),
            observed_at=record.start,
            limit=show(e.limit),
            limit_unit=meter.unit,
            parameter=e.rule.parameter,
            effective=used.effective if used else None,
            parameters_version=p.version,
            analyte=meter.parameter,
        )
        out.append(record)
    return out


# --- the user's report of a slug (§ 196-19 D(9)(d)) ---------------------------------------------


def may_record_report(actor: Any, slug: SlugEvent) -> bool:
    """Staff who receive reports (Superintendent, engineer), or the facility's own
    representative for its own slugs."""
    if has_role(actor, *METER_ROLES):
        return True
    return not is_staff_member(actor) and can_see(actor, slug.meter)


def record_slug_report(
    slug: SlugEvent,
    actor: Any,
    *,
    reported_at: datetime,
    channel: str,
    text: str = "",
) -> SlugReport:
    """Record the user's report of ``slug`` with the time it was made, audited."""
    if not may_record_report(actor, slug):
        raise Forbidden(
            "A slug report is recorded by the Superintendent, the engineer or the facility."
        )
    errors: dict[str, list[str]] = {}
    if channel not in ReportChannel.values:
        errors["channel"] = [f"'{channel}' is not one of {', '.join(ReportChannel.values)}"]
    if timezone.is_naive(reported_at):
        reported_at = timezone.make_aware(reported_at)
    if reported_at > timezone.now() + timedelta(minutes=5):
        errors["reported_at"] = ["A report cannot be recorded in the future."]
    elif reported_at < slug.start:
        errors["reported_at"] = ["A report cannot precede the slug it reports."]
    if errors:
        raise InvalidInput(errors)
    staff = is_staff_member(actor)
    with transaction.atomic():
        report = SlugReport.objects.create(
            slug=slug,
            reported_at=reported_at,
            channel=channel,
            text=text.strip(),
            received_by=actor if staff else None,
            reported_by=None if staff else actor,
        )
        audit.record(
            actor=actor,
            action="record_slug_report",
            obj=slug,
            after=audit.snapshot(report),
            citation=REPORT_CITATION,
        )
    return report


def reported_in_time(slug: SlugEvent) -> bool:
    return slug.all_reports().filter(reported_at__lte=slug.start + report_window()).exists()


def flag_unreported_slugs(now: datetime | None = None) -> int:
    """Record a finding (kind UNREPORTED_SLUG, § 196-19 D(9)(d)) for every slug with no report
    made within :func:`report_window` of its start, once per slug; the number flagged.

    A slug is flagged once the window has passed both since it began and since the upload
    that revealed it: readings often arrive days later, and the office must have the window
    to record a report the user did make in time (by telephone, say) before the missing
    report becomes a finding. Whether the report was in time is judged by its own time.
    Meant to run after each upload and from cron (``sewer-use flag-overdue``).
    """
    now = now or timezone.now()
    window = report_window()
    hours = window.total_seconds() / 3600
    flagged = 0
    candidates = SlugEvent.objects.filter(
        flagged_unreported_at__isnull=True,
        superseded_by__isnull=True,
        start__lte=now - window,
        upload__uploaded_at__lte=now - window,
    ).values_list("pk", flat=True)
    for pk in list(candidates):
        with transaction.atomic():
            slug = (
                SlugEvent.objects.select_for_update()
                .select_related("meter__sampling_point__establishment")
                .get(pk=pk)
            )
            if slug.flagged_unreported_at is not None or reported_in_time(slug):
                continue
            slug.flagged_unreported_at = now
            slug.save(update_fields=["flagged_unreported_at"])
            tz = params().timezone
            record_finding(
                source=slug,
                establishment=slug.meter.sampling_point.establishment,
                kind=FindingKind.UNREPORTED_SLUG,
                status="review",
                citation=REPORT_CITATION,
                message=(
                    f"Meter {slug.meter.ident}: no report by the user recorded within "
                    f"{hours:g} h (office policy for 'immediately') of the slug from "
                    f"{iso(to_us(slug.start), tz)} to {iso(to_us(slug.end), tz)}; all slug "
                    "discharges must be reported immediately by the user"
                ),
                observed_at=slug.start,
                analyte=slug.meter.parameter,
            )
            audit.record(
                actor=None,
                action="flag_unreported_slug",
                obj=slug,
                citation=REPORT_CITATION,
                reason=f"no report within {hours:g} h",
            )
            flagged += 1
    return flagged


def unreported(qs: Any) -> Any:
    """Current slugs of ``qs`` with no report recorded at all (a report of a superseded slug
    of the same discharge counts, see :meth:`SlugEvent.all_reports`)."""
    mine = Q(slug=OuterRef("pk")) | Q(
        slug__meter=OuterRef("meter"),
        slug__superseded_by__isnull=False,
        slug__start__lt=OuterRef("end"),
        slug__end__gt=OuterRef("start"),
    )
    return (
        qs.filter(superseded_by__isnull=True)
        .annotate(has_report=Exists(SlugReport.objects.filter(mine)))
        .filter(has_report=False)
    )


__all__ = [
    "UploadRefused",
    "UploadUnusable",
    "flag_unreported_slugs",
    "meter_options",
    "record_slug_report",
    "register_meter",
    "upload_readings",
]
