"""The enforcement response plan in the office (40 CFR 403.8(f)(5)): the version in force, the
Town's adoption of it, a violation's severity from the records, and the adoption service.

The plan is the jurisdiction's dated data (:mod:`sewer_rules.enforcement_guide`); the office
adds what only it knows. Whether the plan is *adopted* on a day: an adoption recorded for that
version, with the SHA-256 of the text as it reads now, on or before that day — a text changed
after its adoption is not the plan adopted, and every page then says "not adopted". A
violation's *severity* is decided by the plan's rule (:func:`sewer_rules.enforcement_plan.
severity_of`) from the office's facts: the same user's other violations of the same kind,
its findings of significant noncompliance, the opinion on harm recorded on its finding.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_rules.enforcement_guide import GuideError, GuideVersion
from sewer_rules.enforcement_plan import (
    PLAN,
    EarlierViolation,
    SeverityDecision,
    SeverityFacts,
    months_before,
    plan_sha256,
    severity_of,
)
from sewer_rules.enforcement_terms import Severity

from . import rules
from .models import Finding, PlanAdoption, Violation

#: Who records the Town's adoption of the plan (the body adopts; the Superintendent, who
#: administers the article, records its decision).
ADOPTERS = frozenset({SUPERINTENDENT})
#: Without a plan in force (an older version), every violation is answered as isolated.
NO_PLAN = SeverityDecision(Severity.ISOLATED, "the guide in force is no plan: one response")


def version_on(day: date) -> GuideVersion:
    return rules.guide().on(day)


@cache
def _fingerprint(source: str, effective: date) -> str:
    return plan_sha256(rules.guide().version(effective))


def fingerprint(version: GuideVersion) -> str:
    """The SHA-256 of ``version``'s canonical text (computed once per version)."""
    return _fingerprint(rules.guide().source, version.effective)


def adoption_of(version: GuideVersion, day: date | None = None) -> PlanAdoption | None:
    """The adoption of ``version`` as its text reads now, in force on ``day`` (any day: None)."""
    if not version.is_plan:
        return None
    found = PlanAdoption.objects.filter(
        plan_effective=version.effective, plan_sha256=fingerprint(version)
    )
    if day is not None:
        found = found.filter(adopted_on__lte=day)
    return found.order_by("adopted_on", "id").first()


def adoptions() -> list[PlanAdoption]:
    """Every adoption recorded, newest first (the plan page's history)."""
    return list(PlanAdoption.objects.select_related("recorded_by").order_by("-adopted_on", "-id"))


def opened_day(violation: Violation) -> date:
    """The day the violation was opened on the record: the plan's first time frame runs from it."""
    return timezone.localdate(violation.opened_at)


# --- severity -----------------------------------------------------------------------------


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time()))


def _snc_days(violation: Violation, since: date, until: datetime) -> tuple[date, ...]:
    if violation.establishment_id is None:
        return ()
    found = Finding.objects.filter(
        establishment_id=violation.establishment_id,
        kind="snc",
        current=True,
        observed_at__gte=_midnight(since),
        created_at__lt=until,
    ).values_list("observed_at", flat=True)
    return tuple(timezone.localdate(at) for at in found)


def _harm_likely(violation: Violation, until: datetime) -> bool:
    findings = list(violation.evidence.all())
    if violation.finding is not None:
        findings.append(violation.finding)
    for f in findings:
        opinion = f.opinions.filter(recorded_at__lt=until).order_by("-recorded_at", "-id").first()
        if opinion is not None and opinion.harm_likely:
            return True
    return False


def _same_subject(violation: Violation) -> dict[str, Any]:
    """The same facility or property (none: none), a lookup Django reads as IS NULL."""
    return {
        "establishment_id": violation.establishment_id,
        "property_id": violation.property_id,
    }


def severity_facts(violation: Violation, version: GuideVersion, known_by: date) -> SeverityFacts:
    """What the records said by the end of ``known_by`` that bears on the severity, as far back
    as the plan looks: a fact recorded later (a finding of significant noncompliance made after
    a notice went out) never changes what was decided before it."""
    plan = version.plan
    if plan is None:
        return SeverityFacts(violation.kind, violation.observed_on)
    rule = plan.severity
    since = months_before(violation.observed_on, rule.look_back_months)
    until = _midnight(known_by + timedelta(days=1))
    earlier = (
        Violation.objects.filter(
            person_id=violation.person_id,
            kind=violation.kind,
            observed_on__gte=since,
            observed_on__lt=violation.observed_on,
            opened_at__lt=until,
            **_same_subject(violation),
        )
        .exclude(state="dismissed")
        .exclude(pk=violation.pk)
        .values_list("pk", "observed_on")
    )
    return SeverityFacts(
        kind=violation.kind,
        found_on=violation.observed_on,
        earlier=tuple(EarlierViolation(f"VIOL-{pk}", day) for pk, day in earlier),
        snc_found=_snc_days(violation, since, until) if rule.snc_is_significant else (),
        harm_likely=_harm_likely(violation, until) if rule.harm_is_significant else False,
    )


def severity(violation: Violation, day: date | None = None) -> SeverityDecision:
    """The violation's severity on ``day`` (default today): under the plan in force that day,
    from the facts recorded by then, with the reason."""
    day = day or timezone.localdate()
    try:
        version = version_on(day)
    except GuideError:
        return NO_PLAN
    if version.plan is None:
        return NO_PLAN
    return severity_of(version.plan.severity, severity_facts(violation, version, day))


# --- adoption -----------------------------------------------------------------------------


def may_adopt(user: Actor) -> bool:
    return has_role(user, *ADOPTERS)


def adopt_plan(
    actor: Actor,
    *,
    effective: date,
    adopted_on: date,
    adopted_by: str,
    resolution: str,
    note: str = "",
    at: datetime | None = None,
) -> PlanAdoption:
    """Record that ``adopted_by`` adopted the plan version effective ``effective`` on
    ``adopted_on`` by ``resolution`` (40 CFR 403.8(f)(5)), with the SHA-256 of its text.

    Only a version in the plan format can be adopted as a plan (the older format has no time
    frames and no officials); one adoption per version and text.
    """
    if not may_adopt(actor):
        raise Forbidden(
            "Recording the adoption of the enforcement response plan: reserved to the "
            f"Superintendent ({PLAN})."
        )
    errors: dict[str, list[str]] = {}
    today = timezone.localdate(at) if at is not None else timezone.localdate()
    version: GuideVersion | None = None
    try:
        version = rules.guide().version(effective)
    except GuideError as e:
        errors["effective"] = [str(e)]
    if version is not None and not version.is_plan:
        errors["effective"] = [
            f"The version effective {effective} has no severities, time frames or officials: "
            f"it is no enforcement response plan ({PLAN}) and cannot be adopted as one."
        ]
    if adopted_on > today:
        errors["adopted_on"] = [f"{adopted_on} is in the future: record a decision once made."]
    if not adopted_by.strip():
        errors["adopted_by"] = ["Name the body that adopted the plan (e.g. Town Board)."]
    if not resolution.strip():
        errors["resolution"] = ["Give the decision's reference (the resolution number)."]
    if errors or version is None:
        raise InvalidInput(errors)
    digest = fingerprint(version)
    already = (
        f"The adoption of the plan effective {effective}, as its text reads now, is already "
        "recorded: a record of adoption is never changed."
    )
    if PlanAdoption.objects.filter(plan_effective=effective, plan_sha256=digest).exists():
        raise Blocked(already)
    try:
        with transaction.atomic():
            adoption = PlanAdoption.objects.create(
                plan_effective=effective,
                plan_sha256=digest,
                plan_source=rules.guide().source,
                adopted_on=adopted_on,
                adopted_by=" ".join(adopted_by.split()),
                resolution=" ".join(resolution.split()),
                note=note.strip(),
                recorded_by=signed_in(actor),
                recorded_at=at or timezone.now(),
            )
            audit.record(
                actor=actor,
                action="adopt_response_plan",
                obj=adoption,
                after=audit.snapshot(adoption),
                reason=f"enforcement response plan effective {effective}, SHA-256 {digest}",
                citation=PLAN,
                at=at,
            )
    except IntegrityError:  # recorded meanwhile by another request
        raise Blocked(already) from None
    return adoption
