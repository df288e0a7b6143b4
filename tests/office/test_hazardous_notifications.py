"""Hazardous-waste notifications (40 CFR 403.12(p)): recorded on the facility by the office or
sent by the facility's own account, refused when an element is missing (naming the field),
more asked above 100 kg a month, written once, shown on the facility's pages."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.pretreatment import hazardous
from sewer_office.pretreatment.models import HazardousWasteNotification
from sewer_office.registry.models import Establishment
from sewer_rules.federal import cfr403_hazardous as rule

from .factories import Town
from .pretreatment_factories import at

pytestmark = pytest.mark.django_db

NOTICE: dict[str, Any] = {
    "waste_name": "Wastewater treatment sludges from electroplating operations",
    "waste_number": "f006",
    "discharge_type": "batch",
    "monthly_kg": Decimal("40"),
    "minimization_certified": True,
    "notified_on": date(2026, 3, 2),
    "discharge_began_on": date(2026, 1, 5),
    "epa_notified_on": date(2026, 3, 2),
}


def _plant(town: Town) -> Establishment:
    assert town.other_plant is not None
    return town.other_plant


def _refused(actor: Any, est: Any, values: dict[str, Any]) -> dict[str, list[str]]:
    with pytest.raises(InvalidInput) as refused:
        hazardous.record_notification(actor, est, values, at=at("2026-03-03"))
    return refused.value.errors


def test_a_notice_names_its_waste_number(town: Town) -> None:
    clerk, plant = town.u("clerk"), _plant(town)
    errors = _refused(clerk, plant, {**NOTICE, "waste_number": ""})
    assert list(errors) == ["waste_number"]
    assert errors["waste_number"] == [
        "The EPA hazardous waste number (e.g. F006) (40 CFR 403.12(p)(1))."
    ]
    errors = _refused(clerk, plant, {**NOTICE, "waste_number": "6006"})
    assert "is not an EPA hazardous waste number" in errors["waste_number"][0]
    errors = _refused(clerk, plant, {**NOTICE, "discharge_type": "other", "waste_name": " "})
    assert set(errors) == {"waste_name", "discharge_detail"}
    errors = _refused(clerk, plant, {**NOTICE, "minimization_certified": False})
    assert "(40 CFR 403.12(p)(4))" in errors["minimization_certified"][0]
    assert not HazardousWasteNotification.objects.exists()


def test_above_100_kg_a_month_the_constituents_are_required(town: Town) -> None:
    clerk, plant = town.u("clerk"), _plant(town)
    assert hazardous.record_notification(clerk, plant, {**NOTICE, "monthly_kg": Decimal("100")})
    heavy = {**NOTICE, "monthly_kg": Decimal("100.5")}
    errors = _refused(clerk, plant, heavy)
    assert set(errors) == {"constituents", "month_estimate", "year_estimate"}
    assert "above 100 kg a month" in errors["constituents"][0]
    # the estimates may be said not known; the constituents may not
    errors = _refused(clerk, plant, {**heavy, "not_known": "No monthly weighing yet."})
    assert set(errors) == {"constituents"}
    made = hazardous.record_notification(
        clerk,
        plant,
        {**heavy, "constituents": "Cadmium, chromium, nickel, cyanide", "not_known": "No scale"},
    )
    assert made.above_detail_mass and made.channel == "paper" and made.waste_number == "F006"
    assert made.monthly_kg_text == "100.5"


def test_the_rule_knows_the_acute_wastes_and_the_15_kg_months() -> None:
    light = rule.Notice("x", "F006", "batch", "", Decimal("15"), "", "", "", "", True)
    on = date(2026, 3, 2)
    assert rule.exempt(light, on)
    assert not rule.exempt(
        rule.Notice("x", "P029", "batch", "", Decimal("1"), "", "", "", "", True), on
    )
    assert rule.is_acute("F027") and not rule.is_acute("F006")
    assert rule.due_by(date(2026, 1, 5)) == date(2026, 7, 4)
    with pytest.raises(ValueError, match="not in force"):
        rule.thresholds_on(date(1989, 1, 1))


def test_the_facility_sends_its_own_and_nobody_else_does(town: Town) -> None:
    plant = _plant(town)
    made = hazardous.record_notification(
        town.u("other"), plant, {**NOTICE, "notified_on": date(2020, 1, 1)}, at=at("2026-03-03")
    )
    assert made.channel == "portal" and made.notified_on == date(2026, 3, 3)  # the day it came
    assert made.recorded_by == town.u("other")
    event = AuditEvent.objects.get(action="record_hazardous_waste_notification")
    assert event.citation == "40 CFR 403.12(p)" and event.object_id == str(made.pk)
    with pytest.raises(Forbidden):
        hazardous.record_notification(town.u("owner"), plant, NOTICE)  # another's facility
    with pytest.raises(Forbidden, match="Superintendent, the engineer or the clerk"):
        hazardous.record_notification(town.u("inspector"), plant, NOTICE)
    with pytest.raises(ImmutableRecord):
        made.save()
    assert list(hazardous.notifications_in(2026)) == [made]
    assert not hazardous.notifications_in(2025).exists()


def test_a_late_notice_and_one_dated_in_the_future(town: Town) -> None:
    clerk, plant = town.u("clerk"), _plant(town)
    errors = _refused(clerk, plant, {**NOTICE, "notified_on": date(2026, 3, 9)})
    assert errors["notified_on"] == ["A notice cannot be dated in the future."]
    late = hazardous.record_notification(
        clerk, plant, {**NOTICE, "discharge_began_on": date(2025, 1, 5)}, at=at("2026-03-03")
    )
    assert late.late and late.due_by == date(2025, 7, 4)


def test_shown_on_the_facility_pages(town: Town, login: Any) -> None:
    plant = _plant(town)
    clerk = login("clerk")
    url = f"/pretreatment/facilities/{plant.pk}/hazardous-waste/"
    form = {
        "waste_name": "Spent cyanide plating bath solutions",
        "waste_number": "F007",
        "discharge_type": "batch",
        "monthly_kg": "12",
        "notified_on": "2026-03-02",
    }
    r = clerk.post(url, form)  # no certification: refused on its field
    assert r.status_code == 400
    assert "403.12(p)(4)" in r.content.decode()
    r = clerk.post(url, {**form, "minimization_certified": "on"})
    assert r.status_code == 302
    for page in (f"/registry/establishments/{plant.pk}/", f"/pretreatment/facilities/{plant.pk}/"):
        html = login("clerk").get(page).content.decode()
        assert "F007" in html and "Spent cyanide plating bath solutions" in html, page
        assert "15 kg or less: no notice needed" in html
    # the facility's own account sees it and may send one; another facility's does not
    assert "F007" in login("other").get(f"/registry/establishments/{plant.pk}/").content.decode()
    assert login("other").get(url).status_code == 200
    assert login("owner").get(url).status_code == 404
    assert login("inspector").get(url).status_code == 403
