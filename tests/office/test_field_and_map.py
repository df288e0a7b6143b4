"""The field pages without a browser: the inspection form sent twice is recorded once (its submission
key), photos ride with the form; the network map's GeoJSON (staff only, facilities coloured by
their open findings, bounded queries); the outside user's home."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sewer_office.core.models import Attachment
from sewer_office.findings.models import Finding
from sewer_office.findings.services import record_finding
from sewer_office.inspections.checklists import items
from sewer_office.inspections.choices import InspectionKind
from sewer_office.inspections.models import Inspection, InspectionAnswer
from sewer_office.network.map_layer import map_geojson
from sewer_office.network.models import NetworkVersion

from .factories import Town
from .test_inspections import PNG, scheduled
from .test_network_office import STAFF, example, imported, net_town, text  # noqa: F401

__all__ = ["imported", "net_town"]


def _form(i: Inspection, key: str) -> dict[str, Any]:
    now = timezone.localtime()
    data: dict[str, Any] = {
        "started_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "ended_at": now.strftime("%Y-%m-%dT%H:%M"),
        "credentials_presented": "on",
        "credential": "Badge 7",
        "submission_key": key,
    }
    for item in items(InspectionKind.FOOD_SERVICE):
        data[f"item_{item.key}"] = "pass"
    data["item_garbage_shredded"] = "fail"
    data["note_garbage_shredded"] = "Unapproved grinder."
    return data


def test_the_form_sent_twice_is_recorded_once(town: Town, login: Any) -> None:
    i = scheduled(town)
    c = login("inspector")
    page = c.get(f"/inspections/{i.pk}/complete/").content.decode()
    assert 'name="submission_key"' in page and 'capture="environment"' in page
    assert ">Yes<" in page and ">No<" in page and ">Not applicable<" in page
    data = _form(i, "k" * 32)
    photo = SimpleUploadedFile("trap.png", PNG, content_type="image/png")
    r = c.post(f"/inspections/{i.pk}/complete/", {**data, "photos": [photo]})
    assert r.status_code == 302
    answers = InspectionAnswer.objects.filter(inspection=i).count()
    findings = Finding.objects.filter(source_id=str(i.pk), kind="inspection").count()
    photos = Attachment.objects.filter(object_id=str(i.pk)).count()
    assert answers == len(items(InspectionKind.FOOD_SERVICE)) and findings == 1 and photos == 1
    # the tablet did not hear the answer and sends the same form again
    again = SimpleUploadedFile("trap.png", PNG, content_type="image/png")
    r = c.post(f"/inspections/{i.pk}/complete/", {**data, "photos": [again]}, follow=True)
    assert r.status_code == 200 and "already recorded" in r.content.decode()
    assert InspectionAnswer.objects.filter(inspection=i).count() == answers
    assert Finding.objects.filter(source_id=str(i.pk), kind="inspection").count() == findings
    assert Attachment.objects.filter(object_id=str(i.pk)).count() == photos
    # another form (another key) for the completed inspection is refused as before
    r = c.post(f"/inspections/{i.pk}/complete/", _form(i, "other"), follow=True)
    assert "is completed" in r.content.decode()
    assert InspectionAnswer.objects.filter(inspection=i).count() == answers


def test_a_photo_that_is_not_an_image_refuses_the_whole_form(town: Town, login: Any) -> None:
    i = scheduled(town)
    c = login("inspector")
    bad = SimpleUploadedFile("trap.png", b"not an image", content_type="image/png")
    r = c.post(f"/inspections/{i.pk}/complete/", {**_form(i, "k2"), "photos": [bad]})
    assert r.status_code == 400 and "not a JPEG, PNG, GIF or WebP" in r.content.decode()
    i.refresh_from_db()
    assert i.state == "scheduled" and not InspectionAnswer.objects.filter(inspection=i).exists()


def test_map_geojson_permission_battery(
    imported: NetworkVersion,
    net_town: Town,
    login: Any,
    client: Any,
) -> None:
    url = "/api/network/geojson/"
    assert client.get(url).status_code == 401
    for name in ("norole", "owner", "other"):
        assert login(name).get(url).status_code == 403, name
    for name in STAFF:
        assert login(name).get(url).status_code == 200, name
    data = login("superintendent").get(url).json()
    kinds = [f["properties"]["kind"] for f in data["features"]]
    assert kinds.count("manhole") == 13 and kinds.count("pipe") == imported.pipe_count
    assert data["crs"]["kind"] == "geographic"
    diner = next(f for f in data["features"] if f["properties"].get("name") == "Olive's Diner")
    assert diner["properties"]["severity"] == "compliant"
    assert len(diner["geometry"]["coordinates"]) == 2


def test_map_facilities_coloured_by_open_findings(
    imported: NetworkVersion,
    net_town: Town,
) -> None:
    est = net_town.owner_restaurant
    assert est is not None

    def severity() -> str:
        data = map_geojson()
        assert data is not None
        f = next(f for f in data["features"] if f["properties"].get("id") == str(est.pk))
        return str(f["properties"]["severity"])

    record_finding(
        source=est,
        establishment=est,
        kind="inspection",
        status="review",
        citation="§ 196-19 D(3)",
        message="grinder",
        observed_at=timezone.now(),
    )
    assert severity() == "review"
    record_finding(
        source=est,
        establishment=est,
        kind="lab_result",
        status="prohibited",
        citation="§ 196-19 C(3)",
        message="pH 4",
        observed_at=timezone.now(),
    )
    assert severity() == "prohibited"
    Finding.objects.filter(establishment=est).update(review="closed")
    assert severity() == "compliant"


def test_map_geojson_queries_do_not_grow_with_the_network(
    imported: NetworkVersion,
    net_town: Town,
) -> None:
    with CaptureQueriesContext(connection) as q:
        data = map_geojson()
    assert data is not None and len(data["features"]) > 13
    # the version, the network's cached parse, facilities (one chunk), open findings (one)
    assert len(q.captured_queries) <= 4, [x["sql"] for x in q.captured_queries]


def test_trace_api_area_for_the_map(
    imported: NetworkVersion,
    net_town: Town,
    login: Any,
) -> None:
    r = login("superintendent").get("/api/network/trace/MH03/?area=1")
    body = r.json()
    assert r.status_code == 200 and "MH03" in body["area"]["manholes"]
    assert body["total"] == 3 and body["area"]["pipes"]
    plain = login("superintendent").get("/api/network/trace/MH03/").json()
    assert "area" not in plain


def test_the_industrial_users_home(town: Town, login: Any) -> None:
    est = town.owner_restaurant
    assert est is not None
    record_finding(
        source=est,
        establishment=est,
        kind="lab_result",
        status="prohibited",
        citation="§ 196-19 C(3)",
        message="pH 4.1 below 5.5",
        observed_at=timezone.now(),
    )
    page = login("owner").get("/").content.decode()
    assert f'id="home-open-findings-{est.pk}"' in page and "pH 4.1 below 5.5" in page
    assert f'id="home-sampling-due-{est.pk}"' in page
    other = login("other").get("/").content.decode()
    assert "pH 4.1 below 5.5" not in other
