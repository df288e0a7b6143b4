"""Whether there is a violation to open: the provision cited, and the finding it rests on.

A violation is opened only under a provision that imposes a duty or a prohibition
(:mod:`sewer_rules.duties`: definitions, fee sections, penalty sections and savings clauses
impose none) and, from a finding, only from a finding that is a violation:

- a measured result (a laboratory result, a month's average, a slug, a meter excursion) when
  it is ``prohibited`` (§ 196-19 C, a limit exceeded); when it is ``review`` (§ 196-19 D, and
  every slug, which § 196-19 D(9)(d) places under D) only once the engineer or the
  Superintendent has recorded the opinion that harm is likely (§ 196-19 D and § 196-19 E) —
  :mod:`sewer_office.findings.opinions`;
- a failure of a duty, which is a violation as found: a report or a pump-out overdue, a failed
  inspection item or a refused entry, an unreported slug (the report "must" be made), a
  missed milestone, an expired approval, significant noncompliance, a repeat sample not
  submitted after the user's own sampling showed a violation, a baseline report incomplete;
- never a compliant, no-limit, inconclusive, abnormal-strength (a surcharge matter,
  § 196-19 E(1)(d) and § 196-19 J) or advisory finding, nor one superseded by a correction.

The same rule refuses opening by service, page and API (they all call the service), guards
the notice of an existing violation, and marks the violations recorded before it that it
would now refuse (records are never changed).
"""

from __future__ import annotations

from django.db import models

from sewer_office.core.statuses import status_label
from sewer_office.findings.models import Finding
from sewer_office.findings.opinions import OPINION_CITATION, current_opinion
from sewer_rules.duties import duty_of

from .models import Violation
from .town_ladder import own_law_of

#: Findings of a measurement, judged by their status (monitoring FindingKind values).
MEASURED_KINDS = frozenset({"lab_result", "monthly_average", "slug", "excursion"})
#: Findings of a duty not met: a violation as found (when the provision imposes one).
DUTY_KINDS = frozenset(
    {
        "unreported_slug",
        "pump_out_overdue",
        "inspection",
        "approval_expired",
        "milestone_missed",
        "report_late",
        "snc",
        # a user's own sampling showed a violation and no repeat came (40 CFR 403.12(g)(2))
        "no_repeat_sample",
        # a baseline report received lacking an element of 40 CFR 403.12(b)
        "baseline_incomplete",
    }
)

#: Statuses that are never a violation, and why (sewer_rules.findings.Status values).
NOT_VIOLATIONS: dict[str, str] = {
    "compliant": "the result complies: nothing was violated",
    "no_limit": "no limit is configured for it, so nothing was exceeded",
    "inconclusive": (
        "its reporting limit is above the regulatory limit: it neither shows nor excludes a "
        "violation"
    ),
    "abnormal_strength": (
        "abnormal strength is a surcharge matter (§ 196-19 E(1)(d), § 196-19 J), never a "
        "violation by itself"
    ),
    "advisory": "an advisory on the sample is for the engineer to weigh; it finds no violation",
}


def section_refusal(section: str) -> str | None:
    """Why no violation can be opened under ``section``, or None when it imposes a duty."""
    duty = duty_of(section)
    return None if duty.imposes else duty.refusal


def finding_refusal(finding: Finding) -> str | None:
    """Why ``finding`` is not a violation to open, or None when it is one."""
    label = f"Finding #{finding.pk} ({finding.citation})"
    if not finding.current:
        return f"{label} was superseded by a later determination: open from the current one."
    status = finding.status
    if status in NOT_VIOLATIONS or finding.kind == "advisory":
        why = NOT_VIOLATIONS.get(status, NOT_VIOLATIONS["advisory"])
        return f"{label} is {status_label(status).lower()}: {why}. No violation can be opened."
    if finding.kind in DUTY_KINDS:
        return None
    if finding.kind not in MEASURED_KINDS:
        return f"{label} is of kind '{finding.kind}', which is not a violation by itself."
    if status == "prohibited":
        return None
    if status == "review":
        opinion = current_opinion(finding)
        if opinion is None:
            return (
                f"{label} is under review: the discharge is prohibited only where harm appears "
                f"likely in the opinion of the engineer/Superintendent ({OPINION_CITATION}, "
                "§ 196-19 E). Record that opinion on the finding first."
            )
        if not opinion.harm_likely:
            return (
                f"{label}: on {opinion.recorded_at:%Y-%m-%d} the engineer/Superintendent "
                f"recorded that harm is not likely ({OPINION_CITATION}); it is not a violation."
            )
        return None
    return f"{label} has status '{status}', which is not a violation."


def refusal(section: str, finding: Finding | None) -> str | None:
    """Why a violation under ``section`` (from ``finding``) would be refused, or None."""
    if finding is not None and (why := finding_refusal(finding)) is not None:
        return why
    return section_refusal(section)


def refusal_of(violation: Violation) -> str | None:
    """:func:`refusal` for a recorded violation. One of a town whose law is its own was cited
    from its registry when opened (:func:`.town_ladder.cite_violated`), which is its rule of
    grounds: the article's duties do not judge it."""
    if own_law_of(violation) is not None:
        return None
    return refusal(violation.section, violation.finding)


def refused_violations(qs: models.QuerySet[Violation]) -> models.QuerySet[Violation]:
    """The violations of ``qs`` that the rule would now refuse (for the list's filter).

    Judged one by one by :func:`refusal` itself — the same rule, not a restatement of it in
    SQL; a town's violations are few enough to read once.
    """
    ids = [
        v.pk
        for v in qs.select_related("finding").prefetch_related("finding__opinions")
        if refusal_of(v) is not None
    ]
    return qs.filter(pk__in=ids)
