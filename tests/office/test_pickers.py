"""Search pickers: the endpoint finds persons, facilities, properties and buildings by name,
address, parcel or number among what the user may see; the forms take a chosen id, a text
naming one record, and refuse an unknown, out-of-scope or ambiguous one naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.billing.forms import PaymentForm
from sewer_office.enforcement.forms import OpenForm
from sewer_office.permits.forms import BuildingSewerForm
from sewer_office.registry.choices import ContactKind
from sewer_office.registry.models import Contact, Person

from .factories import Town

pytestmark = pytest.mark.django_db


def _pick(client: Any, kind: str, q: str) -> list[dict[str, Any]]:
    response = client.get(f"/registry/pick/{kind}/", {"q": q})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    return list(response.json()["results"])


def _ids(results: list[dict[str, Any]]) -> set[int]:
    return {r["id"] for r in results}


def test_person_found_by_name_address_parcel_mail_and_number(town: Town, login: Any) -> None:
    client = login("clerk")
    olive, otto = town.owner_person, town.other_person
    Contact.objects.create(person=otto, kind=ContactKind.MAIL, value="PO Box 77, Beacon NY 12508")
    assert _ids(_pick(client, "person", "olive")) == {olive.pk}
    # an address and a parcel of what each owns
    assert _ids(_pick(client, "person", "100-04 Main")) == {otto.pk}
    assert _ids(_pick(client, "person", "300-01")) == {olive.pk}
    # the mailing address, and a facility operated
    assert _ids(_pick(client, "person", "Beacon")) == {otto.pk}
    assert _ids(_pick(client, "person", "plating")) == {otto.pk}
    # the number
    assert olive.pk in _ids(_pick(client, "person", f"#{olive.pk}"))
    # every word must match: a name and a street of another person's find nobody
    assert _pick(client, "person", "olive 100-04") == []


def test_matches_say_enough_to_tell_people_apart(town: Town, login: Any) -> None:
    twin = Person.objects.create(name="Olive Owner")
    Contact.objects.create(person=twin, kind=ContactKind.MAIL, value="9 Elm St, Fishkill NY")
    results = _pick(login("clerk"), "person", "Olive Owner")
    assert _ids(results) == {town.owner_person.pk, twin.pk}
    by_id = {r["id"]: r for r in results}
    assert "100-01 Main St" in by_id[town.owner_person.pk]["detail"]
    assert "Olive's Diner" in by_id[town.owner_person.pk]["detail"]
    assert "9 Elm St" in by_id[twin.pk]["detail"]


def test_facility_property_and_building_found(town: Town, login: Any) -> None:
    client = login("clerk")
    assert _ids(_pick(client, "establishment", "100-03")) == {town.owner_restaurant.pk}
    assert _ids(_pick(client, "establishment", "otto")) == {town.other_plant.pk}
    plant = _pick(client, "establishment", "Otto Plating")[0]
    assert "100-04 Main St" in plant["detail"] and "Otto Other" in plant["detail"]
    assert _ids(_pick(client, "property", "100-02")) == {town.other_home.pk}
    assert _ids(_pick(client, "property", "Olive Tract")) == {town.tract.pk}
    building = town.owner_home.buildings.get()
    assert _ids(_pick(client, "building", "100-01")) == {building.pk}


def test_outside_user_finds_only_their_own(town: Town, login: Any) -> None:
    client = login("owner")
    assert _ids(_pick(client, "person", "O")) == {town.owner_person.pk}
    assert _ids(_pick(client, "person", "Owner")) == {town.owner_person.pk}
    assert _pick(client, "person", "Otto") == []
    assert _pick(client, "person", f"#{town.other_person.pk}") == []
    assert _pick(client, "establishment", "plating") == []
    assert _ids(_pick(client, "property", "Main St")) == {
        p.pk for p in town.owner_person.properties.exclude(address="Tract A")
    }


def test_unknown_kind_is_404_and_anonymous_goes_to_login(town: Town, login: Any) -> None:
    assert login("clerk").get("/registry/pick/invoice/?q=x").status_code == 404
    response = login(None).get("/registry/pick/person/?q=olive")
    assert response.status_code == 302 and "/login" in response["Location"]


def _payment(person: Any) -> PaymentForm:
    return PaymentForm({"person": person, "method": "check", "amount": "10.00"})


def test_form_takes_a_chosen_id_and_shows_its_label_again(town: Town) -> None:
    form = _payment(str(town.other_person.pk))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["person"] == town.other_person
    html = str(form["person"])
    assert 'name="person"' in html and "Otto Other" in html and "100-02 Main St" in html


def test_form_refuses_an_unknown_id_naming_the_field(town: Town) -> None:
    form = _payment("#987654")
    assert not form.is_valid()
    assert form.errors["person"] == ["Paid by: no person #987654 among those you may choose."]


def test_form_takes_a_text_naming_one_and_lists_several_to_choose(town: Town) -> None:
    form = _payment("otto")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["person"] == town.other_person
    twin = Person.objects.create(name="Otto Other")
    form = _payment("Otto Other")
    assert not form.is_valid()
    assert "Paid by: 2 persons match “Otto Other”; choose one." in form.errors["person"]
    html = str(form["person"])
    assert html.count('name="person__pick"') == 2 and "100-02 Main St" in html
    chosen = PaymentForm(
        {"person": "Otto Other", "person__pick": str(twin.pk), "method": "check", "amount": "1"}
    )
    assert chosen.is_valid(), chosen.errors
    assert chosen.cleaned_data["person"] == twin


def test_open_violation_form_fields_are_pickers(town: Town) -> None:
    form = OpenForm(
        {
            "kind": "",
            "person": str(town.other_person.pk),
            "establishment": "Otto Plating",
            "property": "nowhere street",
        },
        kinds=[],
    )
    form.is_valid()
    assert "person" not in form.errors
    assert "establishment" not in form.errors
    assert form.errors["property"] == [
        "Property: no property matching “nowhere street” among those you may choose."
    ]
    assert 'data-picker-url="/registry/pick/person/"' in str(form["person"])


def test_outside_users_form_refuses_anothers_person_naming_the_field(town: Town) -> None:
    form = BuildingSewerForm(
        {"applicant": f"#{town.other_person.pk}", "property": str(town.owner_home.pk)},
        user=town.u("owner"),
    )
    form.is_valid()
    assert form.errors["applicant"] == [
        f"Applicant: no person #{town.other_person.pk} among those you may choose."
    ]
    assert "property" not in form.errors
    # an outside user's few records stay a select
    assert "<select" in str(form["property"])


def test_staff_permit_form_picks_by_search(town: Town) -> None:
    form = BuildingSewerForm({"applicant": "Olive", "property": "100-01"}, user=town.u("clerk"))
    form.is_valid()
    assert "applicant" not in form.errors and "property" not in form.errors
    assert form.cleaned_data["applicant"] == town.owner_person
    assert form.cleaned_data["property"] == town.owner_home


def test_payment_page_takes_a_typed_name_and_tells_several_apart(town: Town, login: Any) -> None:
    client = login("clerk")
    page = client.get("/billing/payments/new/", {"person": "otto"}).content.decode()
    assert "Open invoices of Otto Other" in page
    twin = Person.objects.create(name="Otto Other")
    page = client.get("/billing/payments/new/", {"person": "otto other"}).content.decode()
    assert "Open invoices of" not in page
    assert "Paid by: 2 persons match" in page and f"#{twin.pk} Otto Other" in page


def test_person_found_by_the_mailing_address_on_record(town: Town, login: Any) -> None:
    Person.objects.filter(pk=town.other_person.pk).update(
        mail_street="PO Box 9", mail_city="Poughkeepsie", mail_state="NY", mail_zip="12601"
    )
    results = _pick(login("clerk"), "person", "poughkeepsie")
    assert _ids(results) == {town.other_person.pk}
    assert "PO Box 9, Poughkeepsie, NY 12601" in results[0]["detail"]
