"""§ 196-16 G in the office: a subdivision's page says whether its owners shall construct sewers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sewer_office.permits.services.subdivision import file_subdivision, sewer_duty
from sewer_office.registry.models import Property

from .factories import Town, new_record


def _outside_any_district(town: Town, acres: str, parcel: str = "950-01") -> Any:
    land = Property.objects.create(
        parcel_id=parcel, address=f"Far Farm {parcel}", owner=town.owner_person, service_area=None
    )
    return file_subdivision(
        town.u("clerk"),
        applicant=town.owner_person,
        prop=land,
        name="Far Fields",
        lots=3,
        smallest_lot_acres=Decimal(acres),
        estimated_cost=Decimal("50000"),
    )


def test_half_acre_lots_require_sewers(town: Town) -> None:
    duty = sewer_duty(new_record("subdivision", town))  # 0.5-acre lots, in a served area
    assert duty["required"] is True and duty["small_plots"] is True
    assert duty["in_sewer_district"] is True
    assert duty["citation"] == "§ 196-16 G"


def test_large_lots_outside_any_sewer_district_do_not(town: Town) -> None:
    duty = sewer_duty(_outside_any_district(town, "1"))
    assert duty["required"] is False and duty["small_plots"] is False
    assert duty["in_sewer_district"] is False
    assert sewer_duty(_outside_any_district(town, "0.9", "950-02"))["required"] is True


def test_the_subdivision_page_shows_the_finding_with_its_citation(town: Town, login: Any) -> None:
    sub = _outside_any_district(town, "2")
    page = login("clerk").get(f"/permits/subdivision/{sub.pk}/").content.decode()
    assert 'id="sewer-duty"' in page
    assert "not required" in page and "§ 196-16 G" in page
    assert "subdivision.plot_size_minimum = 1 acre per dwelling unit" in page
