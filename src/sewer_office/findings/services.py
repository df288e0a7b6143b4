"""Recording and reviewing findings: the one way any app stores what the rules concluded.

Statuses needing nobody's attention (``compliant``, ``no_limit``) are stored with review
``none``; every other finding starts ``new`` and appears on the Superintendent's dashboard
until acknowledged or closed. A review never changes what was found — only who looked at it,
when, and what they noted — and it is audited.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput

from .choices import ReviewState
from .models import Finding

#: Statuses that need no review (sewer_rules.findings.Status values).
QUIET_STATUSES = frozenset({"compliant", "no_limit"})
REVIEWERS = (SUPERINTENDENT, ENGINEER)


def initial_review(status: str) -> str:
    return ReviewState.NONE if status in QUIET_STATUSES else ReviewState.NEW


def record_finding(
    *,
    source: models.Model | None,
    establishment: Any,
    kind: str,
    status: str,
    citation: str,
    message: str,
    observed_at: datetime,
    limit: str = "",
    limit_unit: str = "",
    parameter: str = "",
    effective: date | None = None,
    parameters_version: str = "",
    analyte: str = "",
    result: Any = None,
) -> Finding:
    """Store one finding (call inside the transaction that stores its source)."""
    return Finding.objects.create(
        establishment=establishment,
        kind=kind,
        result=result,
        source_type=ContentType.objects.get_for_model(source) if source is not None else None,
        source_id=str(source.pk) if source is not None else "",
        status=status,
        citation=citation,
        limit=limit,
        limit_unit=limit_unit,
        message=message,
        parameter=parameter,
        effective=effective,
        parameters_version=parameters_version,
        analyte=analyte,
        observed_at=observed_at,
        review=initial_review(status),
    )


def findings_of(source: models.Model) -> models.QuerySet[Finding]:
    """The findings recorded about ``source`` (a slug event, an inspection, ...)."""
    return Finding.objects.filter(
        source_type=ContentType.objects.get_for_model(source), source_id=str(source.pk)
    )


#: The moves of a review (the database allows these and no other, ``core.protection``).
FORWARD = frozenset(
    {
        (ReviewState.NEW, ReviewState.ACKNOWLEDGED),
        (ReviewState.NEW, ReviewState.CLOSED),
        (ReviewState.ACKNOWLEDGED, ReviewState.CLOSED),
    }
)


def review_finding(finding: Finding, actor: Actor, review: str, note: str = "") -> Finding:
    """Acknowledge or close a finding (Superintendent or engineer), audited."""
    if not has_role(actor, *REVIEWERS):
        raise Forbidden("Reviewing findings is reserved to the Superintendent and the engineer.")
    if review not in (ReviewState.ACKNOWLEDGED, ReviewState.CLOSED):
        raise InvalidInput({"review": [f"'{review}' is not acknowledged or closed"]})
    if review == ReviewState.CLOSED and not note.strip():
        raise InvalidInput({"note": ["Say why the finding is closed."]})
    with transaction.atomic():
        locked = Finding.objects.select_for_update().get(pk=finding.pk)
        if (locked.review, review) not in FORWARD:
            # a review moves forward once per step; its note is the step's, never rewritten
            raise Blocked(
                f"This finding is {ReviewState(locked.review).label.lower()}: it cannot be "
                f"{ReviewState(review).label.lower()} now."
            )
        before = audit.snapshot(locked)
        locked.review = review
        locked.review_note = note.strip()
        locked.reviewed_by = signed_in(actor)
        locked.reviewed_at = timezone.now()
        locked.save(update_fields=["review", "review_note", "reviewed_by", "reviewed_at"])
        audit.record(
            actor=actor,
            action=f"finding_{review}",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=note.strip(),
            citation=locked.citation,
        )
    return locked


def acknowledge_findings(findings: Any, actor: Actor, note: str = "") -> int:
    """Acknowledge many findings at once (Superintendent or engineer): one transaction, one
    audited change per finding. Findings already acknowledged, closed or needing no review
    are left as they are; returns how many were acknowledged.

    ``findings`` is a queryset or a list of findings (the caller has already limited it to
    what the user may see).
    """
    if not has_role(actor, *REVIEWERS):
        raise Forbidden("Reviewing findings is reserved to the Superintendent and the engineer.")
    ids = [f.pk for f in findings]
    if not ids:
        raise InvalidInput({"findings": ["Choose at least one finding to acknowledge."]})
    text, reviewer = note.strip(), signed_in(actor)
    done = 0
    with transaction.atomic():
        locked = list(
            Finding.objects.select_for_update()
            .filter(pk__in=ids, review=ReviewState.NEW)
            .order_by("id")
        )
        now = timezone.now()
        for finding in locked:
            before = audit.snapshot(finding)
            finding.review = ReviewState.ACKNOWLEDGED
            finding.review_note = text
            finding.reviewed_by = reviewer
            finding.reviewed_at = now
            finding.save(update_fields=["review", "review_note", "reviewed_by", "reviewed_at"])
            audit.record(
                actor=actor,
                action=f"finding_{ReviewState.ACKNOWLEDGED}",
                obj=finding,
                before=before,
                after=audit.snapshot(finding),
                reason=text,
                citation=finding.citation,
            )
            done += 1
    return done
