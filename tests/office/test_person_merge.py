"""Merging a person entered twice: both records kept, audited, the duplicate no more offered
and no more named by new records, its page pointing to the survivor, whose page lists the
duplicate's records; refused into itself, in a loop, and for other roles."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import APPLICANT
from sewer_office.accounts.services import create_user
from sewer_office.billing.forms import PaymentForm
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.core.models import AuditEvent
from sewer_office.registry import services
from sewer_office.registry.choices import ContactKind
from sewer_office.registry.merge import likely_duplicates, merge_person
from sewer_office.registry.models import Contact, Person, Property

from .factories import Town, new_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def twin(town: Town) -> Person:
    """Olive Owner entered a second time (a punctuation and a company-form word apart)."""
    return Person.objects.create(name="OLIVE OWNER, Inc.")


def test_duplicates_page_lists_same_name_and_same_address(
    town: Town, twin: Person, login: Any
) -> None:
    a = Person.objects.create(name="Ann Able")
    b = Person.objects.create(name="Anne Able")
    for p in (a, b):
        Contact.objects.create(person=p, kind=ContactKind.MAIL, value="12  Elm St., Beacon")
    groups = {(g.reason, frozenset(p.pk for p in g.persons)) for g in likely_duplicates()}
    assert ("same name", frozenset({town.owner_person.pk, twin.pk})) in groups
    assert ("same mailing address", frozenset({a.pk, b.pk})) in groups
    page = login("clerk").get("/registry/persons/duplicates/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/registry/persons/{twin.pk}/merge/?into={town.owner_person.pk}" in html
    assert "100-01 Main St" in html  # enough to tell them apart


def test_merge_keeps_both_is_audited_and_hides_the_duplicate(
    town: Town, twin: Person, login: Any
) -> None:
    client = login("clerk")
    survivor, duplicate = twin, town.owner_person
    response = client.post(
        f"/registry/persons/{duplicate.pk}/merge/",
        {"survivor": str(survivor.pk), "reason": "same owner, entered at two counters"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"/registry/persons/{survivor.pk}/"
    duplicate.refresh_from_db()
    assert duplicate.merged_into == survivor and duplicate.merged_by == town.u("clerk")
    assert duplicate.merged_at is not None
    assert Person.objects.filter(pk__in=[survivor.pk, duplicate.pk]).count() == 2
    # the duplicate's records still name it
    assert town.owner_home.owner_id == duplicate.pk
    event = AuditEvent.objects.get(action="merge_into", object_id=str(duplicate.pk))
    assert event.actor == town.u("clerk") and event.citation == "§ 196-15 PERSON"
    assert event.after["merged_into_id"] == survivor.pk
    assert AuditEvent.objects.filter(action="merge_from", object_id=str(survivor.pk)).exists()
    # no picker, no search, no list offers it any more
    found = client.get("/registry/pick/person/", {"q": "olive owner"}).json()["results"]
    assert [r["id"] for r in found] == [survivor.pk]
    form = PaymentForm({"person": str(duplicate.pk), "method": "check", "amount": "1"})
    assert not form.is_valid()
    assert form.errors["person"] == [
        f"Paid by: no person #{duplicate.pk} among those you may choose."
    ]
    assert (
        f"/registry/persons/{duplicate.pk}/"
        not in client.get("/registry/persons/").content.decode()
    )
    assert (
        f"/registry/persons/{duplicate.pk}/"
        not in client.get("/search/", {"q": "olive"}).content.decode()
    )
    # its page says whom it was merged into
    page = client.get(f"/registry/persons/{duplicate.pk}/").content.decode()
    assert "Merged into" in page and f'href="/registry/persons/{survivor.pk}/"' in page


def test_survivors_page_lists_the_duplicates_records(town: Town, twin: Person, login: Any) -> None:
    permit = new_record("building-sewer", town)  # filed for Olive Owner
    merge_person(town.owner_person, twin, town.u("superintendent"))
    page = login("clerk").get(f"/registry/persons/{twin.pk}/").content.decode()
    assert "Entries merged into this person" in page
    assert f'href="/registry/properties/{town.owner_home.pk}/"' in page
    assert permit.get_absolute_url() in page
    assert f"under Olive Owner #{town.owner_person.pk}" in page


def test_no_new_record_names_a_merged_person(town: Town, twin: Person) -> None:
    merge_person(town.owner_person, twin, town.u("clerk"))
    with pytest.raises(Blocked, match="merged into"):
        services.register_property(
            town.u("clerk"),
            parcel_id="555-55",
            address="55 Elm St",
            owner=town.owner_person,
            service_area=town.served,
        )
    assert not Property.objects.filter(parcel_id="555-55").exists()
    with pytest.raises(Blocked):
        town.owner_person.representatives.add(town.u("other"))


def test_merge_refused_into_itself_in_a_loop_and_twice(town: Town, twin: Person) -> None:
    clerk = town.u("clerk")
    with pytest.raises(Blocked, match="into itself"):
        merge_person(twin, twin, clerk)
    merge_person(twin, town.owner_person, clerk)
    with pytest.raises(Blocked, match="itself merged"):
        merge_person(town.owner_person, twin, clerk)
    with pytest.raises(Blocked, match="already merged"):
        merge_person(twin, town.other_person, clerk)
    assert Person.objects.get(pk=town.owner_person.pk).merged_into is None


def test_merge_form_refuses_itself_naming_the_field(town: Town, twin: Person, login: Any) -> None:
    response = login("clerk").post(
        f"/registry/persons/{twin.pk}/merge/", {"survivor": f"#{twin.pk}"}
    )
    assert response.status_code == 400
    assert "Merge into (the person that stays): no person #" in response.content.decode()
    twin.refresh_from_db()
    assert twin.merged_into is None


@pytest.mark.parametrize("username", ["engineer", "inspector", "highway", "viewer", "owner"])
def test_merge_refused_for_other_roles(town: Town, twin: Person, login: Any, username: str) -> None:
    client = login(username)
    url = f"/registry/persons/{twin.pk}/merge/"
    assert client.get(url).status_code == 403
    assert client.post(url, {"survivor": str(town.owner_person.pk)}).status_code == 403
    assert client.get("/registry/persons/duplicates/").status_code == 403
    with pytest.raises(Forbidden):
        merge_person(twin, town.owner_person, town.u(username))
    twin.refresh_from_db()
    assert twin.merged_into is None


def test_reachable_from_the_person_page_and_list(town: Town, twin: Person, login: Any) -> None:
    client = login("superintendent")
    assert (
        f"/registry/persons/{twin.pk}/merge/"
        in client.get(f"/registry/persons/{twin.pk}/").content.decode()
    )
    assert "/registry/persons/duplicates/" in client.get("/registry/persons/").content.decode()
    viewer = login("viewer")
    assert "/merge/" not in viewer.get(f"/registry/persons/{twin.pk}/").content.decode()


def test_current_names_the_survivor(town: Town, twin: Person) -> None:
    merge_person(twin, town.owner_person, town.u("clerk"))
    twin.refresh_from_db()
    assert twin.current() == town.owner_person
    assert town.owner_person.current() == town.owner_person


def test_an_account_linked_to_either_sees_the_records_of_both_once_merged(
    town: Town, twin: Person
) -> None:
    """A merge says the two entries are one person: the owner's account (linked to the entry
    merged away) keeps its records and sees the survivor's; an account linked to the survivor
    sees the duplicate's. Before the merge, neither sees the other's."""
    permit = new_record("building-sewer", town)  # filed for Olive Owner (the duplicate)
    theirs = Property.objects.create(
        parcel_id="200-02", address="2 Twin Rd", owner=twin, service_area=town.served
    )
    twin_account = create_user("twin", "pw-Twin-2026", (APPLICANT,))
    twin.representatives.add(twin_account)
    model = type(permit)
    assert not visible(model.objects.filter(pk=permit.pk), twin_account).exists()
    assert not visible(Property.objects.filter(pk=theirs.pk), town.u("owner")).exists()

    merge_person(town.owner_person, twin, town.u("clerk"))
    twin_account = type(twin_account).objects.get(pk=twin_account.pk)  # no cached ids
    owner = type(twin_account).objects.get(pk=town.u("owner").pk)
    assert visible(model.objects.filter(pk=permit.pk), twin_account).exists()
    assert visible(Property.objects.filter(pk=theirs.pk), owner).exists()
    assert visible(model.objects.filter(pk=permit.pk), owner).exists()  # its own, still
    assert not visible(Property.objects.filter(pk=theirs.pk), town.u("other")).exists()
