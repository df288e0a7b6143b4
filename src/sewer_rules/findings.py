"""What a determination says: a status, the citation it rests on, and the values it used.

Statuses, most severe first (a result's overall status is the most severe of its findings,
``compliant`` when it has none):

- ``prohibited``  — § 196-19 C: an absolute prohibition is broken (or a permit limit).
- ``review``      — § 196-19 D: prohibited where the engineer/Superintendent finds harm likely;
                    the software flags, a person decides and records the decision (§ 196-19 E).
- ``inconclusive``— a non-detect whose reporting limit is above the limit: it can't be told.
- ``abnormal_strength`` — above normal sewage (§ 196-15 NORMAL SEWAGE): not by itself a
                    violation, it is what § 196-19 E(1)(d) and J charge for.
- ``no_limit``    — the law leaves the limit to the Superintendent and none is configured for
                    the date (§ 196-19 D(5)–(7)): never reported as compliant by default.
- ``compliant``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from .citations import Citation, ExternalReference


class Status(StrEnum):
    PROHIBITED = "prohibited"
    REVIEW = "review"
    INCONCLUSIVE = "inconclusive"
    ABNORMAL_STRENGTH = "abnormal_strength"
    NO_LIMIT = "no_limit"
    COMPLIANT = "compliant"

    @property
    def rank(self) -> int:
        """0 for the most severe."""
        return _ORDER.index(self)

    @property
    def is_violation(self) -> bool:
        """Statuses that make ``sewer-use check`` exit 1."""
        return self in (Status.PROHIBITED, Status.REVIEW)


_ORDER = list(Status)


def most_severe(statuses: list[Status]) -> Status:
    """The overall status of a result: its most severe finding, ``compliant`` for none."""
    return min(statuses, key=lambda s: s.rank, default=Status.COMPLIANT)


@dataclass(frozen=True)
class UsedParameter:
    """The dated parameter a finding used: replayable later."""

    name: str
    effective: date
    authority: str = ""


@dataclass(frozen=True)
class Finding:
    status: Status
    citation: Citation | ExternalReference
    message: str
    limit: str | None = None
    limit_unit: str | None = None
    parameter: UsedParameter | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {
            "status": str(self.status),
            "citation": str(self.citation),
            "limit": self.limit,
            "limit_unit": self.limit_unit,
            "message": self.message,
        }


@dataclass(frozen=True)
class Advisory:
    """A note on a result that is not a finding of the law (sample type, holding time)."""

    code: str
    citation: Citation | ExternalReference
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "citation": str(self.citation), "message": self.message}


@dataclass(frozen=True)
class Check:
    """One check of a design or a request (building sewer, grinder): passed or not, and why."""

    citation: Citation
    passed: bool | None
    message: str
    details: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "citation": str(self.citation),
            "passed": self.passed,
            "message": self.message,
            **({"details": self.details} if self.details else {}),
        }
