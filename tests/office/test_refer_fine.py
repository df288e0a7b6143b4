"""A violation corrected after its deadline still owes the fine for the days it continued
(§ 196-22 B): the Superintendent refers that fine to the Town Attorney after verifying the
correction, and the violation stays corrected."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.core.services import perform
from sewer_office.enforcement import liability

from .enforcement_factories import at, reported, served
from .factories import Town

pytestmark = pytest.mark.django_db


def _verified_late(town: Town) -> Any:
    v = reported(town)  # deadline January 15, reported January 19
    return perform(
        v, "verify", town.u("superintendent"), {"verified_on": "2026-01-20"}, at=at("2026-01-20")
    )


def test_the_fine_for_the_days_late_is_referred_and_the_violation_stays_corrected(
    town: Town,
) -> None:
    v = _verified_late(town)
    assert v.state == "corrected"
    owed = liability.fines(v)
    assert owed.total is not None and owed.total > 0
    v = perform(
        v,
        "refer_fine",
        town.u("superintendent"),
        {"referred_to": "Town Attorney", "note": "late by four days"},
        at=at("2026-01-22"),
    )
    assert v.state == "corrected"
    [referral] = v.referrals.all()
    assert referral.kind == "town_attorney" and referral.citation
    assert referral.computation["fine"]["total"] == str(owed.total)
    with pytest.raises(Blocked, match="already referred"):
        perform(v, "refer_fine", town.u("superintendent"), {}, at=at("2026-01-23"))


def test_no_fine_no_referral_and_only_issuers_refer(town: Town) -> None:
    v = served(town)
    v = perform(
        v,
        "report_correction",
        town.u("owner"),
        {"reported_on": "2026-01-08", "description": "fixed in time"},
        at=at("2026-01-08"),
    )
    v = perform(
        v, "verify", town.u("superintendent"), {"verified_on": "2026-01-09"}, at=at("2026-01-09")
    )
    with pytest.raises(Blocked, match="No fine to refer"):
        perform(v, "refer_fine", town.u("superintendent"), {}, at=at("2026-01-10"))
    late = _verified_late(town)
    with pytest.raises(Forbidden):
        perform(late, "refer_fine", town.u("clerk"), {}, at=at("2026-01-22"))


def test_the_page_offers_it_after_a_late_correction(town: Town, login: Any) -> None:
    v = _verified_late(town)
    page = login("superintendent").get(reverse("enforcement:detail", args=[v.pk]))
    assert b"Refer the fine for the days late" in page.content
