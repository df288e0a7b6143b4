"""What an upload of readings stores once it is accepted: the readings, the day totals, and the
engine's judgement of them — slugs (§ 196-15 SLUG) and pH or temperature excursions — as
findings, a slug the new readings prolong superseding the one stored before.

The determinations are the engine's (:func:`sewer_engines.monitoring.analysis.analyse_series`):
this module chooses the readings it judges — the uploaded period plus the stored history the
slug baseline averages over — and stores what it found. The service that accepts or refuses an
upload is :func:`.services.upload_readings`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl
from django.db import IntegrityError

from sewer_engines.monitoring.analysis import SeriesReport, analyse_series
from sewer_engines.monitoring.series import Series
from sewer_engines.monitoring.source import RowError
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.core import audit, bulk
from sewer_office.core.errors import OfficeError
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import record_finding
from sewer_rules.findings import UsedParameter
from sewer_rules.monitoring.instants import (
    US_PER_HOUR,
    US_PER_SECOND,
    instant,
    iso,
    local_date,
    show,
    to_us,
    value_on,
)
from sewer_rules.monitoring.slugs import REPORT, Slug, slug_findings
from sewer_rules.parameters import ParameterSet

from . import days
from .baselines import meter_options
from .models import (
    Excursion,
    Meter,
    Reading,
    ReadingUpload,
    SlugEvent,
    SlugReevaluation,
)
from .superseding import SLUG_CITATION, slug_key, stored_key, supersede

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


def store_upload(
    meter: Meter,
    times: list[int],
    values: list[str],
    missing: int,
    digest: str,
    name: str,
    actor: Actor | None,
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
            uploaded_by=person_or_none(actor),
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
    actor: Actor | None,
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
            out.append(record_slug(meter, upload, s, p, used))
        elif stored_key(old) != slug_key(s):
            continued.append((old, s))
    if continued:
        record = SlugReevaluation.objects.create(
            meter=meter,
            actor=person_or_none(actor),
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
        out += [record_slug(meter, old.upload, s, p, used, record) for old, s in continued]
    return out


def current_slugs(meter: Meter) -> Any:
    """The meter's slugs as the law is read now (not superseded by a re-evaluation)."""
    return meter.slugs.filter(superseded_by__isnull=True)


def record_slug(
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
