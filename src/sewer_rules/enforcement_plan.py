"""The enforcement response plan applied: a violation's severity, the step it calls for, by when
and by whom, and the plan's text as adopted (40 CFR 403.8(f)(5)).

A plan (a dated version of ``enforcement.yaml`` in the plan format,
:class:`~sewer_rules.enforcement_terms.PlanTerms`) answers each kind of violation by its
:class:`~sewer_rules.enforcement_terms.Severity`. The office gathers the facts
(:class:`SeverityFacts`); :func:`severity_of` decides with the plan's dated parameters, so the
same facts give the same severity on every page and in the daily run. The time frames are
counted in calendar days: the first response from the day the violation was opened on the
record (the Town cannot answer what it has not yet found), the next step of the escalation
from the day after a deadline passed uncorrected.

What a body adopts is a text: :func:`canonical_text` is the version's content in one fixed
form, and :func:`plan_sha256` its fingerprint, kept with the record of adoption so that a later
change of the file is never taken for the plan that was adopted.
"""

from __future__ import annotations

import hashlib
import json
from calendar import monthrange
from dataclasses import dataclass
from datetime import date, timedelta
from typing import NotRequired, TypedDict

from .enforcement_terms import (
    GuideVersion,
    KindGuide,
    Response,
    Severity,
    SeverityRule,
)

#: The provisions of a plan's parts: the procedure of investigation, the escalating responses
#: and their time periods, the officials responsible (40 CFR 403.8(f)(5)).
PLAN = "40 CFR 403.8(f)(5)"
INVESTIGATION = "40 CFR 403.8(f)(5)(i)"
TIME_FRAMES = "40 CFR 403.8(f)(5)(ii)"
OFFICIALS = "40 CFR 403.8(f)(5)(iii)"
SNC = "40 CFR 403.8(f)(2)(viii)"
HARM = "§ 196-19 D"

FIRST = "first"


def months_before(day: date, months: int) -> date:
    """The same day ``months`` months earlier (the month's last day when it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    last = monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


@dataclass(frozen=True)
class EarlierViolation:
    """Another violation of the same kind by the same user, found on ``found_on``."""

    label: str
    found_on: date


@dataclass(frozen=True)
class SeverityFacts:
    """What the office knows that bears on a violation's severity.

    ``earlier``: the user's other violations of the same kind, found before this one (those
    dismissed are no violation and are left out by the office); ``snc_found``: the days the
    user was found in significant noncompliance; ``harm_likely``: whether the engineer or the
    Superintendent recorded that harm appears likely (§ 196-19 D). The rule keeps only what
    falls within the plan's look-back period.
    """

    kind: str
    found_on: date
    earlier: tuple[EarlierViolation, ...] = ()
    snc_found: tuple[date, ...] = ()
    harm_likely: bool = False


@dataclass(frozen=True)
class SeverityDecision:
    severity: Severity
    reason: str


def severity_of(rule: SeverityRule, facts: SeverityFacts) -> SeverityDecision:
    """The severity of a violation under the plan's rule, with the reason in plain words.

    Significant first (the kind is one the plan names significant; the user was found in
    significant noncompliance within the look-back period; harm was found likely, where the
    plan counts it), then recurring (another violation of the same kind by the same user found
    within the look-back period before this one, not on the same day: several results of one
    sample are one occasion), else isolated.
    """
    months = rule.look_back_months
    since = months_before(facts.found_on, months)
    if facts.kind in rule.significant_kinds:
        return SeverityDecision(
            Severity.SIGNIFICANT,
            f"the plan counts every violation of kind {facts.kind} as significant",
        )
    snc = sorted(d for d in facts.snc_found if since <= d <= facts.found_on)
    if rule.snc_is_significant and snc:
        return SeverityDecision(
            Severity.SIGNIFICANT,
            f"the user was found in significant noncompliance ({SNC}) on {snc[-1]}, within "
            f"{months} months",
        )
    if rule.harm_is_significant and facts.harm_likely:
        return SeverityDecision(
            Severity.SIGNIFICANT, f"harm was found likely in the opinion recorded ({HARM})"
        )
    earlier = sorted(
        (e for e in facts.earlier if since <= e.found_on < facts.found_on),
        key=lambda e: e.found_on,
    )
    if earlier:
        last = earlier[-1]
        return SeverityDecision(
            Severity.RECURRING,
            f"another violation of the same kind by the same user, {last.label} found "
            f"{last.found_on}, within {months} months",
        )
    return SeverityDecision(
        Severity.ISOLATED,
        f"no other violation of the same kind by the same user within {months} months, and "
        "nothing that makes it significant",
    )


@dataclass(frozen=True)
class PlanStep:
    """One response a plan calls for: what, for which kind and severity, by when, by whom."""

    kind: KindGuide
    severity: SeverityDecision
    response: Response
    within_days: int
    official: str
    #: The day the time frame starts: the violation opened, or the day after a deadline passed
    #: (None while the notice's deadline is not yet known: mailed, not yet delivered).
    starts: date | None
    #: ``first``, or the number of the notice whose deadline passed (``after NOV-12``).
    step: str

    @property
    def due(self) -> date | None:
        """The last day on which the response is issued in time (None: not yet known)."""
        if self.starts is None:
            return None
        return self.starts + timedelta(days=self.within_days)

    @property
    def is_first(self) -> bool:
        return self.step == FIRST

    @property
    def text(self) -> str:
        """``result exceedance, recurring → administrative order within 30 days, the
        Superintendent`` — the kind, the severity, the response, its time frame, who."""
        label = self.response.label[:1].lower() + self.response.label[1:]
        after = "" if self.is_first else " of the deadline passing"
        return (
            f"{self.kind.kind.replace('_', ' ')}, {self.severity.severity} → {label} within "
            f"{self.within_days} days{after}, the {self.official}"
        )


def first_step(
    version: GuideVersion, kind: str, decision: SeverityDecision, opened_on: date
) -> PlanStep | None:
    """The first response the plan calls for (None when the version is no plan)."""
    if version.plan is None or kind not in version.kinds:
        return None
    guide = version.kinds[kind]
    answer = guide.severities[decision.severity]
    return PlanStep(
        guide, decision, answer.first, answer.within_days, answer.official, opened_on, FIRST
    )


def escalation_step(
    version: GuideVersion,
    kind: str,
    decision: SeverityDecision,
    response: Response,
    deadline: date | None,
    notice: str,
) -> PlanStep | None:
    """The next step if ``notice``'s deadline (None: not yet known) passes uncorrected."""
    if version.plan is None or kind not in version.kinds:
        return None
    return PlanStep(
        version.kinds[kind],
        decision,
        response,
        version.plan.escalation_within_days,
        version.plan.officials.get(response.code, ""),
        deadline + timedelta(days=1) if deadline is not None else None,
        f"after {notice}",
    )


def late(step: PlanStep, issued_on: date | None, today: date) -> bool:
    """Whether ``step`` was not issued within its time frame, as of ``today``: issued after its
    last day, or not issued and that day has passed (never while that day is not known)."""
    due = step.due
    if due is None:
        return False
    if issued_on is not None:
        return issued_on > due
    return today > due


# --- the text adopted -----------------------------------------------------------------------


class ResponseText(TypedDict):
    """A response as adopted: its code, words, citation, clock and referral."""

    code: str
    label: str
    citation: str
    correction_clock: bool
    referred_to: str


class SeverityRuleText(TypedDict):
    look_back_months: int
    significant_kinds: list[str]
    snc_is_significant: bool
    harm_is_significant: bool


class SeverityResponseText(TypedDict):
    first: ResponseText
    within_days: int
    official: str


class KindText(TypedDict):
    label: str
    first: ResponseText
    escalation: list[ResponseText]
    #: by severity; empty in the older format
    severities: dict[str, SeverityResponseText]


class PlanText(TypedDict):
    """A plan version's whole content as plain data (:func:`canonical`): what a body adopts.

    The plan's own parts (investigation, severity, escalation, officials) are absent from a
    version in the older format, which has only its kinds' responses.
    """

    effective: str
    authority: str
    investigation: NotRequired[str]
    severity: NotRequired[SeverityRuleText]
    escalation_within_days: NotRequired[int]
    officials: NotRequired[dict[str, str]]
    kinds: dict[str, KindText]


def _response(r: Response) -> ResponseText:
    return {
        "code": r.code,
        "label": r.label,
        "citation": str(r.citation),
        "correction_clock": r.correction_clock,
        "referred_to": r.referred_to,
    }


def canonical(version: GuideVersion) -> PlanText:
    """The version's whole content as plain data: what a body adopts."""
    plan = version.plan
    out: PlanText = {
        "effective": version.effective.isoformat(),
        "authority": version.authority,
        "kinds": {},
    }
    if plan is not None:
        rule = plan.severity
        out["investigation"] = plan.investigation
        out["severity"] = {
            "look_back_months": rule.look_back_months,
            "significant_kinds": sorted(rule.significant_kinds),
            "snc_is_significant": rule.snc_is_significant,
            "harm_is_significant": rule.harm_is_significant,
        }
        out["escalation_within_days"] = plan.escalation_within_days
        out["officials"] = dict(plan.officials)
    out["kinds"] = {
        k.kind: {
            "label": k.label,
            "first": _response(k.first),
            "escalation": [_response(s) for s in k.escalation],
            "severities": {
                str(s.severity): {
                    "first": _response(s.first),
                    "within_days": s.within_days,
                    "official": s.official,
                }
                for s in k.severities.values()
            },
        }
        for k in version.kinds.values()
    }
    return out


def canonical_text(version: GuideVersion) -> str:
    """:func:`canonical` in one fixed form (sorted keys, no spaces, UTF-8 as is)."""
    return json.dumps(canonical(version), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def plan_sha256(version: GuideVersion) -> str:
    return hashlib.sha256(canonical_text(version).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class PlanRow:
    """One line of the plan's table: a kind of violation, a severity, the response, when, who."""

    kind: str
    label: str
    severity: Severity
    response: Response
    within_days: int
    official: str


def plan_rows(version: GuideVersion) -> list[PlanRow]:
    """Every kind × severity of a plan, in the file's order (empty for the older format)."""
    return [
        PlanRow(k.kind, k.label, s.severity, s.first, s.within_days, s.official)
        for k in version.kinds.values()
        for s in k.severities.values()
    ]
