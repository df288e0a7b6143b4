"""The facts each enforcement transition records: its form's cleaned data, typed.

One ``TypedDict`` per form of :mod:`.forms`, with one key per field and the type the field
cleans to (an optional ``CharField`` cleans to ``""``, an optional ``DateField`` or
``IntegerField`` to ``None``). :mod:`.workflow` declares each transition's facts (``facts=``)
and :class:`~sewer_office.core.workflow.Transition` checks at import that they name exactly the
form's fields, so the guards and effects of :mod:`.notices`, :mod:`.corrections`,
:mod:`.referrals` and :mod:`.schedules` read only what the form records, and mypy checks it.
Kept apart from the forms so that the services need not import the pages' forms.
"""

from __future__ import annotations

from datetime import date
from typing import TypedDict


class IssueFacts(TypedDict):
    """A notice issued (§ 196-22 A): its stated nature (blank: the violation's description)
    and its correction period (None: the article's least period)."""

    nature: str
    period_days: int | None


class SupersedeFacts(IssueFacts):
    """A superseding notice: the new notice's terms and why it replaces the old one."""

    reason: str


class ServiceFacts(TypedDict):
    """Service of a notice (§ 196-22 A): the day delivered, e-mailed or mailed, and how."""

    served_on: date
    service_method: str
    receipt_number: str
    email_address: str
    email_consent: bool


class DeliveryFacts(TypedDict):
    """A mailed notice's delivery: the return receipt's day and what shows it."""

    delivered_on: date
    delivery_proof: str


class CorrectionReportFacts(TypedDict):
    """The person's report that the violation is corrected (§ 196-22 A)."""

    reported_on: date
    description: str


class VerificationFacts(TypedDict):
    """A correction verified (§ 196-22 B): the day, the day the violation ceased (None: the
    day reported), the follow-up inspection's number (the form cleans the choice to it)."""

    verified_on: date
    ceased_on: date | None
    inspection: int | None
    note: str


class RejectionFacts(TypedDict):
    """A reported correction rejected: the day of the decision."""

    rejected_on: date


class EscalationFacts(TypedDict):
    """The guide's next step (§ 196-22): a new notice's terms, or whom a referral goes to."""

    nature: str
    period_days: int | None
    referred_to: str


class ReferralFacts(TypedDict):
    """A referral (§ 196-20, § 196-22 B, D): its kind, to whom, and a note."""

    kind: str
    referred_to: str
    note: str


class FineReferralFacts(TypedDict):
    """The fine for the days late sent to the Town Attorney (§ 196-22 B): no kind to ask."""

    referred_to: str
    note: str


class MilestoneCompletionFacts(TypedDict):
    """A compliance schedule's milestone completed (40 CFR 403.12(c)): the day and the report."""

    completed_on: date
    completion_report: str
