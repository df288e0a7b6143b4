"""Several member towns in one installation: each record belongs to its parcel's town, and a
staff member sees and acts for the towns they are granted.

The battery is generic where it can be: every page of the office that takes no argument is
opened by a clerk acting for the first town, before and after the second town's records are
filed; the two must be the same page, byte for byte (tokens aside). A count, a name or a row
of the other town's that reached any list, panel or filter's choices would differ.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.urls import get_resolver, reverse
from django.utils.html import escape

from sewer_office.accounts.access import visible
from sewer_office.accounts.jurisdictions import jurisdiction_paths, shared_reason
from sewer_office.accounts.services import create_user, grant_jurisdiction
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.permits.kinds import KINDS
from sewer_office.registry.models import Property
from sewer_office.registry.services import move_to_jurisdiction, register_property

from . import enforcement_factories as ef
from . import pretreatment_factories as pf
from .factories import PASSWORD, Town, new_record
from .jurisdiction_support import HOME, OTHER
from .test_every_list_downloads import OTHER_ROUTES, _named

#: The page that records a parcel's move, its battery here.
COVERED_URL_NAMES = ("registry:property-jurisdiction",)

TOKENS = re.compile(rb'(csrfmiddlewaretoken" value="|nonce="|X-CSRFToken": ")[^"]*')


def _file_other_towns_records(town: Town) -> dict[str, Any]:
    """Every kind of permit, limits and results over them, an SIU designation and a violation
    past its deadline, all of the other town's plant and parcels (a town under the article:
    the office makes none of the article's determinations for a town whose law is its own)."""
    plant = town.other_plant
    assert plant is not None
    records = {slug: new_record(slug, town, mine=False) for slug in KINDS}
    pf.designate_sius(town, plant)
    pf.limit(plant, "copper", "1.0")
    pf.results(plant, "copper", [("2026-01-10", "1.4"), ("2026-02-10", "0.9")])
    records["violation"] = ef.overdue(town, mine=False)
    return records


def _pages() -> list[str]:
    out = []
    for name, route in _named(get_resolver().url_patterns):
        if route.startswith(OTHER_ROUTES) or "<" in route:
            continue
        try:
            out.append(reverse(name))
        except Exception:  # a name that needs an argument given otherwise
            continue
    return sorted(set(out))


def _snapshot(client: Any, urls: list[str]) -> dict[str, tuple[int, bytes]]:
    """Each page's status and HTML (a file or a health check says nothing of records: its
    status only)."""
    shots = {}
    for url in urls:
        r = client.get(url)
        html = "text/html" in r.get("Content-Type", "") and not getattr(r, "streaming", False)
        shots[url] = (r.status_code, TOKENS.sub(rb"\1", r.content) if html else b"")
    return shots


def test_a_clerk_of_one_town_sees_nothing_of_the_other(article_towns: Town, login: Any) -> None:
    c = login("hclerk")
    urls = _pages()
    before = _snapshot(c, urls)
    assert sum(1 for status, _ in before.values() if status == 200) > 20
    _file_other_towns_records(article_towns)
    after = _snapshot(login("hclerk"), urls)
    changed = [u for u in urls if before[u] != after[u]]
    assert not changed, f"pages that show the other town's records: {changed}"


def test_detail_pages_are_404_across_towns_and_200_within(article_towns: Town, login: Any) -> None:
    records = _file_other_towns_records(article_towns)
    details = [f"/permits/{slug}/{records[slug].pk}/" for slug in KINDS]
    details += [f"/api/permits/{slug}/{records[slug].pk}/" for slug in KINDS]
    details += [
        f"/registry/properties/{article_towns.other_home.pk}/",  # type: ignore[union-attr]
        f"/registry/establishments/{article_towns.other_plant.pk}/",  # type: ignore[union-attr]
        f"/enforcement/{records['violation'].pk}/",
    ]
    for username, expected in (
        ("hclerk", 404),
        ("oclerk", 200),
        ("bothclerk", 200),
        ("coordinator", 200),
    ):
        c = login(username)
        for url in details:
            assert c.get(url).status_code == expected, (username, url)
    mine = f"/registry/properties/{article_towns.owner_home.pk}/"  # type: ignore[union-attr]
    assert login("oclerk").get(mine).status_code == 404
    assert login("hclerk").get(mine).status_code == 200


def test_a_clerk_acts_only_for_their_town(article_towns: Town, login: Any) -> None:
    """Acting goes through the same lookups: a POST on the other town's record is a 404."""
    record = new_record("building-sewer", article_towns, mine=False)
    r = login("hclerk").post(
        f"/permits/building-sewer/{record.pk}/actions/withdraw/", {"reason": "x"}
    )
    assert r.status_code == 404
    record.refresh_from_db()
    assert record.state != "withdrawn"


def test_registering_a_parcel_takes_the_town_the_clerk_acts_for(two_towns: Town) -> None:
    owner = two_towns.owner_person
    prop = register_property(
        two_towns.u("oclerk"),
        parcel_id="OT-1",
        address="1 Other Rd",
        owner=owner,  # type: ignore[arg-type]
        service_area=None,
    )
    assert prop.jurisdiction == OTHER
    with pytest.raises(Forbidden):
        register_property(
            two_towns.u("oclerk"),
            parcel_id="OT-2",
            address="2 Other Rd",
            owner=owner,  # type: ignore[arg-type]
            service_area=two_towns.served,
            jurisdiction="",
        )
    with pytest.raises(InvalidInput):
        register_property(
            two_towns.u("bothclerk"),
            parcel_id="OT-3",
            address="3 Other Rd",
            owner=owner,  # type: ignore[arg-type]
            service_area=two_towns.served,
            jurisdiction=OTHER,
        )


def test_moving_a_parcel_is_dated_audited_and_needs_both_towns(two_towns: Town) -> None:
    from sewer_office.core.models import AuditEvent

    home = two_towns.owner_home
    assert home is not None
    with pytest.raises(Forbidden):
        move_to_jurisdiction(two_towns.u("hclerk"), home, OTHER, date(2026, 3, 1), "IMA")
    with pytest.raises(InvalidInput):
        move_to_jurisdiction(two_towns.u("bothclerk"), home, OTHER, date(2026, 3, 1), " ")
    with pytest.raises(InvalidInput):
        move_to_jurisdiction(two_towns.u("bothclerk"), home, "elsewhere", date(2026, 3, 1), "x")
    move_to_jurisdiction(two_towns.u("bothclerk"), home, OTHER, date(2026, 3, 1), "L.L. 2-2026")
    home.refresh_from_db()
    assert (home.jurisdiction, home.jurisdiction_since) == (OTHER, date(2026, 3, 1))
    event = AuditEvent.objects.filter(action="move_jurisdiction").latest("id")
    assert event.reason == "L.L. 2-2026" and event.before["jurisdiction"] == HOME
    with pytest.raises(Blocked):
        move_to_jurisdiction(two_towns.u("bothclerk"), home, OTHER, date(2026, 3, 2), "again")


def test_one_town_installation_needs_no_grant(town: Town) -> None:
    """With one jurisdiction nothing narrows: the fixture's clerk, granted nothing, sees all."""
    assert visible(Property.objects.all(), town.u("clerk")).count() == Property.objects.count()


def test_every_record_says_which_town_it_belongs_to() -> None:
    """A model outside users reach (``ACCESS_PATHS``) says how its records reach a town
    (``JURISDICTION_PATHS``, declared or read from a path through a property), or why they
    belong to none (``JURISDICTION_SHARED``); an empty declaration hides them from a staff
    member of one town. Each path ends at a field named ``jurisdiction``."""
    from django.apps import apps

    silent = []
    for model in apps.get_models():
        if not model.__module__.startswith("sewer_office"):
            continue
        if not hasattr(model, "ACCESS_PATHS") and not hasattr(model, "PUBLIC_TO_OFFICE_USERS"):
            continue
        paths = jurisdiction_paths(model)
        declared = hasattr(model, "JURISDICTION_PATHS")
        if not paths and not declared and not shared_reason(model):
            silent.append(model._meta.label)
        for path in paths:
            target: Any = model
            *hops, last = path.split("__")
            for hop in hops:
                target = target._meta.get_field(hop).related_model
            assert last == "jurisdiction" and target._meta.get_field(last), (model, path)
    assert not silent, f"models that say nothing of their town: {silent}"


def test_the_plants_program_is_the_coordinators(two_towns: Town, login: Any) -> None:
    """The SNC run, its list and the annual report cover every member town's users: the
    coordinator's; a superintendent of one town is refused them (page, file and API)."""
    home_plant, other_plant = two_towns.owner_restaurant, two_towns.other_plant
    assert home_plant is not None and other_plant is not None
    pf.designate_sius(two_towns, home_plant, other_plant)
    grant = create_user("hsup", PASSWORD, ("superintendent",), jurisdictions=(HOME,))
    assert grant.staff_jurisdictions.count() == 1
    c = login("hsup")
    for url in ("/pretreatment/annual/2026/", "/pretreatment/annual/2026.csv",
                "/pretreatment/snc-list/2026/"):  # fmt: skip
        assert c.get(url).status_code == 403, url
    assert c.post("/pretreatment/snc/run/", {"period": "2026H1"}).status_code == 403
    r = c.post("/api/pretreatment/snc/run/", {"period": "2026H1"}, content_type="application/json")
    assert r.status_code == 403
    c = login("coordinator")
    page = c.get("/pretreatment/annual/2026/").content.decode()
    assert escape(home_plant.name) in page and escape(other_plant.name) in page
    r = c.post("/pretreatment/snc/run/", {"period": "2026H1"})
    assert r.status_code == 302


def test_the_clerk_records_a_parcels_move_from_its_page(two_towns: Town, login: Any) -> None:
    """From the property's page: its town and since when, and the link to record a move; the
    form refuses without an act; roles outside the clerk's, Superintendent's and coordinator's
    get 403, a clerk of the other town 404."""
    home = two_towns.owner_home
    assert home is not None
    url = f"/registry/properties/{home.pk}/jurisdiction/"
    c = login("bothclerk")
    page = c.get(f"/registry/properties/{home.pk}/").content.decode()
    assert 'id="jurisdiction"' in page and url in page
    assert c.get(url).status_code == 200
    r = c.post(url, {"jurisdiction": OTHER, "since": "2026-04-01", "reason": ""})
    assert r.status_code == 400 and "reason" in r.context["form"].errors
    r = c.post(url, {"jurisdiction": OTHER, "since": "2026-04-01", "reason": "IMA 2026-4"})
    assert r.status_code == 302
    home.refresh_from_db()
    assert (home.jurisdiction, str(home.jurisdiction_since)) == (OTHER, "2026-04-01")
    assert login("engineer").get(url).status_code == 403
    assert login("hclerk").get(url).status_code == 404
    assert login(None).get(url).status_code == 302


def test_the_intake_form_names_the_town_only_in_an_office_of_several(
    town: Town, login: Any, settings: Any
) -> None:
    c = login("clerk")
    assert 'name="jurisdiction"' not in c.get("/registry/properties/new/").content.decode()
    settings.SEWER_USE_JURISDICTIONS = [HOME, OTHER]
    grant_jurisdiction(town.u("clerk"), OTHER)
    assert 'name="jurisdiction"' in c.get("/registry/properties/new/").content.decode()
    r = c.post(
        "/registry/properties/new/",
        {"parcel_id": "OT-9", "address": "9 Other Rd", "city": "Poughkeepsie", "state": "NY",
         "zip": "12603", "owner": town.owner_person.pk, "jurisdiction": OTHER},  # type: ignore[union-attr]
    )  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Property.objects.get(parcel_id="OT-9").jurisdiction == OTHER


def test_a_facility_keeps_its_parcels_town(two_towns: Town) -> None:
    """Registered on a parcel, moved with it: a facility's town is always its parcel's (its
    records are found by it)."""
    from sewer_office.registry.models import Establishment
    from sewer_office.registry.services import register_establishment

    plant, diner = two_towns.other_plant, two_towns.owner_restaurant
    assert plant is not None and diner is not None
    plant.refresh_from_db()
    assert (plant.jurisdiction, diner.jurisdiction) == (OTHER, HOME)
    other_building = plant.building
    new = register_establishment(
        two_towns.u("bothclerk"), name="Other Bakery", kind="restaurant",
        operator=two_towns.other_person, building=other_building,  # type: ignore[arg-type]
    )  # fmt: skip
    assert new.jurisdiction == OTHER
    home = diner.building.property  # type: ignore[union-attr]
    move_to_jurisdiction(two_towns.u("bothclerk"), home, OTHER, date(2026, 5, 1), "IMA 2026-5")
    assert set(
        Establishment.objects.filter(building__property=home).values_list("jurisdiction", flat=True)
    ) == {OTHER}
    mismatched = [
        e.pk
        for e in Establishment.objects.select_related("building__property")
        if e.jurisdiction != e.building.property.jurisdiction
    ]
    assert not mismatched
