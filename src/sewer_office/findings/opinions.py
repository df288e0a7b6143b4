"""Recording the engineer's or Superintendent's opinion on a finding under review.

§ 196-19 D prohibits its wastes where harm "appears likely in the opinion of the
engineer/Superintendent"; § 196-19 E gives the Superintendent the choice of response. The
rules flag such a result ``review`` (they cannot form the opinion); this is where the person
the law names forms it, in a dated, audited record. Only the Superintendent and the engineer
may record it, and only on a finding that is under review: an opinion on a compliant or
abnormal-strength result would decide nothing the law leaves to judgment.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput

from .models import Finding, HarmOpinion

#: Who forms the opinion: "the engineer/Superintendent" (§ 196-19 D).
OPINION_HOLDERS = (SUPERINTENDENT, ENGINEER)
OPINION_CITATION = "§ 196-19 D"
#: The statuses on which an opinion decides something (sewer_rules.findings.Status values).
OPINION_STATUSES = frozenset({"review"})


def may_record_opinion(user: Actor) -> bool:
    return has_role(user, *OPINION_HOLDERS)


def current_opinion(finding: Finding) -> HarmOpinion | None:
    """The latest opinion recorded on ``finding`` (a later one replaces an earlier one)."""
    return finding.opinions.order_by("-recorded_at", "-id").first()


def record_opinion(
    finding: Finding,
    actor: Actor,
    *,
    harm_likely: bool,
    reasons: str,
    at: datetime | None = None,
) -> HarmOpinion:
    """Record whether harm appears likely (§ 196-19 D), with the factors considered."""
    if not may_record_opinion(actor):
        raise Forbidden(
            "Recording the opinion that harm is likely is reserved to the Superintendent and "
            f"the engineer ({OPINION_CITATION}: 'in the opinion of the engineer/Superintendent')."
        )
    errors: dict[str, list[str]] = {}
    if finding.status not in OPINION_STATUSES:
        errors["finding"] = [
            f"Finding #{finding.pk} is {finding.status}, not under review: an opinion under "
            f"{OPINION_CITATION} decides only a result flagged for review."
        ]
    if not reasons.strip():
        errors["reasons"] = [
            "State the factors considered (quantities against flows, the sewers' materials, "
            f"the treatment process and its capacity; {OPINION_CITATION})."
        ]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        HarmOpinion,
        {
            "finding": finding,
            "harm_likely": harm_likely,
            "reasons": reasons.strip(),
            "recorded_by": actor,
            "recorded_at": at or timezone.now(),
        },
        actor=actor,
        action="record_opinion",
        reason=reasons.strip(),
        citation=OPINION_CITATION,
        at=at,
    )
