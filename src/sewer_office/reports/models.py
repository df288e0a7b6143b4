"""Signatories, reports (their copy of record), signatures, reviews and one-time codes."""

from __future__ import annotations

import hashlib
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import TimeStamped, WrittenOnce
from sewer_office.core.moments import local
from sewer_office.findings.models import FACILITY_PATHS

from .choices import Decision, SignatoryKind


class Signatory(TimeStamped):
    """A person the Town recorded as authorized to sign a facility's reports (403.12(l)),
    with the account they sign with; ended (not deleted) when the authority ends."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="signatories"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=12, choices=SignatoryKind.choices)
    title = models.CharField(max_length=120, help_text="e.g. Plant Manager, Vice President")
    authorization = models.CharField(
        max_length=200, help_text="the written authorization on file (for 403.12(l)(3))"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    valid_from = models.DateField()
    ended_on = models.DateField(null=True, blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("establishment", "-valid_from", "id")

    def __str__(self) -> str:
        return f"{self.user} ({self.title}) for {self.establishment}"


class Report(WrittenOnce):
    """One version of a required report (pretreatment ``ReportDue``), written once: the data
    as canonical JSON and the PDF made from it, each with its SHA-256, and their digest."""

    due = models.ForeignKey(
        "pretreatment.ReportDue", on_delete=models.PROTECT, related_name="reports"
    )
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="reports"
    )
    version = models.PositiveIntegerField()
    period_start = models.DateField()
    period_end = models.DateField()
    data = models.TextField(help_text="canonical JSON (sorted keys, exact decimal texts)")
    pdf = models.BinaryField()
    data_sha256 = models.CharField(max_length=64)
    pdf_sha256 = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, help_text="SHA-256 of the two hashes, joined")
    assembled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    assembled_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("-assembled_at", "-id")
        constraints = (
            models.UniqueConstraint(fields=["due", "version"], name="report_version_once"),
        )

    def __str__(self) -> str:
        return f"RPT-{self.pk} v{self.version} {self.establishment} due {self.due.due_on}"

    @staticmethod
    def digest_of(data_sha256: str, pdf_sha256: str) -> str:
        return hashlib.sha256(f"{data_sha256}\n{pdf_sha256}".encode()).hexdigest()


class Signature(WrittenOnce):
    """Who signed which document, when, under which statement (bound to its digest)."""

    report = models.OneToOneField(Report, on_delete=models.PROTECT, related_name="signature")
    signatory = models.ForeignKey(Signatory, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField(default=timezone.now)
    statement = models.TextField()
    digest = models.CharField(max_length=64)
    second_factor = models.CharField(max_length=40, default="e-mailed one-time code")

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"report__{p}" for p in FACILITY_PATHS)

    class Meta:
        ordering = ("-signed_at", "-id")

    def __str__(self) -> str:
        return f"{self.report} signed by {self.user} at {local(self.signed_at)}"


class Review(WrittenOnce):
    """The office's decision on a signed report; a rejected report stays in the record."""

    report = models.OneToOneField(Report, on_delete=models.PROTECT, related_name="review")
    decision = models.CharField(max_length=10, choices=Decision.choices)
    reason = models.TextField(blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"report__{p}" for p in FACILITY_PATHS)

    class Meta:
        ordering = ("-reviewed_at", "-id")

    def __str__(self) -> str:
        return f"{self.report}: {self.get_decision_display()}"


class SigningCode(models.Model):
    """A one-time code e-mailed to a signatory to sign one report: stored hashed, valid a few
    minutes, a few tries, used once."""

    report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    code_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    used_at = models.DateTimeField(null=True, blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = ()
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = ("report__establishment__jurisdiction",)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"code for {self.report} ({self.user})"


class BaselineStatement(TimeStamped):
    """What the facility states for its baseline monitoring report (40 CFR 403.12(b)) beyond
    the Town's own records: its operations, flows, the standards that apply, whether it meets
    them, its compliance schedule where needed, and why an element does not apply or is not
    given (``explanations``, by element code). A draft the facility keeps up to date (each change
    audited) until a report is assembled; the signed report keeps its own copy in its data."""

    due = models.OneToOneField(
        "pretreatment.ReportDue", on_delete=models.PROTECT, related_name="baseline_statement"
    )
    permits_held = models.TextField(
        blank=True, help_text="environmental control permits held by or for the facility"
    )
    operations = models.TextField(
        blank=True, help_text="the nature of the operations (403.12(b)(3))"
    )
    sic_codes = models.CharField(max_length=120, blank=True, help_text="SIC or NAICS codes")
    standards_applicable = models.TextField(
        blank=True,
        help_text="the categorical standards applicable to each regulated process (403.12(b)(5))",
    )
    production_rate = models.CharField(
        max_length=200, blank=True, help_text="average rate of production"
    )
    average_flow_gpd = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    maximum_flow_gpd = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    meets_standards = models.BooleanField(null=True, blank=True)
    additional_measures = models.TextField(
        blank=True, help_text="additional O&M or pretreatment needed to meet the standards"
    )
    compliance_schedule = models.TextField(
        blank=True, help_text="the shortest schedule to provide them (403.12(b)(7))"
    )
    explanations = models.JSONField(
        default=dict,
        blank=True,
        help_text="element of 403.12(b) (b1..b7) → why it does not apply or is not given",
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"due__{p}" for p in FACILITY_PATHS)

    class Meta:
        ordering = ("-updated_at", "-id")

    def __str__(self) -> str:
        return f"Baseline statement for {self.due}"
