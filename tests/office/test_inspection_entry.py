"""§ 196-21 in full: a refusal of entry becomes a finding and a violation of § 196-21 A; EPA,
DEC and County Health inspectors recorded on an inspection (never on a Town easement)."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.core.errors import Forbidden, InvalidInput, TransitionNotAllowed
from sewer_office.core.models import AuditEvent
from sewer_office.enforcement import services as enforcement
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of
from sewer_office.inspections import entry, services
from sewer_office.inspections.models import AgencyInspector, EntryRefusal

from .enforcement_factories import at
from .factories import Town
from .test_inspections import completed, scheduled

REFUSAL = {
    "refused_by": "J. Doe, plant manager",
    "asked": "entry to the pretreatment room to sample the clarifier outlet",
    "credentials_shown": "Town of Wappinger ID 12 and business card",
}


def test_a_refusal_of_entry_is_a_finding_and_opens_a_violation_of_196_21_a(town: Town) -> None:
    i = scheduled(town)
    refusal = entry.record_refusal(
        i, town.u("inspector"), refused_at=at("2026-01-02", 10), at=at("2026-01-02", 11), **REFUSAL
    )
    assert refusal.citation == "§ 196-21 A" and refusal.recorded_by == town.u("inspector")
    (finding,) = findings_of(i)
    assert (finding.kind, finding.citation) == ("inspection", "§ 196-21 A")
    assert "J. Doe, plant manager" in finding.message and "ID 12" in finding.message
    assert finding.establishment == town.owner_restaurant
    assert AuditEvent.objects.filter(action="record_entry_refusal").count() == 1
    v = enforcement.open_from_finding(town.u("superintendent"), finding, at=at("2026-01-03"))
    assert (v.section, v.kind, v.person) == (
        "§ 196-21 A",
        "failed_inspection_item",
        town.owner_restaurant.operator,
    )


def test_a_refusal_on_an_easement_cites_b(town: Town) -> None:
    i = services.schedule(
        town.u("engineer"),
        kind="building_sewer",
        property=town.owner_home,
        on_easement=True,
        unscheduled=True,
        location="manhole 14 behind the garage",
    )
    r = entry.record_refusal(i, town.u("engineer"), refused_at=at("2026-01-02"), **REFUSAL)
    assert r.citation == "§ 196-21 B" and findings_of(i).get().citation == "§ 196-21 B"


@pytest.mark.parametrize(
    ("field", "changes"),
    [
        ("refused_by", {"refused_by": " "}),
        ("asked", {"asked": ""}),
        ("credentials_shown", {"credentials_shown": ""}),
    ],
)
def test_a_refusal_needs_who_what_and_the_credentials(
    town: Town, field: str, changes: dict[str, str]
) -> None:
    i = scheduled(town)
    with pytest.raises(InvalidInput) as e:
        entry.record_refusal(
            i, town.u("inspector"), refused_at=at("2026-01-02"), **{**REFUSAL, **changes}
        )
    assert field in e.value.errors
    assert not EntryRefusal.objects.exists() and not Finding.objects.exists()


def test_a_refusal_is_not_in_the_future_nor_on_a_completed_inspection(town: Town) -> None:
    i = scheduled(town)
    with pytest.raises(InvalidInput) as e:
        entry.record_refusal(
            i, town.u("inspector"), refused_at=at("2026-01-05"), at=at("2026-01-02"), **REFUSAL
        )
    assert "refused_at" in e.value.errors
    with pytest.raises(TransitionNotAllowed):
        entry.record_refusal(
            completed(town), town.u("inspector"), refused_at=at("2026-01-02"), **REFUSAL
        )
    with pytest.raises(Forbidden):
        entry.record_refusal(i, town.u("clerk"), refused_at=at("2026-01-02"), **REFUSAL)
    assert not EntryRefusal.objects.exists()


def test_agency_inspectors_are_recorded_with_their_credential(town: Town) -> None:
    i = scheduled(town)
    for agency, name in (("epa", "A. Fed"), ("dec", "R. Rivera"), ("county_health", "C. Ho")):
        entry.add_agency_inspector(
            i, town.u("superintendent"), agency=agency, name=name, credential=f"{agency} 1"
        )
    assert [a.get_agency_display() for a in i.agency_inspectors.all()] == [
        "Environmental Protection Agency",
        "New York State Department of Environmental Conservation",
        "Dutchess County Department of Health",
    ]
    with pytest.raises(InvalidInput) as e:
        entry.add_agency_inspector(i, town.u("engineer"), agency="fbi", name="x", credential="y")
    assert "agency" in e.value.errors
    with pytest.raises(InvalidInput) as e:
        entry.add_agency_inspector(i, town.u("engineer"), agency="dec", name="x", credential=" ")
    assert "credential" in e.value.errors
    with pytest.raises(Forbidden):
        entry.add_agency_inspector(i, town.u("viewer"), agency="dec", name="x", credential="y")
    assert AgencyInspector.objects.count() == 3


def test_an_easement_admits_town_staff_only(town: Town) -> None:
    i = services.schedule(
        town.u("engineer"),
        kind="building_sewer",
        property=town.owner_home,
        on_easement=True,
        unscheduled=True,
        location="manhole 14",
    )
    with pytest.raises(InvalidInput, match="196-21 B"):
        entry.add_agency_inspector(
            i, town.u("engineer"), agency="dec", name="R. Rivera", credential="DEC 4411"
        )
    assert not AgencyInspector.objects.exists()


def test_page_and_api_record_and_show_them(town: Town, login: Any) -> None:
    i = scheduled(town)
    c = login("inspector")
    r = c.post(
        f"/inspections/{i.pk}/agency-inspectors/",
        {"agency": "dec", "name": "R. Rivera", "credential": "DEC badge 4411"},
    )
    assert r.status_code == 302
    r = c.post(f"/inspections/{i.pk}/refusal/", {**REFUSAL, "refused_at": ""})
    assert r.status_code == 400 and not EntryRefusal.objects.exists()
    r = c.post(f"/inspections/{i.pk}/refusal/", {**REFUSAL, "refused_at": "2026-01-02T10:00"})
    assert r.status_code == 302
    page = c.get(f"/inspections/{i.pk}/").content.decode()
    assert "R. Rivera" in page and "DEC badge 4411" in page and "J. Doe, plant manager" in page
    j = scheduled(town, mine=False)
    r = c.post(
        f"/api/inspections/{j.pk}/refusal/",
        {**REFUSAL, "refused_at": "2026-01-02T10:00:00-05:00"},
        content_type="application/json",
    )
    assert r.status_code == 201, r.content.decode()
    body = r.json()
    assert body["refusals"][0]["citation"] == "§ 196-21 A"
    assert body["findings"][0]["citation"] == "§ 196-21 A"
    r = c.post(
        f"/api/inspections/{j.pk}/agency-inspectors/",
        {"agency": "epa", "name": "A. Fed", "credential": ""},
        content_type="application/json",
    )
    assert r.status_code == 400 and "credential" in r.content.decode()
    # the violation opened from the refusal's finding through the API
    finding = findings_of(j).get()
    sup = login("superintendent")
    r = sup.post(
        "/api/enforcement/violations/", {"finding": finding.pk}, content_type="application/json"
    )
    assert r.status_code == 201 and r.json()["section"] == "§ 196-21 A"
