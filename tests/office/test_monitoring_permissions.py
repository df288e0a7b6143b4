"""The permission battery of sampling and results: every page and endpoint, every kind of user.

Staff see every facility's samples, results and findings; the Superintendent and the engineer
import, approve, correct and review; an outside user sees only their own facility's records
(another's are 404) and may report their own self-monitoring results, never another's.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sewer_office.findings.models import Finding
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit, LabImport, LabResult

from .factories import Town
from .monitoring_factories import facilities

COVERED_URL_NAMES = {
    "monitoring:import",
    "monitoring:imports",
    "monitoring:import-detail",
    "monitoring:import-approve",
    "monitoring:results",
    "monitoring:result-create",
    "monitoring:result",
    "monitoring:result-correct",
    "monitoring:findings",
    "monitoring:finding-review",
    "monitoring:chart",
    "monitoring:point-create",
    "monitoring:limit-create",
    "monitoring:event-create",
}
COVERED_URL_PREFIXES = ("monitoring-",)

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
OFFICERS = ("superintendent", "engineer")

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"


def lab_file(code: str, sample: str, ph: str = "5.0") -> bytes:
    return (
        HEADER
        + f"{sample},2026-03-02T10:00,grab,pH,{ph},SU,{code},CM-1\n"
        + f"{sample}C,2026-03-02T07:00,composite,Copper,0.4,mg/l,{code},CM-1\n"
    ).encode()


class World:
    def __init__(self, town: Town) -> None:
        self.town = town
        self.fac = facilities(town)
        DischargeLimit.objects.create(
            establishment=self.fac.theirs,
            parameter="copper",
            limit_type="daily_maximum",
            value="1.0",
            unit="mg/l",
            effective_from=date(2025, 1, 1),
        )
        sup = town.u("superintendent")
        self.my_import = import_lab_file(lab_file("OWNER-CAFE", "M1"), "mine.csv", sup).lab_import
        self.their_import = import_lab_file(
            lab_file("OTHER-PLANT", "T1"), "theirs.csv", sup
        ).lab_import
        self.my_result = LabResult.objects.get(event__sample_id="M1")
        self.their_result = LabResult.objects.get(event__sample_id="T1")
        self.my_finding = Finding.objects.filter(result=self.my_result).first()
        self.their_finding = Finding.objects.filter(result=self.their_result).first()
        self.their_limit = DischargeLimit.objects.get()

    def office_imports(self, mine: bool = True, api: bool = False) -> list[str]:
        """The office's imports: staff only (a file may hold many facilities' results)."""
        imp = self.my_import if mine else self.their_import
        return [f"/api/monitoring/imports/{imp.pk}/" if api else f"/monitoring/imports/{imp.pk}/"]

    def pages(self, mine: bool = True) -> list[str]:
        est = self.fac.mine if mine else self.fac.theirs
        res = self.my_result if mine else self.their_result
        return [
            *self.office_imports(mine),
            f"/monitoring/results/{res.pk}/",
            f"/monitoring/facilities/{est.pk}/chart/ph.svg",
            f"/registry/establishments/{est.pk}/",
        ]

    def endpoints(self, mine: bool = True) -> list[str]:
        res = self.my_result if mine else self.their_result
        finding = self.my_finding if mine else self.their_finding
        point = self.fac.my_point if mine else self.fac.their_point
        return [
            *self.office_imports(mine, api=True),
            f"/api/monitoring/results/{res.pk}/",
            f"/api/monitoring/findings/{finding.pk}/",
            f"/api/monitoring/sampling-points/{point.pk}/",
            f"/api/monitoring/sampling-events/{res.event_id}/",
        ]


LISTS = ["/monitoring/imports/", "/monitoring/results/", "/monitoring/findings/"]
API_LISTS = [
    "/api/monitoring/imports/",
    "/api/monitoring/results/",
    "/api/monitoring/findings/",
    "/api/monitoring/sampling-points/",
    "/api/monitoring/sampling-events/",
    "/api/monitoring/limits/",
]
REPORTING = ["/monitoring/import/", "/monitoring/results/new/"]


@pytest.fixture
def world(town: Town) -> World:
    return World(town)


def test_anonymous_and_roleless(world: World, login: Any) -> None:
    c = login(None)
    for url in LISTS + REPORTING + world.pages():
        r = c.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in API_LISTS + world.endpoints():
        assert c.get(url).status_code == 401, url
    c = login("norole")
    for url in LISTS + REPORTING + world.pages():
        assert c.get(url).status_code == 403, url
    for url in API_LISTS + world.endpoints():
        assert c.get(url).status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_facility(world: World, login: Any, username: str) -> None:
    c = login(username)
    for url in LISTS + world.pages(True) + world.pages(False):
        assert c.get(url).status_code == 200, url
    for url in API_LISTS + world.endpoints(True) + world.endpoints(False):
        assert c.get(url).status_code == 200, url
    sampler = username in ("superintendent", "engineer", "inspector")
    assert c.get(f"/monitoring/facilities/{world.fac.theirs.pk}/samples/new/").status_code == (
        200 if sampler else 403
    )
    expected = 200 if username in OFFICERS else 403
    for url in [
        *REPORTING,
        f"/monitoring/facilities/{world.fac.theirs.pk}/points/new/",
        f"/monitoring/facilities/{world.fac.theirs.pk}/limits/new/",
    ]:
        assert c.get(url).status_code == expected, url


def test_outside_user_sees_only_their_own(world: World, login: Any) -> None:
    c = login("owner")
    # The facility records its own self-monitoring samples, never another's.
    assert c.get(f"/monitoring/facilities/{world.fac.mine.pk}/samples/new/").status_code == 200
    assert c.get(f"/monitoring/facilities/{world.fac.theirs.pk}/samples/new/").status_code == 404
    r = c.post(
        "/api/monitoring/sampling-events/",
        {
            "establishment": world.fac.theirs.pk,
            "sample_id": "X",
            "sample_type": "grab",
            "collected_at": "2026-03-02T10:00:00-05:00",
        },
        content_type="application/json",
    )
    assert r.status_code == 400 and "establishment" in r.json()["errors"]
    r = c.post(
        "/api/monitoring/sampling-events/",
        {
            "establishment": world.fac.mine.pk,
            "sampling_point": world.fac.my_point.pk,
            "sample_id": "OWN-1",
            "sample_type": "grab",
            "collected_at": "2026-03-02T10:00:00-05:00",
            "collected_by": "Olive",
        },
        content_type="application/json",
    )
    assert r.status_code == 201, r.json()
    office_imports = world.office_imports(True) + world.office_imports(True, api=True)
    for url in LISTS + REPORTING + world.pages(True):
        expected = 404 if url in office_imports else 200
        assert c.get(url).status_code == expected, url
    for url in world.pages(False) + world.endpoints(False):
        assert c.get(url).status_code == 404, url
    for url in world.endpoints(True):
        expected = 404 if url in office_imports else 200
        assert c.get(url).status_code == expected, url
    # Lists hold only their own facility's records.
    assert {r["facility"] for r in c.get("/api/monitoring/results/").json()["results"]} == {
        "OWNER-CAFE"
    }
    assert c.get("/api/monitoring/limits/").json()["results"] == []
    listing = c.get("/monitoring/results/").content.decode()
    # Sample cells, not bare "T1": the page's random CSRF token may hold those letters.
    assert "<td>T1 " not in listing and "<td>M1 " in listing
    assert "OTHER-PLANT" not in listing
    findings = c.get("/monitoring/findings/?review=").content.decode()
    assert "OTHER-PLANT" not in findings
    # Officers' actions are refused (403), another's records do not exist (404).
    assert c.post(f"/monitoring/imports/{world.my_import.pk}/approve/").status_code == 403
    assert c.post(f"/monitoring/results/{world.my_result.pk}/correct/", {}).status_code == 403
    assert c.post(f"/monitoring/findings/{world.my_finding.pk}/review/", {}).status_code == 403
    r = c.post(
        f"/api/monitoring/results/{world.their_result.pk}/correct/",
        {"value": "7", "unit": "SU", "reason": "x"},
        content_type="application/json",
    )
    assert r.status_code == 404
    r = c.post(
        f"/api/monitoring/results/{world.my_result.pk}/correct/",
        {"value": "7", "unit": "SU", "reason": "x"},
        content_type="application/json",
    )
    assert r.status_code == 403
    r = c.post(
        f"/api/monitoring/findings/{world.my_finding.pk}/review/",
        {"review": "closed", "note": "x"},
        content_type="application/json",
    )
    assert r.status_code == 403


def test_outside_user_uploads_own_results_only(world: World, login: Any) -> None:
    c = login("owner")
    before = LabResult.objects.count()
    theirs = SimpleUploadedFile("t.csv", lab_file("OTHER-PLANT", "X1"), "text/csv")
    r = c.post("/api/monitoring/imports/", {"file": theirs})
    assert r.status_code == 400
    assert {e["field"] for e in r.json()["errors"]} == {"facility"}
    assert LabResult.objects.count() == before
    mine = SimpleUploadedFile("m.csv", lab_file("OWNER-CAFE", "X2", "7.1"), "text/csv")
    r = c.post("/api/monitoring/imports/", {"file": mine})
    assert r.status_code == 201, r.json()
    imp = LabImport.objects.get(pk=r.json()["import_id"])
    assert imp.source == "self_monitoring" and imp.establishment == world.fac.mine
    assert c.get(f"/api/monitoring/imports/{imp.pk}/").status_code == 200
    assert login("other").get(f"/api/monitoring/imports/{imp.pk}/").status_code == 404


def test_officer_actions(world: World, login: Any) -> None:
    c = login("clerk")
    assert c.post(f"/monitoring/imports/{world.their_import.pk}/approve/").status_code == 403
    r = c.post(
        f"/api/monitoring/imports/{world.their_import.pk}/approve/",
        {},
        content_type="application/json",
    )
    assert r.status_code == 403
    c = login("engineer")
    r = c.post(
        f"/api/monitoring/imports/{world.their_import.pk}/approve/",
        {"note": "checked"},
        content_type="application/json",
    )
    assert r.status_code == 200 and r.json() == {"approved": 2}
    r = c.post(
        f"/api/monitoring/results/{world.their_result.pk}/correct/",
        {"value": "6.8", "unit": "SU", "reason": "meter recalibrated"},
        content_type="application/json",
    )
    assert r.status_code == 201 and r.json()["status"] == "compliant"
    assert r.json()["supersedes"] == world.their_result.pk
    r = c.post(
        f"/api/monitoring/findings/{world.their_finding.pk}/review/",
        {"review": "acknowledged"},
        content_type="application/json",
    )
    assert r.status_code == 200 and r.json()["review"] == "acknowledged"
    r = c.post(
        "/api/monitoring/limits/",
        {
            "establishment": world.fac.theirs.pk,
            "parameter": "zinc",
            "limit_type": "daily_maximum",
            "value": "2.0",
            "unit": "mg/l",
            "effective_from": "2026-01-01",
        },
        content_type="application/json",
    )
    assert r.status_code == 201, r.json()
    r = c.post(
        f"/monitoring/facilities/{world.fac.theirs.pk}/limits/new/",
        {
            "parameter": "copper",
            "limit_type": "daily_maximum",
            "value": "0.9",
            "unit": "mg/l",
            "effective_from": "2025-06-01",
            "citation": "§ 196-16 E",
        },
    )
    assert r.status_code == 400 and "copper" in r.content.decode()  # overlaps the 2025 limit
    r = login("inspector").post(
        "/api/monitoring/limits/",
        {
            "establishment": world.fac.theirs.pk,
            "parameter": "lead",
            "limit_type": "daily_maximum",
            "value": "1",
            "unit": "mg/l",
            "effective_from": "2026-01-01",
        },
        content_type="application/json",
    )
    assert r.status_code == 403


def test_only_officers_and_facilities_post_lab_files(world: World, login: Any) -> None:
    """Staff who neither store results nor report for a facility cannot import through the API."""
    before = LabResult.objects.count()
    for username in ("clerk", "viewer", "inspector", "highway"):
        upload = SimpleUploadedFile("x.csv", lab_file("OTHER-PLANT", f"Z-{username}"), "text/csv")
        r = login(username).post("/api/monitoring/imports/", {"file": upload})
        assert r.status_code == 403, username
    assert LabResult.objects.count() == before
