"""Pieces shared by the permit workflows: date fields, the withdrawal transition."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django import forms
from django.utils import timezone

from sewer_office.accounts.roles import CLERK
from sewer_office.core.forms import DateInput
from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, Transition


def date_field(label: str, *, required: bool = False, help_text: str = "") -> forms.DateField:
    """A date; when left empty, the day the transition is made (town time) is recorded."""
    return forms.DateField(
        label=label,
        required=required,
        widget=DateInput,
        help_text=help_text or "Leave empty for today.",
    )


def day(value: date | None, at: datetime) -> date:
    """The date a :func:`date_field` recorded, or the day of ``at`` (town time) left empty."""
    return value if value is not None else timezone.localdate(at)


def withdraw(sources: tuple[str, ...], citation: str) -> Transition[Any, NoFacts]:
    """Withdrawal by the applicant, or by the clerk on the applicant's written request."""
    return Transition(
        name="withdraw",
        label="Withdraw",
        sources=sources,
        target="withdrawn",
        citation=citation,
        roles=frozenset({CLERK}),
        applicant=True,
        reason=REASON_REQUIRED,
        danger=True,
        queue=False,
    )


#: What makes a permit's fee step: never a checkbox on the permit, a payment recorded in
#: billing (which sits above the permits and calls ``perform(..., automatic=True)``).
FEE_PAID_BY_BILLING = (
    "a payment that settles the permit's fee invoice (recorded by the clerk on /billing/)"
)
