"""The enforcement panels: the facility and property pages show open violations; the
dashboard shows the Superintendent and the clerk what waits on them (notices to serve,
deadlines this week, fines accruing, corrections to verify); the outside user sees its own
violations and notices with the letter and the way to report a correction."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from sewer_office.core.services import perform
from sewer_office.enforcement import services

from .enforcement_factories import at, issued, overdue, reported, served
from .factories import Town


def _by_hand_on_the_home(town: Town) -> Any:
    return services.open_violation(
        town.u("inspector"),
        kind="discharge_seen",
        section="§ 196-18 H",
        description="Roof drain connected to the sanitary sewer",
        person=town.owner_person,
        property=town.owner_home,
        observed_on=timezone.localdate() - timedelta(days=3),
    )


def _section(body: str, anchor: str) -> str:
    return body.split(f'id="{anchor}"')[1].split("</section>")[0]


def test_property_page_shows_the_open_violations_of_the_property_and_its_facilities(
    town: Town, login: Any
) -> None:
    home = _by_hand_on_the_home(town)
    sup = login("superintendent")
    body = sup.get(f"/registry/properties/{town.owner_home.pk}/").content.decode()
    assert home.number in body and "§ 196-18 H" in body
    shop = town.owner_restaurant.building.property
    v = served(town)  # the restaurant's, on another parcel
    body = sup.get(f"/registry/properties/{shop.pk}/").content.decode()
    assert v.number in body and home.number not in body
    # the owner: its served violation, not the one the office has not noticed yet
    owner = login("owner")
    assert v.number in owner.get(f"/registry/properties/{shop.pk}/").content.decode()
    body = owner.get(f"/registry/properties/{town.owner_home.pk}/").content.decode()
    assert home.number not in body and "No open violation" in body
    perform(home, "issue_notice", town.u("superintendent"), {})
    body = owner.get(f"/registry/properties/{town.owner_home.pk}/").content.decode()
    assert home.number in body
    # another outside user cannot reach the page at all
    assert login("other").get(f"/registry/properties/{town.owner_home.pk}/").status_code == 404


def test_superintendent_and_clerk_dashboards(town: Town, login: Any) -> None:
    today = timezone.localdate()
    to_serve = issued(town)
    week = served(town, mine=False, on=str(today - timedelta(days=8)))
    late = overdue(town)
    check = reported(town, mine=False)
    body = login("superintendent").get("/").content.decode()
    assert f"VIOL-{to_serve.pk}" in _section(body, "notices-to-serve")
    assert f"VIOL-{week.pk}" in _section(body, "deadlines-this-week")
    accruing = _section(body, "fines-accruing")
    assert late.number in accruing and "USD" in accruing and "subject to conviction" in accruing
    assert check.number in _section(body, "corrections-to-verify")
    clerk = login("clerk").get("/").content.decode()
    assert f"VIOL-{to_serve.pk}" in _section(clerk, "notices-to-serve")
    assert late.number in _section(clerk, "fines-accruing")
    assert 'id="corrections-to-verify"' not in clerk  # the clerk does not verify
    viewer = login("viewer").get("/").content.decode()
    assert 'id="notices-to-serve"' not in viewer and 'id="fines-accruing"' in viewer


def test_outside_user_sees_its_own_violations_and_notices_on_the_dashboard(
    town: Town, login: Any
) -> None:
    mine, theirs = served(town), served(town, mine=False)
    body = login("owner").get("/").content.decode()
    panel = _section(body, "my-violations")
    notice = mine.notices.get()
    assert mine.number in panel and theirs.number not in panel
    assert f"/enforcement/notices/{notice.pk}.pdf" in panel
    assert "Report the correction" in panel
    assert login("owner").get(f"/enforcement/notices/{notice.pk}.pdf").content.startswith(b"%PDF")
    # reported: the owner no longer offers to report it again
    perform(
        mine,
        "report_correction",
        town.u("owner"),
        {"reported_on": "2026-01-07", "description": "Trap pumped"},
        at=at("2026-01-07"),
    )
    panel = _section(login("owner").get("/").content.decode(), "my-violations")
    assert "Correction reported" in panel and "Report the correction" not in panel
    # the other outside user sees its own, not the owner's
    panel = _section(login("other").get("/").content.decode(), "my-violations")
    assert theirs.number in panel and mine.number not in panel


def test_owner_reports_a_correction_through_the_api(town: Town, login: Any) -> None:
    v = served(town)
    c = login("owner")
    r = c.post(
        f"/api/enforcement/violations/{v.pk}/report-correction/",
        {"reported_on": "2026-01-08", "description": "Pretreatment unit repaired"},
        content_type="application/json",
    )
    assert r.status_code == 200 and r.json()["state"] == "correction_reported"
    r = c.post(
        f"/api/enforcement/violations/{v.pk}/verify/",
        {"verified_on": "2026-01-09"},
        content_type="application/json",
    )
    assert r.status_code == 403  # the owner reports; the Town verifies
