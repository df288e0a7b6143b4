"""API bodies the pages' forms read: whatever JSON a client sends, an answer, never a server error.

The filings and transitions of the API are validated by the pages' own forms, which read text.
A body that is no JSON object (``[1]``, ``"x"``, ``7``, ``true``), or a field holding a
number, a boolean, a list or an object where the form expects a date, made those forms fail
with a server error (found by schemathesis against a live server). Each is now a 400 that
says what was wrong, and typed scalars are read as the text a browser would send.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from .enforcement_factories import issued
from .factories import Town

NOT_OBJECTS = ([1, 2], "x", 7, True, None)


def _client(town: Town, username: str) -> APIClient:
    api = APIClient()
    api.force_authenticate(town.users[username])
    return api


@pytest.mark.parametrize("body", NOT_OBJECTS)
def test_a_filing_body_that_is_no_object_is_refused_with_400(town: Town, body: Any) -> None:
    r = _client(town, "clerk").post("/api/permits/building-sewer/", body, format="json")
    assert r.status_code == 400, r.content
    if body is not None:  # a JSON null is an empty body: the form names its missing fields
        assert "must be a JSON object" in r.json()["detail"]


@pytest.mark.parametrize("body", NOT_OBJECTS[:4])
def test_a_transition_body_that_is_no_object_is_refused_with_400(town: Town, body: Any) -> None:
    violation = issued(town)
    url = f"/api/enforcement/violations/{violation.pk}/report-correction/"
    r = _client(town, "clerk").post(url, body, format="json")
    assert r.status_code == 400, r.content
    assert "must be a JSON object" in r.json()["detail"]


@pytest.mark.parametrize("value", [7, True, [1, 2], 3.5])
def test_a_typed_value_in_a_date_field_is_a_field_error(town: Town, value: Any) -> None:
    violation = issued(town)
    url = f"/api/enforcement/violations/{violation.pk}/report-correction/"
    r = _client(town, "clerk").post(
        url, {"reported_on": value, "description": "fixed"}, format="json"
    )
    assert r.status_code == 400, r.content
    assert "reported_on" in str(r.json())


def test_an_object_in_a_plain_field_is_refused_naming_the_field(town: Town) -> None:
    violation = issued(town)
    url = f"/api/enforcement/violations/{violation.pk}/report-correction/"
    r = _client(town, "clerk").post(
        url, {"reported_on": {"y": 2026}, "description": "fixed"}, format="json"
    )
    assert r.status_code == 400
    assert "'reported_on'" in r.json()["detail"]


def test_typed_scalars_are_read_as_a_browser_sends_them(town: Town) -> None:
    violation = issued(town)
    url = f"/api/enforcement/violations/{violation.pk}/report-correction/"
    r = _client(town, "clerk").post(
        url, {"reported_on": "2026-01-19", "description": 12345}, format="json"
    )
    assert r.status_code == 200, r.content
    correction = violation.corrections.get()
    assert correction.description == "12345"
