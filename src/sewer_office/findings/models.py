"""The findings ledger: what the law as code concluded, stored once for every app.

A :class:`Finding` is what the law as code (``sewer_rules``) concluded about one thing — a
laboratory result, a month's average, a slug on a meter, an unreported slug, an inspection
observation, an overdue grease trap cleaning — stored with the status, the citation, the limit
and unit, and the parameter name, effective date and parameter-set version used that day, so
that a later change of the law never rewrites the past. Findings are written once; only their
review (acknowledged, closed, with a note) changes.

The ledger sits below the domain apps (monitoring, meters, grease, inspections, the network),
which all write to it and read it; it imports none of them. A laboratory result's findings
point at it by the model name ``monitoring.LabResult`` (a database reference, no import).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from sewer_office.core.models import WrittenOnce
from sewer_office.core.moments import DAY, local
from sewer_office.core.statuses import SEVERITY

from .choices import FindingKind, ReviewState

#: An establishment's records are visible to its operator and to the owner of its property.
FACILITY_PATHS = ("establishment__operator", "establishment__building__property__owner")


def severity_rank() -> models.Case:
    """A finding's rank in the review queue: the most severe status first (the rules' own
    order, ``core.statuses.SEVERITY``). One expression for ``queries.by_severity`` and the
    index that serves it, so that the database sees the same expression in both."""
    return models.Case(
        *[models.When(status=code, then=models.Value(r)) for code, r in SEVERITY.items()],
        default=models.Value(len(SEVERITY)),
        output_field=models.IntegerField(),
    )


#: Findings that wait on someone (``findings.queries.open_findings``), for the partial indexes.
OPEN_CONDITION = models.Q(current=True, review__in=(ReviewState.NEW, ReviewState.ACKNOWLEDGED))


class Finding(models.Model):
    """One determination of the law as code, with everything it rested on."""

    #: The facility concerned. Not checked by the database (a result's findings take it from
    #: the result, which is checked), for the same reason as ``LabResult.establishment``;
    #: indexed by the composite indexes below, which start with it.
    establishment = models.ForeignKey(
        "registry.Establishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="findings",
        db_index=False,
        db_constraint=False,
    )
    kind = models.CharField(max_length=20, choices=FindingKind.choices)
    result = models.ForeignKey(
        "monitoring.LabResult",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="findings",
    )
    #: The record behind a finding that is not a laboratory result (a slug event, an
    #: inspection, a grease trap): generic, like the audit trail.
    source_type = models.ForeignKey(
        ContentType,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,  # the source index below starts with it
    )
    source_id = models.CharField(max_length=64, blank=True)
    source = GenericForeignKey("source_type", "source_id")
    status = models.CharField(max_length=20)
    citation = models.CharField(max_length=80)
    limit = models.CharField(max_length=40, blank=True)
    limit_unit = models.CharField(max_length=20, blank=True)
    message = models.TextField()
    parameter = models.CharField(max_length=120, blank=True, help_text="parameter-set name used")
    effective = models.DateField(null=True, blank=True, help_text="its effective date")
    parameters_version = models.CharField(max_length=80, blank=True)
    analyte = models.CharField(max_length=60, blank=True)
    observed_at = models.DateTimeField(help_text="when what was judged happened")
    month = models.DateField(null=True, blank=True, help_text="first day, for monthly findings")
    current = models.BooleanField(default=True, help_text="false once its result is superseded")
    review = models.CharField(max_length=12, choices=ReviewState.choices, default=ReviewState.NEW)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    review_note = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        # The table it had in the monitoring app, kept so that moving the model moved no data.
        db_table = "monitoring_finding"
        ordering = ("-observed_at", "id")
        indexes = (
            models.Index(fields=["establishment", "observed_at"], name="finding_facility_time"),
            models.Index(fields=["review", "status"], name="finding_review_status"),
            models.Index(
                fields=["establishment", "review", "observed_at"], name="finding_facility_review"
            ),
            models.Index(fields=["source_type", "source_id"], name="finding_source"),
            # The open findings newest first (dashboards, the findings list, facility pages):
            # partial, so that reading the first rows costs the same at any size of the ledger.
            models.Index(
                fields=["-observed_at", "-id"], condition=OPEN_CONDITION, name="finding_open_recent"
            ),
            models.Index(
                fields=["establishment", "-observed_at", "-id"],
                condition=OPEN_CONDITION,
                name="finding_facility_open",
            ),
            # The findings list's order, most severe then oldest first (queries.by_severity):
            # its first page is the first rows of this index, not a sort of every open finding.
            models.Index(
                severity_rank(),
                "observed_at",
                "id",
                condition=OPEN_CONDITION,
                name="finding_open_severity",
            ),
            # Each facility's worst open findings (the outside user's home, facility pages):
            # its first rows are a LIMIT over this index, however long the facility's history.
            models.Index(
                "establishment",
                severity_rank(),
                "observed_at",
                "id",
                condition=OPEN_CONDITION,
                name="finding_facility_open_severity",
            ),
            # The review queue one status at a time, oldest first (queries.severity_queue).
            models.Index(
                fields=["review", "status", "observed_at", "id"],
                condition=OPEN_CONDITION,
                name="finding_open_status",
            ),
            # The open findings of one status in time order, whatever their review (new or
            # acknowledged): the list's page of a status is the first rows of this index, read
            # forwards or backwards, where the index above is in order only for one review.
            models.Index(
                fields=["status", "observed_at", "id"],
                condition=OPEN_CONDITION,
                name="finding_open_status_time",
            ),
            # A member town's counts of open findings by status: read facility by facility
            # among the town's (a few hundred of a county's thousands), not every town's
            # findings hashed against the town's facilities (docs/scale.md).
            models.Index(
                fields=["establishment", "status", "review"],
                condition=OPEN_CONDITION,
                name="finding_facility_status",
            ),
        )

    def __str__(self) -> str:
        return f"{self.status} ({self.citation})"


class HarmOpinion(WrittenOnce):
    """The engineer's or Superintendent's opinion on a finding under review (§ 196-19 D).

    § 196-19 D forbids its wastes only "if it appears likely in the opinion of the
    engineer/Superintendent" that they can do harm, and § 196-19 E leaves the response to the
    Superintendent's judgment. A ``review`` result is therefore not yet a violation: it
    becomes one when that opinion — harm likely, with the factors considered — is recorded
    here, dated and audited. Opinions are never edited: a changed mind is a new opinion, and
    the latest one stands.
    """

    finding = models.ForeignKey(Finding, on_delete=models.PROTECT, related_name="opinions")
    harm_likely = models.BooleanField(
        help_text="whether harm to the sewers, the treatment, the stream or life appears likely"
    )
    reasons = models.TextField(help_text="the factors considered (§ 196-19 D)")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = tuple(f"finding__{p}" for p in FACILITY_PATHS)

    class Meta:
        ordering = ("finding", "-recorded_at", "-id")

    def __str__(self) -> str:
        said = "harm likely" if self.harm_likely else "harm not likely"
        return f"Opinion on finding #{self.finding_id}: {said} ({local(self.recorded_at, DAY)})"
