"""Violations at each stage, for the enforcement tests (built through the services).

Dates are fixed (``at=`` back-dates each step), so no test depends on the day it runs: the
first notice is issued on Monday 2026-01-05 and, served the same day with the article's 10
days, has its deadline on Thursday 2026-01-15. The demo jurisdiction's daily amount changes
from 250.00 to 350.00 on 2026-01-18.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from django.utils import timezone

from sewer_office.core.services import perform
from sewer_office.enforcement import services
from sewer_office.enforcement.models import Violation
from sewer_office.findings.services import record_finding

from .factories import Town


def at(day: str, hour: int = 10) -> datetime:
    return timezone.make_aware(datetime.combine(date.fromisoformat(day), time(hour)))


def finding(
    town: Town,
    *,
    mine: bool = True,
    day: str = "2026-01-02",
    status: str = "prohibited",  # pH below 5.5 is absolutely prohibited (§ 196-19 C(3))
    est: Any = None,
    message: str = "copper 2.1 mg/L over the daily maximum 1.0 mg/L",
) -> Any:
    """A finding of the owner's restaurant (``mine``) or the other's plant, or of ``est``."""
    if est is None:
        est = town.owner_restaurant if mine else town.other_plant
    return record_finding(
        source=None,
        establishment=est,
        kind="lab_result",
        status=status,
        citation="§ 196-19 C(3)",
        message=message,
        observed_at=at(day, 9),
    )


def opened(town: Town, *, mine: bool = True, day: str = "2026-01-02") -> Violation:
    return services.open_from_finding(
        town.u("superintendent"), finding(town, mine=mine, day=day), at=at(day, 12)
    )


def issued(town: Town, *, mine: bool = True, period: int | None = None) -> Violation:
    v = opened(town, mine=mine)
    data = {"nature": "Copper over the limit"}
    if period is not None:
        data["period_days"] = str(period)
    return perform(v, "issue_notice", town.u("superintendent"), data, at=at("2026-01-05", 9))


def served(
    town: Town, *, mine: bool = True, on: str = "2026-01-05", mailed: str = "", **kw: Any
) -> Violation:
    """Served on ``on`` by certified mail: mailed on ``mailed`` (default the same day), its
    delivery on ``on`` recorded from the return receipt (service completes on delivery)."""
    v = mailed_notice(town, mine=mine, on=mailed or on, **kw)
    return perform(
        v,
        "record_delivery",
        town.u("clerk"),
        {"delivered_on": on, "delivery_proof": "return_receipt"},
        at=at(on, 16),
    )


def mailed_notice(town: Town, *, mine: bool = True, on: str = "2026-01-05", **kw: Any) -> Violation:
    """The notice mailed by certified mail on ``on``, not yet delivered (no clock runs)."""
    v = issued(town, mine=mine, **kw)
    return perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": on, "service_method": "certified_mail", "receipt_number": "7019 0001"},
        at=at(on, 15),
    )


def overdue(town: Town, *, mine: bool = True) -> Violation:
    v = served(town, mine=mine)
    services.advance_clocks(date(2026, 1, 16))
    v.refresh_from_db()
    return v


def reported(town: Town, *, mine: bool = True, on: str = "2026-01-19") -> Violation:
    v = overdue(town, mine=mine)
    return perform(
        v,
        "report_correction",
        town.u("owner" if mine else "other"),
        {"reported_on": on, "description": "Pretreatment unit repaired"},
        at=at(on, 16),
    )
