"""The terms of the enforcement response guide and plan, as data (read by
:mod:`sewer_rules.enforcement_guide`, applied by :mod:`sewer_rules.enforcement_plan`).

Kept apart from the reader so that both the file's reader and the plan's rules import them
without importing each other.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from .citations import Citation, ExternalReference
from .parameter_yaml import ParameterError


class GuideError(ParameterError):
    """An enforcement guide file that cannot be trusted."""


class Severity(StrEnum):
    """How serious a violation is, which decides its first response under a plan.

    The small set of EPA's guidance on enforcement response plans (1989), decided from the
    office's facts by :func:`sewer_rules.enforcement_plan.severity_of`:

    - ``isolated`` — none of the below;
    - ``recurring`` — the same user was found in another violation of the same kind within the
      plan's look-back period before this one;
    - ``significant`` — a kind the plan names significant (significant noncompliance, damage to
      the works), the user found in significant noncompliance within the look-back period, or
      (where the plan says so) harm found likely.
    """

    ISOLATED = "isolated"
    RECURRING = "recurring"
    SIGNIFICANT = "significant"


@dataclass(frozen=True)
class Response:
    code: str
    label: str
    citation: Citation | ExternalReference
    correction_clock: bool
    #: For a referral, to whom it goes as the law names them (the clerk may name the office
    #: itself when recording a referral by hand); empty for notices and orders.
    referred_to: str = ""


@dataclass(frozen=True)
class SeverityResponse:
    """A plan's answer to a kind of violation of one severity: the first response, issued
    within ``within_days`` of the violation being opened, by ``official`` (a title)."""

    severity: Severity
    first: Response
    within_days: int
    official: str


@dataclass(frozen=True)
class KindGuide:
    kind: str
    label: str
    first: Response
    escalation: tuple[Response, ...]
    #: Empty in the older format; under a plan, one entry for every :class:`Severity`.
    severities: Mapping[Severity, SeverityResponse] = field(default_factory=dict)

    def for_severity(self, severity: Severity | str | None) -> Response:
        """The first response for ``severity`` (the kind's own ``first`` without a plan)."""
        if severity is None or not self.severities:
            return self.first
        return self.severities[Severity(severity)].first


@dataclass(frozen=True)
class SeverityRule:
    """The dated parameters of the severity rule (:mod:`sewer_rules.enforcement_plan`)."""

    look_back_months: int
    significant_kinds: frozenset[str]
    snc_is_significant: bool
    harm_is_significant: bool


@dataclass(frozen=True)
class PlanTerms:
    """What makes a dated version an enforcement response plan (40 CFR 403.8(f)(5))."""

    investigation: str
    severity: SeverityRule
    escalation_within_days: int
    #: response code → the official responsible for it, by title
    officials: Mapping[str, str]


@dataclass(frozen=True)
class GuideVersion:
    effective: date
    authority: str
    kinds: Mapping[str, KindGuide]
    plan: PlanTerms | None = None

    @property
    def is_plan(self) -> bool:
        return self.plan is not None


@dataclass(frozen=True)
class EnforcementGuide:
    source: str
    responses: Mapping[str, Response]
    versions: tuple[GuideVersion, ...]

    def on(self, day: date) -> GuideVersion:
        """The guide in force on ``day``."""
        i = bisect_right([v.effective for v in self.versions], day)
        if i == 0:
            raise GuideError(
                f"{self.source}: no enforcement guide before {self.versions[0].effective}"
            )
        return self.versions[i - 1]

    def version(self, effective: date) -> GuideVersion:
        """The version that took effect on ``effective`` (GuideError naming the known ones)."""
        for v in self.versions:
            if v.effective == effective:
                return v
        known = ", ".join(str(v.effective) for v in self.versions)
        raise GuideError(f"{self.source}: no version effective {effective} (known: {known})")

    def kind(self, kind: str, day: date) -> KindGuide:
        version = self.on(day)
        try:
            return version.kinds[kind]
        except KeyError:
            known = ", ".join(sorted(version.kinds))
            raise GuideError(
                f"{self.source}: no response for violations of kind {kind!r} on {day} "
                f"(known: {known})"
            ) from None
