"""A control character anywhere in a request is a 400 naming the field, never a server error
(core/control_chars.py): a NUL in the user name at sign-in, in a JSON body at any depth, in a
query string, in the address; tab, line feed and carriage return in a text area are taken, and
so are DEL and the C1 controls (the rule the file importers share).

Run on PostgreSQL too (which cannot store NUL in text: the sign-in answered 500 before):
``DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sewer_hygiene pytest tests/office/test_control_chars.py``.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import QueryDict
from django.test import RequestFactory
from django.utils.datastructures import MultiValueDict
from rest_framework.exceptions import ParseError

from sewer_office.api.parsers import JSONParser
from sewer_office.core.control_chars import find
from sewer_office.registry.models import Person

from .factories import PASSWORD, Town


def _page_says(response: Any, *words: str) -> None:
    text = response.content.decode()
    for word in words:
        assert word in text, text[:600]


@pytest.mark.parametrize("username", ["admin\x00", "\x00", "clerk\x00' OR 1=1 --"])
def test_a_nul_in_the_user_name_at_sign_in_is_a_400_naming_the_field(
    town: Town, client: Any, username: str
) -> None:
    r = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert r.status_code == 400
    _page_says(r, "Field &#x27;username&#x27; contains a control character (NUL)")
    assert "_auth_user_id" not in client.session


def test_a_nul_in_the_password_is_refused_too_and_nothing_else_is_read(
    town: Town, client: Any
) -> None:
    r = client.post("/accounts/login/", {"username": "clerk", "password": PASSWORD + "\x00"})
    assert r.status_code == 400
    _page_says(r, "&#x27;password&#x27;", "(NUL)")


def test_the_sign_in_still_works_without_control_characters(town: Town, client: Any) -> None:
    r = client.post("/accounts/login/", {"username": "clerk", "password": PASSWORD})
    assert r.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Acme\x00", "kind": "corporation"}, "name"),
        ({"name": "Acme", "notes": {"lines": ["ok", "bad\x07"]}}, "notes.lines[1]"),
        ({"name": "Acme", "a\x00b": 1}, "a\\x00b"),
        ("\x1b[2J", "(the body)"),
    ],
)
def test_an_api_json_body_with_a_control_character_is_a_json_400(
    town: Town, client: Any, body: Any, field: str
) -> None:
    assert client.login(username="clerk", password=PASSWORD)
    before = Person.objects.count()
    r = client.post("/api/persons/", json.dumps(body), content_type="application/json")
    assert r.status_code == 400
    assert r["Content-Type"].startswith("application/json")
    data = r.json()
    assert f"'{field}' contains a control character" in data["detail"], data
    assert set(data) == {"detail"}  # the member every operation's declared 400 has
    assert Person.objects.count() == before


def test_the_api_parser_refuses_them_too_whatever_reads_the_body() -> None:
    """The middleware reads bodies up to DATA_UPLOAD_MAX_MEMORY_SIZE (Django refuses larger
    ones itself); the API's JSON parser checks what it parses as well, for any view that
    would read a body by another road."""
    body = json.dumps({"username": "clerk", "otp": ["1", "2\x00"]}).encode()
    with pytest.raises(ParseError) as refused:
        JSONParser().parse(io.BytesIO(body), "application/json", {})
    assert "'otp[1]' contains a control character (NUL)" in str(refused.value.detail)
    fine = JSONParser().parse(io.BytesIO(b'{"a": "tab\\tline\\n"}'), "application/json", {})
    assert fine == {"a": "tab\tline\n"}


def test_geojson_bodies_are_read_as_json_too(town: Town, client: Any) -> None:
    body = json.dumps({"type": "FeatureCollection", "features": [{"id": "MH\x00"}]})
    r = client.post("/api/network/import/", body, content_type="application/geo+json")
    assert r.status_code == 400 and "'features[0].id'" in r.json()["detail"]


def test_a_query_string_with_a_nul_is_a_400(town: Town, client: Any) -> None:
    assert client.login(username="clerk", password=PASSWORD)
    page = client.get("/registry/persons/?q=acme%00")
    assert page.status_code == 400
    _page_says(page, "Query parameter &#x27;q&#x27; contains a control character (NUL)")
    api = client.get("/api/persons/?search=%00")
    assert api.status_code == 400 and "'search'" in api.json()["detail"]


def test_an_address_with_a_nul_is_a_400(client: Any, db: Any) -> None:
    r = client.get("/registry/persons/%00/")
    assert r.status_code == 400
    _page_says(r, "The address", "(NUL)")


def test_a_form_field_name_with_a_control_character_is_named(client: Any, db: Any) -> None:
    r = client.post("/accounts/login/", {"user\x01name": "x"})
    assert r.status_code == 400
    _page_says(r, "The name of field", "user\\x01name", "(U+0001)")


def test_an_uploaded_file_name_with_a_control_character_is_named() -> None:
    """Django's parser drops unprintable characters from the names it reads; a name that
    reaches the request another way is still checked."""
    request = RequestFactory().post("/permits/x/1/files/", {})
    request._post = QueryDict()  # type: ignore[attr-defined]
    request._files = MultiValueDict(  # type: ignore[attr-defined]
        {"files": [SimpleUploadedFile("plan\x00.html", b"%PDF-1.4")]}
    )
    found = find(request)
    assert found is not None and found.field == "files"
    assert found.message.startswith("The name of the file sent in field 'files'")


def test_a_cookie_or_a_token_with_a_nul_is_a_400(client: Any, db: Any) -> None:
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/").status_code == 400
    client.cookies.clear()
    r = client.get("/api/persons/", HTTP_AUTHORIZATION="Token abc\x00def")
    assert r.status_code == 400 and "Authorization" in r.json()["detail"]


def test_tab_line_feed_and_carriage_return_in_a_text_area_are_taken(
    town: Town, client: Any
) -> None:
    assert client.login(username="clerk", password=PASSWORD)
    street = "c/o Ann Lee\r\n\t12 Main St"
    r = client.post(
        "/registry/persons/new/",
        {
            "kind": "individual",
            "name": "Tab Tester",
            "mail_street": street,
            "mail_city": "Wappingers Falls",
            "mail_state": "NY",
            "mail_zip": "12590",
        },
    )
    assert r.status_code == 302, r.content.decode()[:500]
    assert "\t12 Main St" in Person.objects.get(name="Tab Tester").mail_street


def test_del_and_c1_controls_are_taken(town: Town, client: Any) -> None:
    """DEL and C1 (U+0080–U+009F) are stored and shown harmlessly and come with text pasted
    from old Windows documents: accepted, as the file importers accept them."""
    assert client.login(username="clerk", password=PASSWORD)
    r = client.post("/registry/persons/new/", {"kind": "individual", "name": "Zo\x7fe \x85Ltd"})
    assert r.status_code == 302
    assert Person.objects.filter(name="Zo\x7fe \x85Ltd").exists()
