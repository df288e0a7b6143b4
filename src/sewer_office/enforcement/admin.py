"""Back office view of enforcement: violations, notices, corrections, costs, referrals, the
court's judgments and the collections on their fines, compliance schedules and their
milestones, the adoptions of the enforcement response plan, petitions against a town's orders: read-only — every change goes through the
app's services (pages, API, commands), so that it is made by the role the law names and audited."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import (
    Collection,
    ComplianceSchedule,
    Correction,
    Cost,
    Judgment,
    Milestone,
    Notice,
    Petition,
    PlanAdoption,
    Referral,
    Violation,
)

register_read_only(
    Violation,
    Notice,
    Petition,
    Correction,
    Cost,
    Referral,
    Judgment,
    Collection,
    ComplianceSchedule,
    Milestone,
    PlanAdoption,
)
