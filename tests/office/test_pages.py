"""The pages people use: filing with field-level errors and uploads, actions with their forms,
dashboards per role, the property page, lists with filters and pagination."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sewer_office.permits.models import BuildingSewerPermit

from .billing_money_factories import pay_fee
from .factories import Town, new_record, plan_file
from .paths import bsp_to


def test_owner_files_with_plans_and_sees_field_errors(town: Town, login: Any) -> None:
    c = login("owner")
    form = c.get("/permits/building-sewer/new/")
    assert form.status_code == 200 and 'name="files"' in form.content.decode()
    bad = c.post(
        "/permits/building-sewer/new/",
        {
            "applicant": town.owner_person.pk,
            "property": town.owner_home.pk,
            "permit_class": 1,
            "diameter": "four inches",
            "slope": "1/4 in/ft",
        },
    )
    assert bad.status_code == 400
    assert "diameter" in bad.context["form"].errors
    fields = {
        "applicant": town.owner_person.pk,
        "property": town.owner_home.pk,
        "permit_class": 1,
        "diameter": "4 in",
        "slope": "2 %",
        "connected_sources": ["sanitary_fixtures", "laundry"],
        "building_drain_elevation_ft": "101",
        "public_sewer_elevation_ft": "96",
        "length_ft": "50",
    }
    # 2 % is less than 1/4 in/ft: the owner is shown § 196-18 F failing before filing
    shown = c.post("/permits/building-sewer/new/", fields)
    assert shown.status_code == 200 and 'id="design-checks"' in shown.content.decode()
    assert not BuildingSewerPermit.objects.exists()
    good = c.post(
        "/permits/building-sewer/new/",
        {
            **fields,
            "file_anyway": "1",
            "files": [plan_file("site-plan.pdf"), plan_file("profile.pdf")],
        },
    )
    assert good.status_code == 302
    permit = BuildingSewerPermit.objects.get()
    assert good["Location"] == f"/permits/building-sewer/{permit.pk}/"
    page = c.get(good["Location"]).content.decode()
    assert "site-plan.pdf" in page and "profile.pdf" in page and permit.number in page
    assert permit.design["building_sewers"][0]["slope"] == "2 %"


def test_engineer_sees_design_checks_and_cannot_approve_failing_plans(
    town: Town, login: Any
) -> None:
    from .factories import BAD_DESIGN

    p = new_record("building-sewer", town, design=BAD_DESIGN)
    p = pay_fee(town, p)
    c = login("engineer")
    page = c.get(f"/permits/building-sewer/{p.pk}/").content.decode()
    assert 'id="plan-checks"' in page and "§ 196-18 F" in page and "failed" in page
    r = c.post(f"/permits/building-sewer/{p.pk}/actions/approve_plans/", {"reason": ""})
    assert r.status_code == 409 and "cannot be approved" in r.content.decode()
    p.refresh_from_db()
    assert p.state == "plan_review"
    # the applicant sees the checks staff see
    owner_page = login("owner").get(f"/permits/building-sewer/{p.pk}/").content.decode()
    assert 'id="plan-checks"' in owner_page and "failed" in owner_page


def test_action_form_errors_are_shown_by_field(town: Town, login: Any) -> None:
    p = bsp_to(town, "plans_approved")
    r = login("highway").post(
        f"/permits/building-sewer/{p.pk}/actions/record_road_opening_permit/",
        {"road_opening_number": ""},
    )
    assert r.status_code == 400
    html = r.content.decode()
    assert html.count('class="errorlist"') >= 3
    good = login("highway").post(
        f"/permits/building-sewer/{p.pk}/actions/record_road_opening_permit/",
        {"road_opening_number": "RO-5", "insurance_confirmed": "on", "bond_confirmed": "on"},
    )
    assert good.status_code == 302
    p.refresh_from_db()
    assert p.state == "road_opening_permitted" and p.road_opening_number == "RO-5"


def test_detail_shows_timeline_with_citations_and_who_is_awaited(town: Town, login: Any) -> None:
    p = bsp_to(town, "road_opening_permitted")
    html = login("clerk").get(f"/permits/building-sewer/{p.pk}/").content.decode()
    text = re.sub(r"<[^>]+>", "", html)  # each citation is a link to the law page
    for cite in ("§ 196-18 B", "§ 196-18 K", "§ 196-18 D; § 196-18 F"):
        assert cite in text
    assert "Road opening permit issued" in html
    html = login("engineer").get(f"/permits/building-sewer/{p.pk}/").content.decode()
    assert "Waiting for Olive Owner (owner) or the Clerk to notify (ready for inspection)" in html


def test_dashboards_show_each_roles_queue(town: Town, login: Any) -> None:
    submitted = new_record("building-sewer", town)
    review = pay_fee(town, new_record("building-sewer", town, mine=False))
    clerk = login("clerk").get("/").content.decode()
    assert submitted.number in clerk and review.number not in clerk
    eng = login("engineer").get("/").content.decode()
    assert review.number in eng and submitted.number not in eng
    owner = login("owner").get("/").content.decode()
    assert submitted.number in owner and review.number not in owner
    viewer = login("viewer").get("/").content.decode()
    assert "Nothing is waiting on you" in viewer and "at a glance" in viewer


def test_property_page_shows_everything(town: Town, login: Any) -> None:
    p = bsp_to(town, "completed")
    g = new_record("grinder", town)
    html = login("inspector").get(f"/registry/properties/{town.owner_home.pk}/").content.decode()
    assert p.number in html and g.number in html
    assert "Public sewer connection" in html and "Set wastewater service" in html
    assert town.owner_home.parcel_id in html


def test_lists_filter_search_and_paginate(town: Town, login: Any) -> None:
    for _ in range(27):
        new_record("grinder", town, hp="0.5")
    c = login("clerk")
    first = c.get("/permits/grinder/").content.decode()
    assert "Page 1 of 2" in first
    second = c.get("/permits/grinder/?page=2").content.decode()
    assert len(re.findall(r'href="/permits/grinder/\d+/"', second)) == 2
    none = c.get("/permits/grinder/?state=approved").content.decode()
    assert "No records match" in none
    found = c.get("/permits/grinder/?q=GRD-&open=false").content.decode()
    assert "Page 1 of 2" in found
    props = c.get("/registry/properties/?wastewater_service=public_sewer").content.decode()
    assert "No properties match" in props


def test_availability_act_from_the_area_page(town: Town, login: Any) -> None:
    c = login("superintendent")
    page = c.get(f"/registry/areas/{town.phase3.pk}/").content.decode()
    assert "Record the Town" in page
    bad = c.post(f"/registry/areas/{town.phase3.pk}/declare/", {"available_from": "", "act": ""})
    assert bad.status_code == 400
    ok = c.post(
        f"/registry/areas/{town.phase3.pk}/declare/",
        {"available_from": "2026-02-01", "act": "res. 2026-9"},
    )
    assert ok.status_code == 302
    assert "Record the Town" not in c.get(f"/registry/areas/{town.phase3.pk}/").content.decode()


def test_login_logout_password_change(town: Town, client: Any) -> None:
    from .factories import PASSWORD

    page = client.get("/accounts/login/")
    assert page.status_code == 200 and "csrfmiddlewaretoken" in page.content.decode()
    r = client.post("/accounts/login/", {"username": "clerk", "password": PASSWORD})
    assert r.status_code == 302 and r["Location"] == "/"
    r = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-Secret-99",
            "new_password2": "a-new-Secret-99",
        },
    )
    assert r.status_code == 302
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").status_code == 302
    assert client.login(username="clerk", password="a-new-Secret-99")


def test_healthz(client: Any, db: Any) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json()["status"] == "ok"


def test_no_external_assets(town: Town, login: Any) -> None:
    html = login("clerk").get("/").content.decode()
    srcs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert srcs and all(not s.startswith(("http://", "https://", "//")) for s in srcs)
    assert "/static/office/htmx-2.0.11.min.js" in html


def test_back_office_is_for_superusers_and_audits_registry_changes(town: Town, client: Any) -> None:
    from django.contrib.auth import get_user_model

    from sewer_office.core.models import AuditEvent

    assert client.get("/admin/registry/property/").status_code == 302
    client.force_login(town.u("clerk"))  # a role of the office, not the back office
    assert client.get("/admin/registry/property/").status_code == 302
    admin = get_user_model().objects.create_superuser("admin", "admin@example.invalid", "x")
    client.force_login(admin)
    for url in (
        "/admin/registry/property/",
        "/admin/core/auditevent/",
        "/admin/permits/buildingsewerpermit/",
    ):
        assert client.get(url).status_code == 200, url
    assert client.get("/admin/permits/buildingsewerpermit/add/").status_code == 403
    assert client.get("/admin/core/auditevent/add/").status_code == 403
    r = client.post(
        f"/admin/registry/person/{town.owner_person.pk}/change/",
        {
            "kind": "individual",
            "name": "Olive Owner-Smith",
            "notes": "",
            "representatives": [town.u("owner").pk],
            "contacts-TOTAL_FORMS": "0",
            "contacts-INITIAL_FORMS": "0",
        },
    )
    assert r.status_code == 302, r.content[:500]
    ev = AuditEvent.objects.get(action="back_office_change")
    assert ev.before["name"] == "Olive Owner" and ev.after["name"] == "Olive Owner-Smith"


def test_clerk_registers_person_property_and_establishment(town: Town, login: Any) -> None:
    from sewer_office.core.models import AuditEvent
    from sewer_office.registry.models import Establishment, Person, Property

    c = login("clerk")
    r = c.post(
        "/registry/persons/new/",
        {"kind": "company", "name": "New Bakery LLC", "email": "x@example.invalid"},
    )
    assert r.status_code == 302
    person = Person.objects.get(name="New Bakery LLC")
    assert person.contacts.get().value == "x@example.invalid"
    dup = c.post(
        "/registry/properties/new/",
        {"parcel_id": town.owner_home.parcel_id, "address": "1 X", "owner": person.pk},
    )
    assert dup.status_code == 400 and "parcel_id" in dup.context["form"].errors
    r = c.post(
        "/registry/properties/new/",
        {
            "parcel_id": "555-01",
            "address": "5 Bakery Lane",
            "owner": person.pk,
            "service_area": town.served.pk,
            "building_use": "food_service",
            "dwelling_units": 0,
        },
    )
    assert r.status_code == 302
    prop = Property.objects.get(parcel_id="555-01")
    r = c.post(
        "/registry/establishments/new/",
        {
            "name": "New Bakery",
            "kind": "food_preparation",
            "operator": person.pk,
            "building": prop.buildings.get().pk,
        },
    )
    assert r.status_code == 302
    est = Establishment.objects.get(name="New Bakery")
    assert est.is_food
    assert AuditEvent.objects.filter(action="register").count() == 3
    assert (
        login("engineer")
        .post("/registry/persons/new/", {"kind": "individual", "name": "X"})
        .status_code
        == 403
    )


def test_favicon_ico_leads_to_the_mark(client: Any) -> None:
    """Browsers ask for /favicon.ico on their own (no page links it for a PDF): it leads to the
    office's mark, signed in or not (the file itself is served by the static files)."""
    from django.contrib.staticfiles import finders

    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/office/favicon-32.png")
    found = finders.find("office/favicon-32.png")
    assert found and Path(str(found)).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
