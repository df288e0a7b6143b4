"""The meters app through the permission battery: pages and API for anonymous users, users
without a role, every staff role, and the two outside users (own facility's meter 200 and
upload 201; the other's 404); uploads and reports reserved to the roles the services name."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sewer_office.meters import services
from sewer_office.meters.models import Meter, Reading, SlugEvent, SlugReport

from .factories import Town
from .monitoring_factories import facilities
from .test_meters import START, csv_file, day, rows, with_slug

COVERED_URL_NAMES = {
    "meters:list",
    "meters:create",
    "meters:detail",
    "meters:upload",
    "meters:report",
    "meters:baseline",
    "meters:chart",
}
COVERED_URL_PREFIXES = ("meters-",)
STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")


def _csv(data: list[tuple[str, ...]], name: str = "r.csv") -> SimpleUploadedFile:
    body = "timestamp,value\n" + "".join(",".join(r) + "\n" for r in data)
    return SimpleUploadedFile(name, body.encode(), content_type="text/csv")


@pytest.fixture
def meters(town: Town, tmp_path: Path) -> tuple[Meter, Meter, SlugEvent, SlugEvent]:
    """(owner's meter, other's meter, a slug of each)."""
    f = facilities(town)
    eng = town.u("engineer")
    out = []
    slugs = []
    for point, ident in ((f.my_point, "OWN-FLOW"), (f.their_point, "OTH-FLOW")):
        m = services.register_meter(
            eng, sampling_point=point, ident=ident, parameter="flow", unit="gpd"
        )
        data = rows(START, day()) + rows(START + timedelta(days=1), with_slug(100))
        res = services.upload_readings(m, csv_file(tmp_path / f"{ident}.csv", data), None)
        out.append(m)
        slugs.append(res.slugs[0])
    return out[0], out[1], slugs[0], slugs[1]


def _pages(m: Meter) -> list[str]:
    return [
        reverse("meters:list"),
        reverse("meters:detail", args=[m.pk]),
        reverse("meters:chart", args=[m.pk, "png"]),
        reverse("meters:chart", args=[m.pk, "svg"]),
    ]


def _endpoints(m: Meter, s: SlugEvent) -> list[str]:
    upload = m.uploads.get()
    return [
        "/api/meters/",
        f"/api/meters/{m.pk}/",
        "/api/meters/uploads/",
        f"/api/meters/uploads/{upload.pk}/",
        "/api/meters/slugs/",
        f"/api/meters/slugs/{s.pk}/",
        f"/api/meters/slugs/?meter={m.pk}",
        f"/api/meters/slugs/?establishment={m.sampling_point.establishment_id}&reported=false",
    ]


def test_anonymous_and_norole(town: Town, login: Any, meters: Any) -> None:
    mine, _, slug, _ = meters
    c = login(None)
    for url in [*_pages(mine), reverse("meters:create")]:
        r = c.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in _endpoints(mine, slug):
        assert c.get(url).status_code == 401, url
    assert c.post(f"/api/meters/{mine.pk}/readings/", {}).status_code == 401
    assert c.post(reverse("meters:upload", args=[mine.pk])).status_code == 302
    c = login("norole")
    for url in [*_pages(mine), reverse("meters:create")]:
        assert c.get(url).status_code == 403, url
    for url in _endpoints(mine, slug):
        assert c.get(url).status_code == 403, url
    assert c.post(reverse("meters:report", args=[mine.pk]), {}).status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_meter(town: Town, login: Any, meters: Any, username: str) -> None:
    mine, theirs, s1, s2 = meters
    c = login(username)
    for m, s in ((mine, s1), (theirs, s2)):
        for url in _pages(m):
            r = c.get(url)
            assert r.status_code == 200, url
        for url in _endpoints(m, s):
            assert c.get(url).status_code == 200, url
    assert c.get(reverse("meters:chart", args=[mine.pk, "png"]))["Content-Type"] == "image/png"
    assert (
        c.get(reverse("meters:chart", args=[mine.pk, "svg"])).content.lstrip().startswith(b"<?xml")
    )
    assert {m["id"] for m in c.get("/api/meters/").json()["results"]} == {mine.pk, theirs.pk}
    dash = c.get("/").content.decode()
    assert "Slugs not reported" in dash and "OWN-FLOW" in dash


def test_owner_sees_own_and_not_others(town: Town, login: Any, meters: Any) -> None:
    mine, theirs, s1, s2 = meters
    c = login("owner")
    for url in _pages(mine) + _endpoints(mine, s1):
        assert c.get(url).status_code == 200, url
    theirs_eps = _endpoints(theirs, s2)
    for url in [*_pages(theirs)[1:], *(theirs_eps[i] for i in (1, 3, 5))]:
        assert c.get(url).status_code == 404, url
    assert c.get(theirs_eps[7]).json()["results"] == []
    assert {m["id"] for m in c.get("/api/meters/").json()["results"]} == {mine.pk}
    page = c.get(reverse("meters:detail", args=[mine.pk])).content.decode()
    assert "Record a report of a slug" in page and "Upload readings" in page
    page = login("viewer").get(reverse("meters:detail", args=[mine.pk])).content.decode()
    assert "Record a report of a slug" not in page and "Upload readings" not in page
    c = login("owner")
    assert {s["id"] for s in c.get("/api/meters/slugs/").json()["results"]} == {s1.pk}
    assert "OTH-FLOW" not in c.get(reverse("meters:list")).content.decode()
    facility = c.get(f"/registry/establishments/{mine.sampling_point.establishment_id}/")
    assert "OWN-FLOW" in facility.content.decode()
    assert "Slugs not reported" not in c.get("/").content.decode()


def test_owner_uploads_to_own_meter_and_not_to_others(town: Town, login: Any, meters: Any) -> None:
    mine, theirs, _, _ = meters
    c = login("owner")
    later = rows(START + timedelta(days=2), with_slug(10))
    r = c.post(f"/api/meters/{mine.pk}/readings/", {"file": _csv(later)})
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["readings"] == 288 and len(body["slugs"]) == 1
    assert body["slugs"][0]["citation"] == "§ 196-15 SLUG"
    r = c.post(f"/api/meters/{theirs.pk}/readings/", {"file": _csv(later)})
    assert r.status_code == 404
    assert (
        c.post(reverse("meters:upload", args=[theirs.pk]), {"file": _csv(later)}).status_code == 404
    )
    # the same file again, and a file with a bad row: 400, every error listed, nothing stored
    r = c.post(f"/api/meters/{mine.pk}/readings/", {"file": _csv(later)})
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "file"
    bad = rows(START + timedelta(days=3), ["1", "x", "2"])
    r = c.post(f"/api/meters/{mine.pk}/readings/", {"file": _csv(bad)})
    assert r.status_code == 400
    assert r.json()["errors"] == [{"row": 3, "field": "value", "message": "not a number: 'x'"}]
    junk = SimpleUploadedFile("r.txt", b"timestamp,value\n", content_type="text/plain")
    r = c.post(f"/api/meters/{mine.pk}/readings/", {"file": junk})
    assert r.status_code == 400 and ".csv or .parquet" in r.json()["detail"]
    assert c.post(f"/api/meters/{mine.pk}/readings/", {}).status_code == 400
    page = c.post(reverse("meters:upload", args=[mine.pk]), {"file": _csv(bad, "b.csv")})
    assert page.status_code == 400 and "not a number" in page.content.decode()
    assert Reading.objects.filter(meter=mine).count() == 3 * 288
    ok = rows(START + timedelta(days=3), ["10"] * 12)
    r = c.post(reverse("meters:upload", args=[mine.pk]), {"file": _csv(ok, "ok.csv")})
    assert r.status_code == 302


@pytest.mark.parametrize("username", ["clerk", "viewer", "inspector", "highway"])
def test_uploads_and_reports_are_reserved(
    town: Town, login: Any, meters: Any, username: str
) -> None:
    mine, _, slug, _ = meters
    c = login(username)
    later = rows(START + timedelta(days=2), day())
    assert c.post(f"/api/meters/{mine.pk}/readings/", {"file": _csv(later)}).status_code == 403
    assert (
        c.post(reverse("meters:upload", args=[mine.pk]), {"file": _csv(later)}).status_code == 403
    )
    data = {"reported_at": (slug.start + timedelta(minutes=30)).isoformat(), "channel": "phone"}
    r = c.post(f"/api/meters/slugs/{slug.pk}/reports/", data, content_type="application/json")
    assert r.status_code == 403
    form = {
        "slug": slug.pk,
        "reported_at": (slug.start + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"),
        "channel": "phone",
    }
    assert c.post(reverse("meters:report", args=[mine.pk]), form).status_code == 403
    assert not SlugReport.objects.exists()


def test_reports_by_staff_and_by_the_facility(town: Town, login: Any, meters: Any) -> None:
    _, theirs, s1, s2 = meters
    at = (s1.start + timedelta(minutes=30)).isoformat()
    c = login("owner")
    r = c.post(
        f"/api/meters/slugs/{s1.pk}/reports/",
        {"reported_at": at, "channel": "portal", "text": "valve failed"},
        content_type="application/json",
    )
    assert r.status_code == 201 and r.json()["reported_by"] == town.u("owner").pk
    r = c.post(
        f"/api/meters/slugs/{s2.pk}/reports/",
        {"reported_at": at, "channel": "portal"},
        content_type="application/json",
    )
    assert r.status_code == 404
    form = {"slug": s2.pk, "reported_at": "2026-03-03T09:00", "channel": "phone"}
    assert c.post(reverse("meters:report", args=[theirs.pk]), form).status_code == 404
    c = login("superintendent")
    form = {
        "slug": s2.pk,
        "reported_at": (s2.start + timedelta(minutes=40)).strftime("%Y-%m-%dT%H:%M"),
        "channel": "phone",
        "text": "called in",
    }
    r = c.post(reverse("meters:report", args=[theirs.pk]), form)
    assert r.status_code == 302
    report = SlugReport.objects.get(slug=s2)
    assert report.received_by == town.u("superintendent") and report.reported_by is None
    bad = {**form, "channel": "fax"}
    assert c.post(reverse("meters:report", args=[theirs.pk]), bad).status_code == 400
    page = c.get(reverse("meters:detail", args=[theirs.pk])).content.decode()
    assert "by telephone" in page


def test_registering_a_meter_is_reserved(town: Town, login: Any, meters: Any) -> None:
    mine = meters[0]
    url = reverse("meters:create")
    data = {
        "sampling_point": mine.sampling_point_id,
        "ident": "OWN-PH",
        "parameter": "pH",
        "unit": "",
        "max_gap_seconds": 300,
    }
    for username in ("clerk", "viewer", "inspector", "highway", "owner"):
        c = login(username)
        assert c.get(url).status_code == 403, username
        assert c.post(url, data).status_code == 403, username
    assert "Register a meter" not in login("viewer").get(reverse("meters:list")).content.decode()
    c = login("engineer")
    assert c.get(url).status_code == 200
    assert "Register a meter" in c.get(reverse("meters:list")).content.decode()
    r = c.post(url, {**data, "unit": "gpd"})
    assert r.status_code == 400 and "does not measure" in r.content.decode()
    r = c.post(url, data)
    meter = Meter.objects.get(ident="OWN-PH")
    assert r.status_code == 302 and (meter.parameter, meter.unit) == ("ph", "SU")
    assert login("superintendent").post(url, data).status_code == 400  # the id is taken


def test_meters_are_registered_through_the_api_by_officers_only(town: Any, login: Any) -> None:
    from .monitoring_factories import facilities

    f = facilities(town)
    body = {
        "sampling_point": f.their_point.pk,
        "ident": "API-FLOW-1",
        "parameter": "flow",
        "unit": "gpd",
    }
    assert (
        login("clerk").post("/api/meters/", body, content_type="application/json").status_code
        == 403
    )
    r = login("owner").post("/api/meters/", body, content_type="application/json")
    assert r.status_code in (400, 403)  # another's sampling point does not exist for them
    r = login("engineer").post("/api/meters/", body, content_type="application/json")
    assert r.status_code == 201 and r.json()["ident"] == "API-FLOW-1"
    r = login("engineer").post("/api/meters/", body, content_type="application/json")
    assert r.status_code == 400  # the same meter id twice


def test_a_meter_baseline_is_recorded_through_the_api_by_officers_only(
    town: Town, login: Any, meters: Any
) -> None:
    """``POST /api/meters/{id}/baselines/``: the Superintendent or the engineer records a fixed
    baseline (201, audited by the service); a clerk is refused (403); the facility sees its own
    meter's baselines and cannot record one; another facility's meter does not exist for it."""
    mine, theirs = meters[0], meters[1]
    url = f"/api/meters/{mine.pk}/baselines/"
    body = {"value": "12.5", "effective_from": START.isoformat(), "authority": "IDA-1 cond. 4"}
    assert login("clerk").post(url, body, content_type="application/json").status_code == 403
    assert login("owner").post(url, body, content_type="application/json").status_code == 403
    r = login("engineer").post(url, body, content_type="application/json")
    assert r.status_code == 201 and r.json()["value"] == "12.5"
    r = login("engineer").post(url, {**body, "value": "x"}, content_type="application/json")
    assert r.status_code == 400
    assert [b["value"] for b in login("owner").get(url).json()] == ["12.5"]
    assert login("owner").get(f"/api/meters/{theirs.pk}/baselines/").status_code == 404
