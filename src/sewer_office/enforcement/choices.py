"""The fixed vocabularies of enforcement: how a notice is served, what a cost is, where a
matter is referred. Kinds of violation and responses are *not* here: they are the response
guide's (dated data of the jurisdiction, :mod:`sewer_rules.enforcement_guide`)."""

from __future__ import annotations

from django.db import models


class ServiceMethod(models.TextChoices):
    PERSONAL = "personal", "Personal service"
    CERTIFIED_MAIL = "certified_mail", "Certified mail (return receipt)"
    EMAIL = "email", "E-mail (the person agreed to e-mail service)"


class CostCategory(models.TextChoices):
    """The Town's expense, loss or damage recoverable under § 196-22 C, itemised."""

    STAFF_HOURS = "staff_hours", "Staff hours"
    LABORATORY = "laboratory", "Laboratory"
    REPAIRS = "repairs", "Repairs"
    OTHER = "other", "Other"


class ImposedBy(models.TextChoices):
    """What imposes a compliance schedule (40 CFR 403.8(f)(1)(iv))."""

    APPROVAL_CONDITION = "approval_condition", "Condition of the industrial approval"
    ORDER = "order", "Administrative order or notice"


class ReferralKind(models.TextChoices):
    ARREST = "arrest", "Police, for immediate arrest (§ 196-20)"
    TOWN_ATTORNEY = "town_attorney", "Town Attorney, for prosecution (§ 196-22 B)"
    INJUNCTION = "injunction", "Town Attorney, for an injunction (§ 196-22 D)"


#: The section each referral rests on.
REFERRAL_CITATIONS: dict[str, str] = {
    ReferralKind.ARREST: "§ 196-20",
    ReferralKind.TOWN_ATTORNEY: "§ 196-22 B",
    ReferralKind.INJUNCTION: "§ 196-22 D",
}

#: The guide's responses that are referrals, and the referral each one makes.
RESPONSE_REFERRALS: dict[str, str] = {
    "referral_for_arrest": ReferralKind.ARREST,
    "referral_town_attorney": ReferralKind.TOWN_ATTORNEY,
    "injunction_request": ReferralKind.INJUNCTION,
}

#: Which kind of the response guide a finding of each kind is (monitoring.FindingKind values).
FINDING_KINDS: dict[str, str] = {
    "lab_result": "result_exceedance",
    "advisory": "result_exceedance",
    "monthly_average": "monthly_average_exceedance",
    "slug": "slug",
    "excursion": "excursion",
    "unreported_slug": "unreported_slug",
    "pump_out_overdue": "overdue_pumpout",
    "inspection": "failed_inspection_item",
    "approval_expired": "expired_approval",
    "milestone_missed": "missed_milestone",
    "report_late": "late_report",
    "snc": "significant_noncompliance",
}

#: The article's section a finding of a federal kind shows violated, when the finding cites the
#: federal rule (40 CFR 403) rather than the article: an industrial discharge needs the
#: engineer's written approval (§ 196-16 E), whose conditions carry its reports; a compliance
#: schedule is imposed under the Superintendent's § 196-19 E(1) powers; significant
#: noncompliance rests on the limits of § 196-19 D. Staff may name another when opening.
FINDING_SECTIONS: dict[str, str] = {
    "approval_expired": "§ 196-16 E",
    "milestone_missed": "§ 196-19 E(1)",
    "report_late": "§ 196-16 E",
    "snc": "§ 196-19 D",
}
