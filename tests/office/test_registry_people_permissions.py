"""The permission battery of the pickers' search endpoint and of merging persons.

- anonymous → the login page; a signed-in user without any office role → 403;
- the search endpoint: every office user, each finding only what they may see;
- the likely duplicates and the merge: the clerk and the Superintendent, 403 for the others.
"""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.registry.models import Person

from .factories import Town

pytestmark = pytest.mark.django_db

#: The URL names this battery covers (read by test_permissions' coverage test).
COVERED_URL_NAMES = ("registry:pick", "registry:person-duplicates", "registry:person-merge")

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
MERGERS = ("superintendent", "clerk")


def _urls(town: Town) -> list[str]:
    return [
        "/registry/pick/person/?q=olive",
        "/registry/pick/establishment/?q=diner",
        "/registry/pick/property/?q=main",
        "/registry/pick/building/?q=main",
        "/registry/persons/duplicates/",
        f"/registry/persons/{town.other_person.pk}/merge/",
    ]


def test_anonymous_goes_to_login_and_no_role_is_refused(town: Town, login: Any) -> None:
    for url in _urls(town):
        response = login(None).get(url)
        assert response.status_code == 302 and "/login" in response["Location"], url
        assert login("norole").get(url).status_code == 403, url


@pytest.mark.parametrize("username", [*STAFF, "owner", "other"])
def test_each_user_reaches_what_their_role_allows(town: Town, login: Any, username: str) -> None:
    client = login(username)
    for url in _urls(town):
        expected = 403 if ("/persons/" in url and username not in MERGERS) else 200
        assert client.get(url).status_code == expected, (username, url)


def test_merge_post_is_refused_to_other_roles_and_done_by_the_clerk(town: Town, login: Any) -> None:
    twin = Person.objects.create(name="Otto Other")
    url = f"/registry/persons/{twin.pk}/merge/"
    for username in ("engineer", "viewer", "other", "norole"):
        assert login(username).post(url, {"survivor": str(town.other_person.pk)}).status_code == 403
    twin.refresh_from_db()
    assert twin.merged_into is None
    assert login("clerk").post(url, {"survivor": str(town.other_person.pk)}).status_code == 302
    twin.refresh_from_db()
    assert twin.merged_into == town.other_person


def test_outside_user_search_never_shows_anothers_records(town: Town, login: Any) -> None:
    client = login("other")
    for kind, q in (("person", "olive"), ("establishment", "diner"), ("property", "100-01")):
        assert client.get(f"/registry/pick/{kind}/", {"q": q}).json()["results"] == [], kind
    mine = client.get("/registry/pick/establishment/", {"q": "plating"}).json()["results"]
    assert [r["id"] for r in mine] == [town.other_plant.pk]
