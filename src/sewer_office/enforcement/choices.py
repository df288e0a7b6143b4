"""The fixed vocabularies of enforcement: how a notice is served, what a cost is, where a
matter is referred. Kinds of violation and responses are *not* here: they are the response
guide's (dated data of the jurisdiction, :mod:`sewer_rules.enforcement_guide`)."""

from __future__ import annotations

from django.db import models


class ServiceMethod(models.TextChoices):
    """How a notice is served, and when service completes (the period runs from that day):
    personal service on the day of delivery; certified mail on the day of delivery shown by
    the return receipt or the carrier's record, recorded in a second step (never the day of
    mailing); e-mail, only where the person agreed to it in writing, on the day it is sent —
    the agreement is what makes sending a delivery, so no later receipt is awaited."""

    PERSONAL = "personal", "Personal service"
    CERTIFIED_MAIL = "certified_mail", "Certified mail (return receipt)"
    EMAIL = "email", "E-mail (the person agreed to e-mail service)"


class DeliveryProof(models.TextChoices):
    """What shows the day a notice reached the person (service completes on that day)."""

    RETURN_RECEIPT = "return_receipt", "Return receipt"
    CARRIER_RECORD = "carrier_record", "The carrier's delivery record"


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


class CollectedBy(models.TextChoices):
    """Who received a fine imposed by the court (§ 196-22 B): the court itself, or the Town —
    then the money is the Town's, received by the clerk with a receipt, and on the person's
    statement."""

    TOWN = "town", "The Town (received by the clerk)"
    COURT = "court", "The court"


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
    # the repeat results a user owes after its own sampling showed a violation (403.12(g)(2))
    "no_repeat_sample": "late_report",
    # a baseline report received with an element neither given nor explained (403.12(b))
    "baseline_incomplete": "late_report",
}

#: The provision a finding of a federal kind shows violated, when the finding cites the federal
#: rule (40 CFR 403) rather than the article: discharging with no approval in force breaks the
#: duty of § 196-16 E (written approval); a report not received breaks the reporting duty that
#: the approval's conditions impose under 40 CFR 403.12 (the finding's own paragraph, e.g.
#: 403.12(e), is kept); a milestone missed breaks the order that imposed the compliance schedule
#: (40 CFR 403.8(f)(1)(iv)); significant noncompliance is cited as 40 CFR 403.8(f)(2)(viii)
#: together with the provisions broken, which the SNC finding names. A finding whose citation
#: lies within the provision listed here keeps its own, more precise one. Staff may name
#: another when opening.
FINDING_SECTIONS: dict[str, str] = {
    "approval_expired": "§ 196-16 E",
    "milestone_missed": "40 CFR 403.8(f)(1)(iv)",
    "report_late": "40 CFR 403.12",
    "snc": "40 CFR 403.8(f)(2)(viii)",
}


class PetitionAsks(models.TextChoices):
    """What a petition against an order asks of the official (a town's own ladder)."""

    MODIFY = "modify", "Modify the order"
    SUSPEND = "suspend", "Suspend the order"


class PetitionDecision(models.TextChoices):
    """The official's decision on a petition against an order."""

    MODIFIED = "modified", "Granted: the order is modified (a new order replaces it)"
    SUSPENDED = "suspended", "Granted: the order is suspended"
    DENIED = "denied", "Denied: the order stands"
