"""Where a letter goes: the registry's one address function (which address it chooses, what it
says is missing), the checks of a state and a ZIP code, the pages that record an address and
the warning on the pages that issue letters."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent
from sewer_office.registry import services
from sewer_office.registry.addresses import (
    address_gaps,
    mailing_lines,
    set_mailing_address,
    set_postal_address,
)
from sewer_office.registry.choices import ContactKind
from sewer_office.registry.models import Contact, Person, Property
from sewer_office.registry.postal import normalize_zip, validate_state, validate_zip

from .enforcement_factories import issued as issued_violation
from .factories import Town

pytestmark = pytest.mark.django_db


# --- the checks ---------------------------------------------------------------------------


@pytest.mark.parametrize("good", ["", "12590", "12590-1234", " 12533 ", "125901234"])
def test_zip_codes_accepted(good: str) -> None:
    validate_zip(good)


@pytest.mark.parametrize("bad", ["1259", "125900", "12590-12", "ABCDE", "12590 NY", "12-590"])
def test_zip_codes_refused_naming_the_field(bad: str) -> None:
    with pytest.raises(ValidationError, match="ZIP code"):
        validate_zip(bad)


def test_zip_plus_four_written_with_its_hyphen() -> None:
    assert normalize_zip("125901234") == "12590-1234"
    assert normalize_zip(" 12590 ") == "12590"


def test_state_codes() -> None:
    validate_state("NY")
    validate_state("ny")
    validate_state("")
    for bad in ("N", "NYC", "XX", "New York"):
        with pytest.raises(ValidationError, match="State"):
            validate_state(bad)


def test_model_fields_validate_state_and_zip(town: Town) -> None:
    prop = town.owner_home
    prop.state, prop.zip = "QQ", "1234"
    with pytest.raises(ValidationError) as caught:
        prop.full_clean()
    assert set(caught.value.message_dict) == {"state", "zip"}


# --- which address ------------------------------------------------------------------------


def test_premises_address_when_the_person_has_no_mailing_address(town: Town) -> None:
    lines = mailing_lines(town.owner_person, town.owner_home)
    assert lines == ["Olive Owner", "100-01 Main St", "Wappingers Falls, NY 12590"]
    assert address_gaps(town.owner_person, town.owner_home) == []


def test_the_premises_concerned_rather_than_the_first_property(town: Town) -> None:
    assert mailing_lines(town.owner_person, town.tract)[1:] == [
        "Tract A",
        "Hopewell Junction, NY 12533",
    ]
    # without premises: the first property the person owns
    assert mailing_lines(town.owner_person)[1] == "100-01 Main St"


def test_a_complete_mailing_address_wins_over_the_premises(town: Town) -> None:
    person = town.other_person
    set_mailing_address(
        person,
        town.u("clerk"),
        street="Attn: Treasurer\n1180 Route 52",
        city="Fishkill",
        state="ny",
        zip_code="12524",
    )
    person.refresh_from_db()
    assert person.mail_state == "NY"
    assert mailing_lines(person, town.other_home) == [
        "Otto Other",
        "Attn: Treasurer",
        "1180 Route 52",
        "Fishkill, NY 12524",
    ]
    assert address_gaps(person, town.other_home) == []
    assert AuditEvent.objects.filter(action="set_mailing_address").count() == 1


def test_a_recorded_but_incomplete_mailing_address_is_chosen_with_its_gaps(town: Town) -> None:
    """The person said its mail goes elsewhere: a letter must not silently go to the premises;
    the office is told what to complete."""
    person = town.other_person
    person.mail_street, person.mail_city = "9 Elm St", "Beacon"
    person.save()
    assert mailing_lines(person, town.other_home) == ["Otto Other", "9 Elm St", "Beacon"]
    assert address_gaps(person, town.other_home) == ["state", "ZIP code"]


def test_the_older_free_text_mailing_address(town: Town) -> None:
    person = town.owner_person
    Contact.objects.create(
        person=person, kind=ContactKind.MAIL, value="PO Box 17\nWappingers Falls, NY 12590"
    )
    assert mailing_lines(person, town.owner_home)[1:] == ["PO Box 17", "Wappingers Falls, NY 12590"]
    assert address_gaps(person, town.owner_home) == []
    # a complete structured address is preferred to the older text
    person.mail_street, person.mail_city = "5 Mill Street", "Poughkeepsie"
    person.mail_state, person.mail_zip = "NY", "12603"
    person.save()
    assert mailing_lines(person)[-1] == "Poughkeepsie, NY 12603"


def test_free_text_without_a_zip_code_is_incomplete(town: Town) -> None:
    person = town.owner_person
    Contact.objects.create(person=person, kind=ContactKind.MAIL, value="12 Elm St., Beacon")
    assert "ZIP code" in address_gaps(person, town.owner_home)


def test_gaps_of_a_premises_without_its_locality(town: Town) -> None:
    Property.objects.filter(pk=town.owner_home.pk).update(city="", state="", zip="")
    home = Property.objects.get(pk=town.owner_home.pk)
    assert mailing_lines(town.owner_person, home) == ["Olive Owner", "100-01 Main St"]
    assert address_gaps(town.owner_person, home) == ["town", "state", "ZIP code"]
    home.city, home.state = "Wappingers Falls", "NY"
    assert address_gaps(town.owner_person, home) == ["ZIP code"]
    assert mailing_lines(town.owner_person, home)[-1] == "Wappingers Falls, NY"


def test_nothing_recorded_at_all(town: Town) -> None:
    nobody = Person.objects.create(name="Nobody Known")
    assert mailing_lines(nobody) == ["Nobody Known"]
    assert address_gaps(nobody) == ["street", "town", "state", "ZIP code"]


# --- recording an address -----------------------------------------------------------------


def test_services_refuse_a_bad_zip_and_other_roles(town: Town) -> None:
    with pytest.raises(InvalidInput) as caught:
        set_postal_address(
            town.owner_home,
            town.u("clerk"),
            address="1 A St",
            city="Fishkill",
            state="NY",
            zip_code="1252",
        )
    assert set(caught.value.errors) == {"zip"} and "ZIP code" in caught.value.errors["zip"][0]
    with pytest.raises(Forbidden):
        set_mailing_address(
            town.owner_person, town.u("engineer"), street="", city="", state="", zip_code=""
        )
    with pytest.raises(InvalidInput):
        services.register_property(
            town.u("clerk"),
            parcel_id="777-77",
            address="7 Elm St",
            owner=town.owner_person,
            service_area=town.served,
            postal={"city": "Fishkill", "state": "ZZ", "zip": "12524"},
        )


def test_clerk_edits_a_property_address_on_its_page(town: Town, login: Any) -> None:
    c = login("clerk")
    url = f"/registry/properties/{town.owner_home.pk}/address/"
    assert c.get(url).status_code == 200
    bad = c.post(url, {"address": "100-01 Main St", "city": "Fishkill", "state": "NY", "zip": "9"})
    assert bad.status_code == 400
    assert "ZIP code" in bad.context["form"].errors["zip"][0]
    ok = c.post(
        url, {"address": "100-01 Main St", "city": "Fishkill", "state": "ny", "zip": "12524"}
    )
    assert ok.status_code == 302
    town.owner_home.refresh_from_db()
    assert (town.owner_home.city, town.owner_home.state, town.owner_home.zip) == (
        "Fishkill",
        "NY",
        "12524",
    )
    page = c.get(f"/registry/properties/{town.owner_home.pk}/").content.decode()
    assert "Fishkill, NY 12524" in page
    assert login("engineer").get(url).status_code == 403


def test_a_half_mailing_address_is_refused_naming_the_missing_fields(
    town: Town, login: Any
) -> None:
    c = login("clerk")
    url = f"/registry/persons/{town.owner_person.pk}/address/"
    bad = c.post(url, {"mail_street": "PO Box 9", "mail_state": "NY"})
    assert bad.status_code == 400
    errors = bad.context["form"].errors
    assert set(errors) == {"mail_city", "mail_zip"}
    assert "Mailing town" in errors["mail_city"][0]
    ok = c.post(
        url + "?next=/registry/persons/",
        {
            "mail_street": "PO Box 9",
            "mail_city": "Fishkill",
            "mail_state": "NY",
            "mail_zip": "12524",
        },
    )
    assert ok.status_code == 302 and ok["Location"] == "/registry/persons/"
    # all blank again: mail to the premises
    assert c.post(url, {}).status_code == 302
    town.owner_person.refresh_from_db()
    assert town.owner_person.mail_street == "" and town.owner_person.mail_zip == ""


def test_intake_records_the_postal_locality_and_the_mailing_address(town: Town, login: Any) -> None:
    c = login("clerk")
    r = c.post(
        "/registry/persons/new/",
        {
            "kind": "company",
            "name": "Absent Holdings LLC",
            "mail_street": "40 Market Street",
            "mail_city": "Poughkeepsie",
            "mail_state": "NY",
            "mail_zip": "12603",
        },
    )
    assert r.status_code == 302
    person = Person.objects.get(name="Absent Holdings LLC")
    r = c.post(
        "/registry/properties/new/",
        {
            "parcel_id": "555-02",
            "address": "2 River Road",
            "city": "Wappingers Falls",
            "state": "NY",
            "zip": "12590",
            "owner": person.pk,
        },
    )
    assert r.status_code == 302
    prop = Property.objects.get(parcel_id="555-02")
    assert mailing_lines(person, prop) == [
        "Absent Holdings LLC",
        "40 Market Street",
        "Poughkeepsie, NY 12603",
    ]
    bad = c.post(
        "/registry/properties/new/",
        {"parcel_id": "555-03", "address": "3 River Road", "zip": "125", "owner": person.pk},
    )
    assert bad.status_code == 400 and "ZIP code" in bad.context["form"].errors["zip"][0]


# --- the warning before mailing -----------------------------------------------------------


def test_violation_page_warns_of_an_incomplete_address_without_blocking(
    town: Town, login: Any
) -> None:
    v = issued_violation(town)
    c = login("clerk")
    page = c.get(f"/enforcement/{v.pk}/").content.decode()
    assert "Address incomplete" not in page
    premises = v.establishment.building.property if v.establishment else v.property
    Property.objects.filter(pk=premises.pk).update(zip="")
    page = c.get(f"/enforcement/{v.pk}/").content.decode()
    assert "Address incomplete" in page and "ZIP code" in page
    assert f"/registry/properties/{premises.pk}/address/?next=" in page
    assert f"/registry/persons/{v.person_id}/address/?next=" in page


def test_invoice_page_warns_of_an_incomplete_address(town: Town, login: Any) -> None:
    """An invoice to a person with no property and no mailing address: the clerk is told, with
    the link to record the person's mailing address; the owner (outside user) is not."""
    from datetime import date

    from sewer_office.billing import charges, invoices

    clerk = town.u("clerk")
    person = Person.objects.create(name="Walk In Buyer")
    copies = charges.article_copies(person, 1, date(2026, 3, 2), clerk)
    invoice = invoices.issue_invoice(person, [copies], clerk, date(2026, 3, 2))
    page = login("clerk").get(f"/billing/invoices/{invoice.pk}/").content.decode()
    assert "Address incomplete" in page and "street, town, state, ZIP code" in page
    assert f"/registry/persons/{person.pk}/address/?next=" in page
    set_mailing_address(
        person, clerk, street="12 Mill Street", city="Fishkill", state="NY", zip_code="12524"
    )
    page = login("clerk").get(f"/billing/invoices/{invoice.pk}/").content.decode()
    assert "Address incomplete" not in page
