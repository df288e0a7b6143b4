"""The REST API: token, filing and transitions through the same services as the pages."""

from __future__ import annotations

import re
from typing import Any

from rest_framework.test import APIClient

from sewer_office.billing.models import Invoice

from .billing_money_factories import pay_fee
from .factories import GOOD_DESIGN, PASSWORD, Town, new_record


def _token_client(username: str) -> APIClient:
    api = APIClient()
    r = api.post("/api/token/", {"username": username, "password": PASSWORD}, format="json")
    assert r.status_code == 200 and set(r.json()) == {"token"}
    api.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
    return api


def test_token_and_bad_credentials(town: Town) -> None:
    api = APIClient()
    assert (
        api.post(
            "/api/token/", {"username": "clerk", "password": "wrong"}, format="json"
        ).status_code
        == 400
    )
    c = _token_client("clerk")
    assert c.get("/api/permits/building-sewer/").status_code == 200
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token nope")
    assert bad.get("/api/permits/building-sewer/").status_code == 401


def test_building_sewer_permit_end_to_end_through_the_api(town: Town) -> None:
    owner = _token_client("owner")
    body = {
        "applicant": town.owner_person.pk,
        "property": town.owner_home.pk,
        "permit_class": 1,
        "design_json": __import__("json").dumps(GOOD_DESIGN),
        "diameter": "4 in",
        "slope": "1/4 in/ft",
    }
    r = owner.post("/api/permits/building-sewer/", body, format="json")
    assert r.status_code == 201, r.content
    pk = r.json()["id"]
    assert r.json()["state"] == "submitted" and r.json()["fee_amount"] == "200.00"
    url = f"/api/permits/building-sewer/{pk}/transitions/"
    assert (
        owner.post(url + "record_fee_payment/", {"receipt_number": "1"}, format="json").status_code
        == 403
    )
    # the clerk cannot tick the fee as paid either: the payment of its invoice makes the step
    clerk = _token_client("clerk")
    r = clerk.post(url + "record_fee_payment/", {"receipt_number": "R-77"}, format="json")
    assert r.status_code == 403 and "fee invoice" in r.json()["detail"]
    r = clerk.post(f"/api/billing/permit-fees/building-sewer/{pk}/invoice/", format="json")
    assert r.status_code == 201 and r.json()["total"] == "200.00", r.content
    invoice = Invoice.objects.get(pk=r.json()["id"])
    r = clerk.post(
        "/api/billing/payments/",
        {"person": invoice.person_id, "amount": "200.00", "method": "check",
         "reference": "1044", "invoices": [invoice.pk]},
        format="json",
    )  # fmt: skip
    assert r.status_code == 201, r.content
    assert (
        owner.get(f"/api/permits/building-sewer/{pk}/").json()["fee_receipt"]
        == (r.json()["receipt_number"])
    )
    steps = [
        ("engineer", "approve_plans", {}),
        (
            "highway",
            "record_road_opening_permit",
            {"road_opening_number": "RO-7", "insurance_confirmed": True, "bond_confirmed": True},
        ),
        ("owner", "notify_ready", {}),
        ("superintendent", "complete_connection", {"supervised_by": "S. Ortiz"}),
    ]
    for user, name, data in steps:
        c = owner if user == "owner" else _token_client(user)
        r = c.post(url + f"{name}/", data, format="json")
        assert r.status_code == 200, (name, r.content)
    detail = owner.get(f"/api/permits/building-sewer/{pk}/").json()
    assert detail["state"] == "completed" and detail["available_actions"] == []
    timeline = owner.get(f"/api/permits/building-sewer/{pk}/timeline/").json()
    assert [e["action"] for e in timeline] == [
        "file",
        "record_fee_payment",
        *[s[1] for s in steps],
    ]
    assert timeline[-1]["citation"] == "§ 196-18 J"
    prop = owner.get(f"/api/properties/{town.owner_home.pk}/").json()
    assert prop["wastewater_service"] == "public_sewer"


def test_api_errors_name_fields_and_preconditions(town: Town) -> None:
    clerk = _token_client("clerk")
    r = clerk.post(
        "/api/permits/building-sewer/", {"permit_class": 3, "diameter": "four"}, format="json"
    )
    assert r.status_code == 400
    assert {"applicant", "property", "permit_class"} <= set(r.json()["errors"])
    p = new_record("building-sewer", town)
    r = clerk.post(
        f"/api/permits/building-sewer/{p.pk}/transitions/approve_plans/", {}, format="json"
    )
    assert r.status_code == 403
    eng = _token_client("engineer")
    r = eng.post(
        f"/api/permits/building-sewer/{p.pk}/transitions/approve_plans/", {}, format="json"
    )
    assert r.status_code == 409 and "not possible" in r.json()["detail"]
    r = eng.post(f"/api/permits/building-sewer/{p.pk}/transitions/reject/", {}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["errors"]
    r = eng.post(f"/api/permits/building-sewer/{p.pk}/transitions/nonsense/", {}, format="json")
    assert r.status_code in (403, 409)


def test_list_filters_are_shared_with_the_web_list(town: Town, login: Any) -> None:
    a = new_record("building-sewer", town)
    b = new_record("building-sewer", town, mine=False)
    clerk = _token_client("clerk")
    pay_fee(town, b)
    ids = {
        r["id"]
        for r in clerk.get("/api/permits/building-sewer/?state=plan_review").json()["results"]
    }
    assert ids == {b.pk}
    ids = {
        r["id"]
        for r in clerk.get(f"/api/permits/building-sewer/?q={town.owner_home.parcel_id}").json()[
            "results"
        ]
    }
    assert ids == {a.pk}
    page = login("clerk").get("/permits/building-sewer/?state=plan_review").content.decode()
    assert b.number in page and a.number not in page


def test_session_auth_works_for_the_api_with_csrf(town: Town) -> None:
    from django.test import Client

    c = Client(enforce_csrf_checks=True)
    assert c.login(username="clerk", password=PASSWORD)
    assert c.get("/api/permits/grinder/").status_code == 200
    g = new_record("grinder", town)
    r = c.post(
        f"/api/permits/grinder/{g.pk}/transitions/withdraw/",
        {"reason": "x"},
        content_type="application/json",
    )
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]


def test_schema_and_docs(town: Town, login: Any) -> None:
    schema = login(None).get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert "/api/token/" in paths
    assert "/api/permits/building-sewer/{id}/transitions/{name}/" in paths
    assert "BuildingSewerPermitFilingRequest" in str(schema["components"]["schemas"])
    page = login("viewer").get("/api/docs/").content.decode()
    assert "/api/permits/industrial/" in page
    # Served from the town's own server: no script, style or link loads from another
    # host (a bare "cdn" search would also match the page's random CSRF token).
    assert re.findall(r'(?:src|href)="(?:https?:)?//', page) == []


def test_file_upload_through_the_api(town: Town) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    p = new_record("building-sewer", town)
    owner = _token_client("owner")
    r = owner.post(
        f"/api/permits/building-sewer/{p.pk}/files/",
        {"files": [SimpleUploadedFile("profile.pdf", b"%PDF-1.4 profile")]},
        format="multipart",
    )
    assert r.status_code == 200
    assert [f["title"] for f in r.json()] == ["plans.pdf", "profile.pdf"]
    assert (
        _token_client("viewer")
        .post(
            f"/api/permits/building-sewer/{p.pk}/files/",
            {"files": [SimpleUploadedFile("x.pdf", b"x")]},
            format="multipart",
        )
        .status_code
        == 403
    )
