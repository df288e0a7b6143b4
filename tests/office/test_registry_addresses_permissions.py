"""The permission battery of the pages that record an address (a person's mailing address, a
property's postal address): the clerk and the Superintendent; 403 for every other role and an
outside user (nothing changed by their POST); anonymous to the login page."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.registry.models import Person

from .factories import Town

pytestmark = pytest.mark.django_db

#: The URL names this battery covers (read by test_permissions' coverage test).
COVERED_URL_NAMES = ("registry:person-address", "registry:property-address")
EDITORS = ("superintendent", "clerk")


@pytest.mark.parametrize(
    "username",
    ["superintendent", "engineer", "inspector", "clerk", "highway", "viewer", "owner", "other"],
)
def test_address_pages_are_the_clerks_and_the_superintendents(
    town: Town, login: Any, username: str
) -> None:
    urls = (
        f"/registry/persons/{town.owner_person.pk}/address/",
        f"/registry/properties/{town.owner_home.pk}/address/",
    )
    client = login(username)
    for url in urls:
        assert client.get(url).status_code == (200 if username in EDITORS else 403), url
    if username not in EDITORS:
        client.post(urls[0], {"mail_street": "1 X", "mail_city": "Y", "mail_state": "NY"})
        client.post(urls[1], {"address": "X", "city": "Y", "state": "NY", "zip": "12590"})
        town.owner_home.refresh_from_db()
        assert town.owner_home.address == "100-01 Main St"
        assert Person.objects.get(pk=town.owner_person.pk).mail_street == ""


def test_address_pages_anonymous_and_no_role(town: Town, login: Any) -> None:
    for url in (
        f"/registry/persons/{town.owner_person.pk}/address/",
        f"/registry/properties/{town.owner_home.pk}/address/",
    ):
        answer = login(None).get(url)
        assert answer.status_code == 302 and "/login" in answer["Location"]
        assert login("norole").get(url).status_code == 403
