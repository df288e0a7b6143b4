"""Permission battery of the petition pages (see test_permissions.py): recording a petition
against an order of a town's own ladder, and deciding it.

Anonymous → login; no role → 403; recording is the clerk's and the Superintendent's, deciding
the Superintendent's (who issues the orders), every other role 403; a staff member who does not
act for the violation's town gets 404 (the violation is not theirs to see); the owner 403.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.urls import reverse

from sewer_office.enforcement import petitions
from sewer_office.enforcement.models import Petition

from .factories import Town
from .test_town_own_law_orders import _received

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {"enforcement:petition", "enforcement:petition-decision"}

PETITION = {"asks": "modify", "grounds": "More time", "received_on": "2026-12-01"}
DECISION = {"decision": "denied", "decided_on": "2026-12-02", "note": "Refused"}


def _petitioned(town: Town) -> Petition:
    v = _received(town)
    return petitions.record_petition(
        v, town.u("oclerk"), asks="modify", grounds="x", received_on=date(2026, 11, 30)
    )


def test_urls_are_named_as_declared() -> None:
    assert reverse("enforcement:petition", args=[1]) == "/enforcement/1/petitions/"
    assert reverse("enforcement:petition-decision", args=[1]) == (
        "/enforcement/petitions/1/decision/"
    )


def test_anonymous_and_no_role_are_refused(two_towns: Town, client: Any, login: Any) -> None:
    p = _petitioned(two_towns)
    urls = (f"/enforcement/{p.violation_id}/petitions/", f"/enforcement/petitions/{p.pk}/decision/")
    for url in urls:
        r = client.post(url, {})
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    c = login("norole")
    for url in urls:
        assert c.post(url, {}).status_code == 403, url


@pytest.mark.parametrize(
    ("username", "records", "decides"),
    [
        ("superintendent", True, True),
        ("clerk", True, False),
        ("engineer", False, False),
        ("inspector", False, False),
        ("highway", False, False),
        ("viewer", False, False),
        ("owner", False, False),
    ],
)
def test_each_role_records_or_decides_as_the_law_allows(
    two_towns: Town, login: Any, username: str, records: bool, decides: bool
) -> None:
    v = _received(two_towns)
    c = login(username)
    r = c.post(f"/enforcement/{v.pk}/petitions/", PETITION)
    assert r.status_code == (302 if records else 403), (username, r.status_code)
    p = Petition.objects.filter(violation=v).first() or petitions.record_petition(
        v, two_towns.u("oclerk"), asks="modify", grounds="x", received_on=date(2026, 11, 30)
    )
    r = login(username).post(f"/enforcement/petitions/{p.pk}/decision/", DECISION)
    assert r.status_code == (302 if decides else 403), (username, r.status_code)


def test_staff_of_another_town_do_not_find_it(two_towns: Town, login: Any) -> None:
    p = _petitioned(two_towns)
    c = login("hclerk")
    assert c.post(f"/enforcement/{p.violation_id}/petitions/", PETITION).status_code == 404


def test_the_api_records_and_decides_as_the_pages_do(
    two_towns: Town, client: Any, login: Any
) -> None:
    v = _received(two_towns)
    url = f"/api/enforcement/violations/{v.pk}/petition/"
    assert client.post(url, PETITION, content_type="application/json").status_code == 401
    r = login("engineer").post(url, PETITION, content_type="application/json")
    assert r.status_code == 403
    r = login("clerk").post(
        url, {**PETITION, "received_on": "2026-11-01"}, content_type="application/json"
    )
    assert (
        r.status_code == 400
        and "was received on 2026-11-19" in r.json()["errors"]["received_on"][0]
    )
    r = login("clerk").post(url, PETITION, content_type="application/json")
    assert r.status_code == 201, r.content
    [p] = r.json()["petitions"]
    assert (p["timely"], p["due_on"], p["citation"]) == (
        True,
        "2026-12-04",
        "T. Poughkeepsie Code [ecode360 6322621] B(2)",
    )
    decide = f"/api/enforcement/violations/{v.pk}/petition-decision/"
    body = {**DECISION, "petition": p["id"]}
    assert login("clerk").post(decide, body, content_type="application/json").status_code == 403
    r = login("superintendent").post(decide, body, content_type="application/json")
    assert r.status_code == 200 and r.json()["petitions"][0]["decision"] == "denied"
    r = login("superintendent").post(decide, body, content_type="application/json")
    assert r.status_code == 409  # decided once
    assert login("hclerk").post(url, PETITION, content_type="application/json").status_code == 404
