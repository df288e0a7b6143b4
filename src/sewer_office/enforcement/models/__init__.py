"""Violations and what the Town does about them: notices, corrections, costs, referrals,
judgments and collections (:mod:`.violations`, :mod:`.outcomes`), petitions against an
order (:mod:`.petitions`), and compliance schedules
(:mod:`.schedules`). Django finds the app's models here; the records of legal weight are never
edited (:class:`~sewer_office.core.models.ImmutableRecord`).

``Finding`` (the findings ledger's) and ``PlanAdoption`` (:mod:`..adoption`) are imported here
as they were by the single module: the app's code names every model it uses through this
package."""

from __future__ import annotations

from sewer_office.enforcement.adoption import PlanAdoption
from sewer_office.enforcement.models.outcomes import (
    Collection,
    Correction,
    Cost,
    Judgment,
    Referral,
)
from sewer_office.enforcement.models.petitions import Petition
from sewer_office.enforcement.models.schedules import ComplianceSchedule, Milestone
from sewer_office.enforcement.models.violations import Finding, Notice, Violation

__all__ = [
    "Collection",
    "ComplianceSchedule",
    "Correction",
    "Cost",
    "Finding",
    "Judgment",
    "Milestone",
    "Notice",
    "Petition",
    "PlanAdoption",
    "Referral",
    "Violation",
]
