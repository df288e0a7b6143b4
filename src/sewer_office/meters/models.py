"""Meters, their readings, the slugs found in them, and the users' reports of those slugs.

A :class:`Meter` continuously measures one parameter (flow, pH, temperature, a
concentration) at a facility's sampling point. Its readings come in uploads (CSV or
Parquet), always *appended*: an upload must begin after the last stored reading, so the
stored series is one time line and the 24 hours before an upload are the history the slug
test of § 196-15 SLUG averages over. Readings are stored as the exact decimals written.

A :class:`SlugEvent` (§ 196-15 SLUG) or an :class:`Excursion` (§ 196-19 C(3), D(1), D(8))
is what the engine of :mod:`sewer_engines.monitoring` found in an upload; each carries a
:class:`~sewer_office.findings.models.Finding`. § 196-19 D(9)(d) requires the user to
report every slug immediately: a :class:`SlugReport` records that report and when it was
made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import TimeStamped, WrittenOnce
from sewer_office.core.moments import local

from .choices import ReportChannel

#: Room for a value written with the reader's most digits (sign, 400 + 400 digits, the point).
VALUE_LENGTH = 802
#: From a record with a ``sampling_point`` FK to the persons who may see it.
POINT_PATHS = (
    "sampling_point__establishment__operator",
    "sampling_point__establishment__building__property__owner",
)
#: From a record with a ``meter`` FK.
METER_PATHS = tuple(f"meter__{p}" for p in POINT_PATHS)


class Meter(TimeStamped):
    """A continuous meter at a sampling point: one parameter, one unit."""

    sampling_point = models.ForeignKey(
        "monitoring.SamplingPoint", on_delete=models.PROTECT, related_name="meters"
    )
    ident = models.CharField(
        max_length=60, unique=True, help_text="the meter's id, e.g. ACME-FLOW-1"
    )
    parameter = models.CharField(
        max_length=60, help_text="canonical parameter name, e.g. flow, ph, temperature"
    )
    unit = models.CharField(max_length=20, help_text="unit the readings are stored in")
    description = models.TextField(blank=True)
    max_gap_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        default=None,
        help_text=(
            "the shortest maximum gap, in seconds: an interval between readings longer than "
            "the maximum gap ends a run, and the maximum gap is three times the meter's usual "
            "interval (slug.max_gap_intervals), never less than this (blank: "
            "slug.max_gap_minimum, 5 min)"
        ),
    )
    active = models.BooleanField(default=True)

    ACCESS_PATHS = POINT_PATHS

    class Meta:
        ordering = ("ident",)

    def __str__(self) -> str:
        return self.ident

    @property
    def establishment(self) -> object:
        return self.sampling_point.establishment


class MeterBaseline(WrittenOnce):
    """A fixed baseline of a meter (§ 196-15 SLUG: "the average twenty-four-hour
    concentration of flows during normal operation"), recorded from the approval or as the
    Town's record of a new normal operation, in the meter's unit, from an instant on.

    From ``effective_from`` every reading of the meter is judged against five times this
    value instead of the trailing mean (the first 24 hours of a meter included), until a
    later record. Never edited or deleted: a new normal is a new record; a re-evaluation
    judges the stored readings again under the records in force."""

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="baselines")
    value = models.CharField(max_length=VALUE_LENGTH, help_text="in the meter's unit, exactly")
    effective_from = models.DateTimeField(help_text="the first reading it judges")
    authority = models.CharField(
        max_length=300,
        help_text="where it is recorded: the approval and its condition, or a decision",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("meter", "effective_from", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["meter", "effective_from"], name="meter_baseline_once_per_instant"
            ),
        )

    def __str__(self) -> str:
        return f"{self.meter} baseline {self.value} {self.meter.unit} from {local(self.effective_from)}"


class ReadingUpload(models.Model):
    """One stored readings file for one meter (refused if the same bytes come again)."""

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="uploads")
    sha256 = models.CharField(max_length=64)
    source_name = models.CharField(max_length=300, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(default=timezone.now)
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()
    count = models.PositiveIntegerField()
    missing = models.PositiveIntegerField(default=0, help_text="empty or NA values (gaps)")
    unjudged = models.PositiveIntegerField(
        default=0, help_text="readings without 24 h of history before them (not judged)"
    )
    slug_count = models.PositiveIntegerField(default=0)
    excursion_count = models.PositiveIntegerField(default=0)
    jurisdiction = models.CharField(max_length=40)
    parameters_version = models.CharField(max_length=80)

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("-uploaded_at", "-id")
        constraints = (
            models.UniqueConstraint(fields=["meter", "sha256"], name="upload_once_per_meter"),
        )

    def __str__(self) -> str:
        return f"{self.meter} {self.source_name or 'upload'} ({self.count} readings)"


class Reading(models.Model):
    """One reading, the value exactly as written (decimal text)."""

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="readings")
    upload = models.ForeignKey(ReadingUpload, on_delete=models.PROTECT, related_name="readings")
    at = models.DateTimeField()
    #: as written, exactly, whatever its digits (up to the reader's 400 before and after the point)
    value = models.CharField(max_length=VALUE_LENGTH)

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("meter", "at")
        constraints = (
            models.UniqueConstraint(fields=["meter", "at"], name="reading_once_per_instant"),
        )

    def __str__(self) -> str:
        return f"{self.meter} {local(self.at)} {self.value}"


class MeterDay(models.Model):
    """One meter's readings of one day (the town's calendar day): how many, and their exact sum.

    Kept by the readings upload in the same transaction as the readings themselves
    (:func:`sewer_office.meters.days.record_upload`), so that billing (§ 196-19 E(1)(d), J: the
    flow of a billing period) and the pretreatment flow (40 CFR 403.3(v): average process flow)
    read a few rows per meter and day instead of every minute reading. Derived data, not a
    record of legal weight: ``sewer-use manage meter_days --check`` compares it with the
    readings and ``--rebuild`` recomputes it from them (audited).
    """

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="days")
    day = models.DateField()
    count = models.PositiveIntegerField()
    #: the exact sum of the day's values, as decimal text (values keep all their digits)
    total = models.TextField()

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("meter", "day")
        constraints = (models.UniqueConstraint(fields=["meter", "day"], name="meter_day_once"),)

    def __str__(self) -> str:
        return f"{self.meter} {self.day}: {self.count} readings, sum {self.total}"


class SlugReevaluation(models.Model):
    """A re-judgement of a meter's stored readings under the reading of the law in force
    (for example when the office adopted "during normal operation" as docs/interpretations.md
    reads it). The slugs it no longer finds are superseded by it, never edited or deleted;
    the slugs it finds anew name it (``found_slugs``)."""

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="reevaluations")
    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField()
    jurisdiction = models.CharField(max_length=40)
    parameters_version = models.CharField(max_length=80)
    readings = models.PositiveIntegerField(help_text="stored readings judged again")
    kept = models.PositiveIntegerField(default=0, help_text="slugs found again as recorded")

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("-at", "-id")

    def __str__(self) -> str:
        return f"Re-evaluation of {self.meter} ({local(self.at)})"


class SlugEvent(models.Model):
    """A slug (§ 196-15 SLUG) found in a meter's readings, which the user must report
    immediately (§ 196-19 D(9)(d)). Never edited: a re-evaluation that no longer finds it
    marks it ``superseded_by`` itself (and its findings no longer current)."""

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="slugs")
    upload = models.ForeignKey(ReadingUpload, on_delete=models.PROTECT, related_name="slugs")
    start = models.DateTimeField()
    end = models.DateTimeField()
    peak = models.CharField(max_length=VALUE_LENGTH)
    baseline = models.CharField(
        max_length=VALUE_LENGTH,
        help_text="the first reading's: the mean of the normal-operation readings of the 24 h "
        "before (carried, or fixed, as the slug's record says)",
    )
    threshold = models.CharField(max_length=VALUE_LENGTH, help_text="5 × baseline")
    baseline_carried_from = models.DateTimeField(
        null=True,
        blank=True,
        help_text=(
            "readings of the slug whose own 24 hours held no normal-operation reading were "
            "judged on the mean of the 24 hours ending with this, the last normal-operation "
            "reading before the slug (none: no reading was)"
        ),
    )
    unit = models.CharField(max_length=20)
    readings = models.PositiveIntegerField()
    citation = models.CharField(max_length=40, default="§ 196-15 SLUG")
    report_citation = models.CharField(max_length=40, default="§ 196-19 D(9)(d)")
    flagged_unreported_at = models.DateTimeField(
        null=True, blank=True, help_text="when the missing report became a finding"
    )
    found_by = models.ForeignKey(
        SlugReevaluation,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="found_slugs",
        help_text="the re-evaluation that found it (none: found when its readings came)",
    )
    superseded_by = models.ForeignKey(
        SlugReevaluation,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="superseded_slugs",
        help_text="the re-evaluation that no longer finds it as recorded",
    )

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("-start", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=["meter", "start"],
                condition=models.Q(superseded_by__isnull=True),
                name="slug_once",
            ),
        )

    def __str__(self) -> str:
        return f"Slug {self.meter} {local(self.start)}"

    @property
    def duration_minutes(self) -> float:
        return (self.end - self.start).total_seconds() / 60

    @property
    def first_report(self) -> SlugReport | None:
        return self.all_reports().order_by("reported_at", "id").first()

    def all_reports(self) -> models.QuerySet[SlugReport]:
        """The user's reports of this discharge: of this slug, and of the superseded slugs of
        the same meter that overlap it in time (a report is about the discharge, not about
        the record a later reading of the law replaced)."""
        older = SlugEvent.objects.filter(
            meter_id=self.meter_id,
            superseded_by__isnull=False,
            start__lt=self.end,
            end__gt=self.start,
        )
        return SlugReport.objects.filter(models.Q(slug=self) | models.Q(slug__in=older))


class Excursion(models.Model):
    """A pH or temperature excursion beyond a limit of the article (§ 196-19 C(3), D(1), D(8))."""

    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="excursions")
    upload = models.ForeignKey(ReadingUpload, on_delete=models.PROTECT, related_name="excursions")
    start = models.DateTimeField()
    end = models.DateTimeField()
    extreme = models.CharField(max_length=VALUE_LENGTH)
    limit = models.CharField(max_length=40)
    unit = models.CharField(max_length=20)
    readings = models.PositiveIntegerField()
    status = models.CharField(max_length=20)
    citation = models.CharField(max_length=40)

    ACCESS_PATHS = METER_PATHS

    class Meta:
        ordering = ("-start", "-id")
        constraints = (
            models.UniqueConstraint(fields=["meter", "start", "citation"], name="excursion_once"),
        )

    def __str__(self) -> str:
        return f"Excursion {self.meter} {local(self.start)} ({self.citation})"


class SlugReport(models.Model):
    """The user's report of a slug to the Superintendent (§ 196-19 D(9)(d)), with its time."""

    slug = models.ForeignKey(SlugEvent, on_delete=models.PROTECT, related_name="reports")
    reported_at = models.DateTimeField(help_text="when the user reported the slug")
    channel = models.CharField(max_length=12, choices=ReportChannel.choices)
    text = models.TextField(blank=True)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the staff member who received it",
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the facility's representative who recorded it",
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = tuple(f"slug__{p}" for p in METER_PATHS)

    class Meta:
        ordering = ("reported_at", "id")

    def __str__(self) -> str:
        return f"Report of {self.slug} ({local(self.reported_at)})"
