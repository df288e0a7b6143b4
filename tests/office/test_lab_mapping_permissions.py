"""The permission battery of the laboratory mappings' pages: the clerk, the engineer and the
Superintendent write them; every other role, and every outside user, is refused (403)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sewer_io import lab_mapping as layouts
from sewer_office.monitoring.models import LabMapping
from sewer_office.monitoring.services import save_lab_mapping

from .factories import Town

COVERED_URL_NAMES = {
    "monitoring:mappings",
    "monitoring:mapping-create",
    "monitoring:mapping",
    "monitoring:mapping-edit",
    "monitoring:mapping-delete",
}

MAPPERS = ("clerk", "engineer", "superintendent")
REFUSED = ("inspector", "highway", "viewer", "owner", "other", "norole")


@pytest.fixture
def stored(town: Town) -> LabMapping:
    data = layouts.preset("generic-edd").to_dict()
    data["name"] = "hudson-valley"
    return save_lab_mapping(town.u("clerk"), layouts.LabMapping.from_dict(data))


def pages(m: LabMapping) -> list[str]:
    return [
        "/monitoring/mappings/",
        "/monitoring/mappings/new/",
        f"/monitoring/mappings/{m.pk}/",
        f"/monitoring/mappings/{m.pk}/edit/",
        f"/monitoring/mappings/{m.pk}/delete/",
    ]


def test_anonymous_goes_to_the_login_page(stored: LabMapping, login: Any) -> None:
    c = login(None)
    for url in pages(stored):
        r = c.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    assert c.post(f"/monitoring/mappings/{stored.pk}/delete/").status_code == 302
    assert LabMapping.objects.filter(pk=stored.pk).exists()


@pytest.mark.parametrize("username", REFUSED)
def test_other_roles_and_outside_users_are_refused(
    stored: LabMapping, login: Any, username: str
) -> None:
    c = login(username)
    for url in pages(stored):
        assert c.get(url).status_code == 403, url
    assert c.post(f"/monitoring/mappings/{stored.pk}/delete/").status_code == 403
    r = c.post("/monitoring/mappings/new/", {"action": "save", "name": "x", "timezone": "UTC"})
    assert r.status_code == 403
    assert c.get("/monitoring/mappings/", {"format": "csv"}).status_code == 403
    assert list(LabMapping.objects.values_list("name", flat=True)) == ["hudson-valley"]


@pytest.mark.parametrize("username", MAPPERS)
def test_the_mappers_open_every_page(stored: LabMapping, login: Any, username: str) -> None:
    c = login(username)
    for url in pages(stored):
        assert c.get(url).status_code == 200, url
    assert b'id="lab-mappings"' in c.get("/monitoring/imports/").content
    download = c.get("/monitoring/mappings/", {"format": "csv"})
    assert download.status_code == 200 and b"hudson-valley" in download.content
    assert c.get("/monitoring/mappings/", {"format": "xlsx"}).status_code == 200
    yaml_file = c.get(f"/monitoring/mappings/{stored.pk}/", {"download": "yaml"})
    assert yaml_file.status_code == 200
    assert layouts.mapping_from_text(yaml_file.content.decode(), "m.yaml").name == "hudson-valley"
