"""An edition of the annual pretreatment report (40 CFR 403.12(i)), prepared and kept.

The report is a document the Control Authority files once a year per plant permit, not a page
browsed: it is gathered from every user's records once (:mod:`..annual`, seconds at a county's
scale), and what was gathered is kept here as prepared — its figures as the page shows them,
the CSV and the PDF, byte for byte — with who prepared it and when. The page, the CSV and the
PDF of a year are then served from its latest edition; preparing again writes a new edition and
leaves the earlier ones as they were (what was filed can always be shown). ``audit_mark`` is
the last audit event before it was prepared: a later one (but another edition's) says the
records have changed since.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import WrittenOnce
from sewer_office.core.moments import local


class AnnualReportEdition(WrittenOnce):
    """The annual pretreatment report of a period as prepared on a day: written once."""

    year = models.PositiveIntegerField(help_text="the calendar year the report covers")
    first = models.DateField(help_text="the first day of the period covered")
    last = models.DateField(help_text="the last day of the period covered")
    #: ``totals`` ([label, text]), ``added`` (lines), ``header`` and ``rows`` (texts), and
    #: ``icis_missing`` (what keeps its ICIS-NPDES XML from being written), as gathered.
    figures = models.JSONField()
    csv = models.BinaryField(help_text="the report's CSV as prepared")
    pdf = models.BinaryField(help_text="the report's PDF as prepared")
    sha256 = models.CharField(max_length=64, help_text="SHA-256 of the PDF")
    audit_mark = models.PositiveBigIntegerField(
        help_text="the last audit event before it was prepared"
    )
    prepared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    prepared_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-year", "-id")
        indexes = (models.Index(fields=["year", "-id"], name="annual_edition_year"),)

    def __str__(self) -> str:
        return f"Annual pretreatment report {self.year}, prepared {local(self.prepared_at)}"

    @property
    def totals(self) -> list[Any]:
        return list(self.figures.get("totals", []))
