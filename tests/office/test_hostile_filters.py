"""Numbers too large for the database in list filters: a clear 400 (a filter by id) or no
record (a filter by id or name), never a server error — the OverflowError cases, each a
test that failed before the fix (``OverflowError: Python int too large to convert to SQLite
INTEGER`` / PostgreSQL's ``bigint out of range``)."""

from __future__ import annotations

from typing import Any

import pytest

from .factories import Town

HUGE = ("1e30", "99999999999999999999", "-99999999999999999999", "9223372036854775808")


@pytest.mark.parametrize("value", HUGE)
@pytest.mark.parametrize(
    "path",
    [
        "/api/permits/industrial/?property={v}",
        "/api/permits/building-sewer/?property={v}",
        "/api/grease/interceptors/?establishment={v}",
        "/api/meters/slugs/?establishment={v}",
        "/permits/all/?property={v}",
        "/api/billing/invoices/?person={v}",
        "/api/billing/invoices/?year={v}",
        "/api/billing/invoices/?run={v}",
        "/api/billing/payments/?person={v}",
        "/api/billing/charges/?person={v}&run={v}",
        "/api/permits/building-sewer/?service_area={v}",
        "/api/inspections/?establishment={v}",
        "/api/enforcement/violations/?establishment={v}",
    ],
)
def test_a_number_too_large_for_the_database_is_never_a_server_error(
    town: Town, login: Any, path: str, value: str
) -> None:
    client = login("superintendent")
    response = client.get(path.format(v=value))
    assert response.status_code in (200, 400, 404), (path, value, response.status_code)
    if response.status_code == 200 and path.startswith("/api/"):
        body = response.json()
        rows = body.get("results", body) if isinstance(body, dict) else body
        assert rows == [], (path, value)


def test_an_id_filter_names_its_bound(town: Town, login: Any) -> None:
    response = login("superintendent").get("/api/billing/invoices/?person=1e30")
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert "person" in response.json()["errors"]


def test_a_path_under_the_api_that_names_no_endpoint_is_the_apis_json_404(
    town: Town, login: Any
) -> None:
    client = login("superintendent")
    for path in ("/api/billing/statements/-146/", "/api/no-such-thing/", "/api/permits/x/1/"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"].startswith("application/json"), path
        assert "path" in response.json()["errors"], path
    # a POST to no endpoint is a 404 too, not a CSRF refusal (it writes nothing)
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(town.u("superintendent"))
    response = strict.post("/api/billing/permit-fees/%C3%B4/409/invoice/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    # a missing final slash is still sent on to the endpoint
    assert client.get("/api/persons").status_code == 301
