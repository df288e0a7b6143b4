"""Permission battery of the surcharge pages and endpoints: decisions (the Superintendent
alone records and ends them), agreements (the Superintendent or the clerk), their list and a
facility's page (staff), runs in JSON and CSV (staff)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.urls import reverse

from sewer_office.billing import runs, surcharge_basis
from sewer_office.billing.models import SurchargeAgreement, SurchargeDecision

from .factories import Town
from .test_billing_core_runs import decide, flow_meter, sample_day

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {
    "billing:surcharges",
    "billing:surcharge-facility",
    "billing:surcharge-decision-new",
    "billing:surcharge-agreement-new",
    "billing:surcharge-decision-end",
    "billing:surcharge-agreement-end",
}
COVERED_URL_PREFIXES = (
    "billing-run-",
    "billing-surcharge-decision-",
    "billing-surcharge-agreement-",
)
STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
DECISION = {
    "basis": "instead_of_pretreatment",
    "decided_on": "2026-02-10",
    "first_day": "2026-02-15",
    "reasons": "grease above normal strength; payment instead of a grease interceptor",
}
AGREEMENT = {
    "parties": "Town and Otto Plating",
    "terms": "BOD up to 2,000 mg/l accepted",
    "signed_on": "2026-01-05",
    "signed_by": "Supervisor; O. Other",
    "board_approval": "resolution 2026-3 of 2026-01-04",
    "first_day": "2026-01-05",
}


def _setup(town: Town) -> tuple[int, SurchargeDecision, SurchargeAgreement]:
    mine, theirs = town.owner_restaurant, town.other_plant
    assert mine is not None and theirs is not None
    d = decide(town, mine, date(2026, 1, 1))
    a = surcharge_basis.record_agreement(
        theirs,
        town.u("clerk"),
        parties="Town and Otto Plating",
        terms="t",
        first_day=date(2026, 1, 1),
        signed_on=date(2026, 1, 1),
        signed_by="s",
        board_approval="b",
    )
    return mine.pk, d, a


def test_anonymous_no_role_and_outside_users(town: Town, login: Any) -> None:
    est, d, a = _setup(town)
    pages = ["/billing/surcharges/", f"/billing/surcharges/facility/{est}/"]
    posts = [
        f"/billing/surcharges/facility/{est}/decision/",
        f"/billing/surcharges/facility/{est}/agreement/",
        f"/billing/surcharges/decisions/{d.pk}/end/",
        f"/billing/surcharges/agreements/{a.pk}/end/",
    ]
    c = login(None)
    for url in pages:
        assert c.get(url).status_code == 302, url
    for url in posts:
        assert c.post(url, {}).status_code == 302, url
    assert c.get("/api/billing/surcharge-decisions/").status_code == 401
    for name in ("norole", "owner"):
        c = login(name)
        for url in pages:
            assert c.get(url).status_code == 403, (name, url)
        for url in posts:
            assert c.post(url, {}).status_code == 403, (name, url)
    c = login("owner")
    assert c.get("/api/billing/runs/").status_code == 403
    mine = c.get("/api/billing/surcharge-decisions/").json()
    assert [r["id"] for r in mine["results"]] == [d.pk]  # the owner's own facility's
    assert c.get(f"/api/billing/surcharge-agreements/{a.pk}/").status_code == 404
    r = c.post("/api/billing/surcharge-decisions/", {**DECISION, "establishment": est})
    assert r.status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_and_only_the_entitled_record(town: Town, login: Any, username: str) -> None:
    est, _, a = _setup(town)
    c = login(username)
    page = c.get(f"/billing/surcharges/facility/{est}/").content.decode()
    listing = c.get("/billing/surcharges/").content.decode()
    assert "Town and Otto Plating" in listing
    theirs = c.get(f"/billing/surcharges/facility/{a.establishment_id}/").content.decode()
    assert "§ 196-19 J agreement" in theirs and "until ended" in theirs
    assert ("Record a decision" in page) == (username == "superintendent")
    assert ("Record an agreement" in page) == (username in ("superintendent", "clerk"))
    r = c.post(f"/billing/surcharges/facility/{est}/decision/", DECISION)
    assert r.status_code == (302 if username == "superintendent" else 403)
    r = c.post(f"/billing/surcharges/facility/{est}/agreement/", AGREEMENT)
    assert r.status_code == (302 if username in ("superintendent", "clerk") else 403)
    api = c.post(
        "/api/billing/surcharge-decisions/",
        {**DECISION, "establishment": est, "first_day": "2026-03-01"},
        content_type="application/json",
    )
    assert api.status_code == (201 if username == "superintendent" else 403)
    end = c.post(
        f"/api/billing/surcharge-agreements/{a.pk}/end/",
        {"last_day": "2026-06-30", "reason": "notice given"},
        content_type="application/json",
    )
    assert end.status_code == (200 if username in ("superintendent", "clerk") else 403)
    assert c.get("/api/billing/runs/").status_code == 200
    # reachable from the facility's page
    facility = c.get(reverse("registry:establishment", args=[est])).content.decode()
    assert f"/billing/surcharges/facility/{est}/" in facility


def test_page_refusals_name_the_field(town: Town, login: Any) -> None:
    est, _, _ = _setup(town)
    c = login("superintendent")
    r = c.post(
        f"/billing/surcharges/facility/{est}/decision/",
        {**DECISION, "first_day": "2026-01-01"},
    )
    assert r.status_code == 400 and "does not reach back" in r.content.decode()
    r = c.post(
        "/api/billing/surcharge-decisions/",
        {**DECISION, "establishment": est, "reasons": ""},
        content_type="application/json",
    )
    assert r.status_code == 400 and "reasons" in r.json()["errors"]


def test_run_page_csv_and_json_list_the_facility_without_a_decision(town: Town, login: Any) -> None:
    theirs = town.other_plant
    assert theirs is not None
    sample_day(theirs, date(2026, 1, 12), "900", "300", "50")
    flow_meter(theirs, date(2026, 1, 5), ["20000"])
    run = runs.create_run("2026-Q1", town.u("clerk"))
    c = login("viewer")
    page = c.get(f"/billing/runs/{run.pk}/").content.decode()
    assert "Abnormal strength, no surcharge decision" in page and theirs.name in page
    csv = c.get(f"/billing/runs/{run.pk}/?format=csv").content.decode()
    # the status by its label, as on the page (the code is the API's)
    assert "Abnormal strength, no surcharge decision" in csv and theirs.name in csv
    data = c.get(f"/api/billing/runs/{run.pk}/").json()
    line = next(ln for ln in data["lines"] if ln["establishment"] == theirs.pk)
    assert line["status"] == "no_decision" and line["amount"] is None
    assert line["computation"]["abnormal_strength"] == ["bod"]
