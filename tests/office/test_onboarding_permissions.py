"""The permission battery of the onboarding pages (the import of users and facilities, its
review queue, its column mappings): the clerk, the engineer and the Superintendent; 403 for
every other role, an outside user and a user without a role (nothing written by their POST);
anonymous to the login page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_office.core.models import AuditEvent
from sewer_office.onboarding.importing import MappingSpec
from sewer_office.onboarding.models import ColumnMapping, FacilityImport, ReviewItem
from sewer_office.onboarding.services import apply_import, save_mapping
from sewer_office.onboarding.spreadsheet import read_sheet
from sewer_office.registry.models import Establishment, Person

from .factories import Town

pytestmark = pytest.mark.django_db

#: The URL names this battery covers (read by test_permissions' coverage test).
COVERED_URL_NAMES = (
    "onboarding:index",
    "onboarding:upload",
    "onboarding:mapping-choose",
    "onboarding:preview",
    "onboarding:apply",
    "onboarding:import-detail",
    "onboarding:review",
    "onboarding:review-item",
    "onboarding:review-resolve",
    "onboarding:review-dismiss",
    "onboarding:mappings",
    "onboarding:mapping-edit",
    "onboarding:mapping-delete",
)
IMPORTERS = ("clerk", "engineer", "superintendent")
REFUSED = ("inspector", "highway", "viewer", "owner", "other", "norole")

CSV = (
    b"Facility,Type,Operator,Address\n"
    b"Olive's Catering,Restaurant,Olive Owner,100-03 Main St\n"
    b"Ghost Kitchen,Restaurant,Ghost Foods LLC,1 Nowhere Road\n"
)
COLUMNS = {
    "facility_name": "Facility",
    "kind": "Type",
    "operator_name": "Operator",
    "address": "Address",
}


@pytest.fixture
def records(town: Town, login: Any) -> dict[str, Any]:
    """A mapping, an upload kept, an import applied, an item in the queue."""
    clerk = town.u("clerk")
    mapping = save_mapping(
        clerk,
        name="List",
        header=["Facility", "Type", "Operator", "Address"],
        columns=COLUMNS,
        kind_values={},
    )
    answer = login("clerk").post("/onboarding/import/", {"file": SimpleUploadedFile("l.csv", CSV)})
    digest = answer["Location"].split("/")[3]
    apply_import(read_sheet(CSV, "l.csv"), MappingSpec.of(mapping), clerk, digest=digest)
    return {
        "mapping": mapping,
        "digest": digest,
        "imp": FacilityImport.objects.get(),
        "item": ReviewItem.objects.get(),
    }


def _pages(r: dict[str, Any]) -> list[str]:
    m, d = r["mapping"].pk, r["digest"]
    return [
        "/onboarding/",
        "/onboarding/import/",
        f"/onboarding/import/{d}/mapping/",
        f"/onboarding/import/{d}/preview/?mapping={m}",
        f"/onboarding/imports/{r['imp'].pk}/",
        "/onboarding/review/",
        f"/onboarding/review/{r['item'].pk}/",
        "/onboarding/mappings/",
        f"/onboarding/mappings/{m}/",
        f"/onboarding/mappings/{m}/delete/",
    ]


def _posts(town: Town, r: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    assert town.phase3_lot is not None
    return [
        ("/onboarding/import/", {"file": SimpleUploadedFile("x.csv", CSV)}),
        (
            f"/onboarding/import/{r['digest']}/mapping/",
            {
                "name": "Other",
                "shown_kind_column": "Type",
                **{f"col_{k}": v for k, v in COLUMNS.items()},
            },
        ),
        (f"/onboarding/import/{r['digest']}/apply/", {"mapping": r["mapping"].pk}),
        (f"/onboarding/review/{r['item'].pk}/resolve/", {"property": town.phase3_lot.pk}),
        (f"/onboarding/review/{r['item'].pk}/dismiss/", {"reason": "no"}),
        (f"/onboarding/mappings/{r['mapping'].pk}/", {"name": "Renamed"}),
        (f"/onboarding/mappings/{r['mapping'].pk}/delete/", {}),
    ]


def _written() -> tuple[int, ...]:
    return (
        AuditEvent.objects.count(),
        ColumnMapping.objects.count(),
        FacilityImport.objects.count(),
        ReviewItem.objects.filter(state="open").count(),
        Establishment.objects.count(),
        Person.objects.count(),
    )


@pytest.mark.parametrize("username", IMPORTERS)
def test_the_importers_open_every_page(
    town: Town, login: Any, records: dict[str, Any], username: str
) -> None:
    client = login(username)
    for url in _pages(records):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("username", REFUSED)
def test_every_other_user_is_refused_and_writes_nothing(
    town: Town, login: Any, records: dict[str, Any], username: str
) -> None:
    client = login(username)
    before = _written()
    for url in _pages(records):
        assert client.get(url).status_code == 403, url
    for url, data in _posts(town, records):
        assert client.post(url, data).status_code == 403, url
    assert _written() == before
    assert ColumnMapping.objects.get().name == "List"


def test_anonymous_is_sent_to_login(town: Town, login: Any, records: dict[str, Any]) -> None:
    client = login(None)
    for url in _pages(records):
        answer = client.get(url)
        assert answer.status_code == 302 and "/login" in answer["Location"], url
    for url, data in _posts(town, records):
        answer = client.post(url, data)
        assert answer.status_code == 302 and "/login" in answer["Location"], url


def test_a_digest_that_is_not_kept_is_not_found(town: Town, login: Any) -> None:
    client = login("clerk")
    assert client.get(f"/onboarding/import/{'a' * 64}/mapping/").status_code == 404
    assert client.get("/onboarding/import/../../etc/passwd/mapping/").status_code == 404
