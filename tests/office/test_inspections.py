"""Inspections (§ 196-21): credentials, checklists with citations, findings, report, visibility."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from sewer_office.core.audit import timeline
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput, TransitionNotAllowed
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of
from sewer_office.inspections import services
from sewer_office.inspections.checklists import CHECKLISTS, items
from sewer_office.inspections.choices import InspectionKind, InspectionState
from sewer_office.inspections.models import Inspection
from sewer_office.inspections.report import report_lines, report_pdf
from sewer_office.monitoring.models import SamplingEvent
from sewer_rules.citations import Citation
from sewer_rules.sections import REGISTRY

from .factories import Town

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def all_pass(kind: str, **fails: str) -> dict[str, dict[str, str]]:
    """Answers passing every item of ``kind`` except ``fails`` (key → note)."""
    out = {i.key: {"result": "pass", "note": ""} for i in items(kind)}
    for key, note in fails.items():
        out[key] = {"result": "fail", "note": note}
    return out


def scheduled(
    town: Town,
    *,
    mine: bool = True,
    kind: str = InspectionKind.FOOD_SERVICE,
    when_days: int = 3,
    by: str = "inspector",
) -> Inspection:
    est = town.owner_restaurant if mine else town.other_plant
    return services.schedule(
        town.u(by),
        kind=kind,
        establishment=est,
        scheduled_for=timezone.now() + timedelta(days=when_days),
    )


def completed(town: Town, *, mine: bool = True, **fails: str) -> Inspection:
    i = scheduled(town, mine=mine)
    start = timezone.now() - timedelta(hours=2)
    return services.complete(
        i,
        town.u("inspector"),
        credentials_presented=True,
        credential="Badge 7",
        started_at=start,
        ended_at=start + timedelta(hours=1),
        answers=all_pass(InspectionKind.FOOD_SERVICE, **fails),
        observations="Trap lid cracked.",
        samples_text="Grab sample at the trap outlet",
    )


def test_every_checklist_item_cites_a_registered_section() -> None:
    assert set(CHECKLISTS) == set(InspectionKind.values)
    for kind, checklist in CHECKLISTS.items():
        keys = [i.key for i in checklist]
        assert len(keys) == len(set(keys)), kind
        for item in checklist:
            assert Citation.parse(item.citation) in REGISTRY, (kind, item.citation)
    cited = {i.citation for c in CHECKLISTS.values() for i in c}
    assert {"§ 196-19 F(2)", "§ 196-19 H", "§ 196-19 A", "§ 196-17 F", "§ 196-19 G"} <= cited


def test_stormwater_items_cite_the_prohibition_of_196_19_a_not_b() -> None:
    stormwater = [i for c in CHECKLISTS.values() for i in c if i.key == "no_stormwater"]
    assert len(stormwater) == 2
    assert {i.citation for i in stormwater} == {"§ 196-19 A"}
    assert all(i.citation != "§ 196-19 B" for c in CHECKLISTS.values() for i in c)


def test_private_system_item_says_what_196_17_d_says() -> None:
    (item,) = [i for i in CHECKLISTS[InspectionKind.PRIVATE_SYSTEM] if i.citation == "§ 196-17 D"]
    # § 196-17 D: "No septic tank or cesspool shall be permitted to discharge to any natural outlet."
    assert "no septic tank or cesspool discharges to any natural outlet" in item.question
    assert "public sewer" not in item.question


def test_completing_without_credentials_is_refused_citing_196_21_a(town: Town) -> None:
    i = scheduled(town)
    kwargs: dict[str, Any] = {
        "started_at": timezone.now() - timedelta(hours=1),
        "ended_at": None,
        "answers": all_pass(InspectionKind.FOOD_SERVICE),
    }
    for presented, credential in ((False, "Badge 7"), (True, "  ")):
        with pytest.raises(Blocked, match=r"§ 196-21 A"):
            services.complete(
                i,
                town.u("inspector"),
                credentials_presented=presented,
                credential=credential,
                **kwargs,
            )
    i.refresh_from_db()
    assert i.state == InspectionState.SCHEDULED
    assert not findings_of(i).exists()
    assert [e.action for e in timeline(i)] == ["schedule_inspection"]
    easement = services.schedule(
        town.u("engineer"),
        kind=InspectionKind.BUILDING_SEWER,
        property=town.owner_home,
        on_easement=True,
        location="Easement behind lot 100-01, manhole MH-7",
        unscheduled=True,
    )
    with pytest.raises(Blocked, match=r"§ 196-21 B"):
        services.complete(
            easement,
            town.u("engineer"),
            credentials_presented=False,
            credential="",
            started_at=kwargs["started_at"],
            ended_at=None,
            answers=all_pass(InspectionKind.BUILDING_SEWER),
        )


def test_failed_items_become_findings_citing_their_sections(town: Town) -> None:
    i = completed(
        town,
        grease_trap_accessible="Trap under a bolted floor plate.",
        no_stormwater="Roof leader tied into the kitchen drain.",
    )
    assert i.state == InspectionState.COMPLETED and i.credential == "Badge 7"
    answers = list(i.answers.all())
    assert [a.key for a in answers] == [x.key for x in items(InspectionKind.FOOD_SERVICE)]
    found = list(findings_of(i).order_by("citation"))
    assert [(f.citation, f.status, f.kind, f.review) for f in found] == [
        ("§ 196-19 A", "review", "inspection", "new"),
        ("§ 196-19 F(2)", "review", "inspection", "new"),
    ]
    assert all(f.establishment_id == town.owner_restaurant.pk for f in found)
    assert "readily and easily accessible" in found[1].message
    assert "bolted floor plate" in found[1].message
    events = list(timeline(i))
    assert [e.action for e in events] == ["schedule_inspection", "complete_inspection"]
    assert events[1].citation == "§ 196-21 A" and events[1].state_to == "completed"


def test_answers_are_validated_before_anything_is_stored(town: Town) -> None:
    i = scheduled(town)
    base = {
        "credentials_presented": True,
        "credential": "Badge 7",
        "started_at": timezone.now() - timedelta(hours=1),
        "ended_at": None,
    }
    answers = all_pass(InspectionKind.FOOD_SERVICE)
    answers.pop("grease_trap_provided")
    with pytest.raises(InvalidInput) as e:
        services.complete(i, town.u("inspector"), answers=answers, **base)
    assert "grease_trap_provided" in e.value.errors
    bad = all_pass(InspectionKind.FOOD_SERVICE, garbage_shredded="")
    with pytest.raises(InvalidInput) as e:
        services.complete(i, town.u("inspector"), answers=bad, **base)
    assert "garbage_shredded" in e.value.errors
    extra = {**all_pass(InspectionKind.FOOD_SERVICE), "bogus": {"result": "pass"}}
    with pytest.raises(InvalidInput):
        services.complete(i, town.u("inspector"), answers=extra, **base)
    theirs = SamplingEvent.objects.create(
        establishment=town.other_plant,
        sample_id="S-1",
        sample_type="grab",
        collected_at=timezone.now(),
    )
    with pytest.raises(InvalidInput) as e:
        services.complete(
            i,
            town.u("inspector"),
            answers=all_pass(InspectionKind.FOOD_SERVICE),
            samples=[theirs],
            **base,
        )
    assert "samples" in e.value.errors
    with pytest.raises(Forbidden):
        services.complete(i, town.u("clerk"), answers=all_pass(InspectionKind.FOOD_SERVICE), **base)
    i.refresh_from_db()
    assert i.state == InspectionState.SCHEDULED and not i.answers.exists()


def test_scheduling_rules(town: Town) -> None:
    with pytest.raises(InvalidInput) as e:
        services.schedule(town.u("inspector"), kind=InspectionKind.PRIVATE_SYSTEM)
    assert "establishment" in e.value.errors and "scheduled_for" in e.value.errors
    with pytest.raises(InvalidInput) as e:
        services.schedule(
            town.u("inspector"),
            kind=InspectionKind.INDUSTRIAL_USER,
            property=town.other_home,
            unscheduled=True,
            inspector=town.u("clerk"),
        )
    assert set(e.value.errors) == {"establishment", "inspector"}
    with pytest.raises(Forbidden):
        services.schedule(
            town.u("viewer"), kind=InspectionKind.FOOD_SERVICE, establishment=town.owner_restaurant
        )
    ok = services.schedule(
        town.u("superintendent"),
        kind=InspectionKind.PRIVATE_SYSTEM,
        property=town.phase3_lot,
        unscheduled=True,
        inspector=town.u("inspector"),
    )
    assert ok.inspector == town.u("inspector") and ok.scheduled_by == town.u("superintendent")


def test_completed_inspection_is_not_edited_but_takes_addenda(town: Town) -> None:
    i = completed(town)
    with pytest.raises(TransitionNotAllowed):
        services.complete(
            i,
            town.u("inspector"),
            credentials_presented=True,
            credential="x",
            started_at=timezone.now(),
            ended_at=None,
            answers=all_pass(InspectionKind.FOOD_SERVICE),
        )
    with pytest.raises(TransitionNotAllowed):
        services.cancel(i, town.u("inspector"), "no")
    with pytest.raises(TransitionNotAllowed):
        services.add_photo(
            i, town.u("inspector"), SimpleUploadedFile("a.png", PNG, content_type="image/png")
        )
    services.add_addendum(i, town.u("engineer"), "Owner sent proof of trap cleaning.")
    assert i.addenda.get().text == "Owner sent proof of trap cleaning."
    assert timeline(i).last().action == "add_addendum"
    with pytest.raises(TransitionNotAllowed):
        services.add_addendum(scheduled(town), town.u("engineer"), "too early")


def test_cancel_needs_a_reason(town: Town) -> None:
    i = scheduled(town)
    with pytest.raises(InvalidInput):
        services.cancel(i, town.u("inspector"), " ")
    i = services.cancel(i, town.u("inspector"), "Facility closed for renovation.")
    assert i.state == InspectionState.CANCELLED
    assert timeline(i).last().reason == "Facility closed for renovation."


def test_photos_are_checked_images(town: Town, login: Any) -> None:
    i = scheduled(town)
    c = login("inspector")
    r = c.post(
        f"/inspections/{i.pk}/photos/",
        {"photo": SimpleUploadedFile("trap.png", PNG, content_type="image/png"), "title": "Trap"},
    )
    assert r.status_code == 302
    photo = i.photos().get()
    assert photo.title == "Trap" and photo.size == len(PNG)
    fake = SimpleUploadedFile("x.png", b"#!/bin/sh\necho hi\n", content_type="image/png")
    r = c.post(f"/inspections/{i.pk}/photos/", {"photo": fake})
    assert r.status_code == 400 and "not a JPEG, PNG" in r.content.decode()
    pdf = SimpleUploadedFile("x.pdf", b"%PDF-1.4", content_type="application/pdf")
    with pytest.raises(InvalidInput):
        services.add_photo(i, town.u("inspector"), pdf)
    assert i.photos().count() == 1


def test_report_pdf_renders_with_citations(town: Town, login: Any) -> None:
    i = scheduled(town)
    services.add_photo(
        i,
        town.u("inspector"),
        SimpleUploadedFile("trap.png", PNG, content_type="image/png"),
        "Trap",
    )
    i = services.complete(
        i,
        town.u("inspector"),
        credentials_presented=True,
        credential="Badge 7 — Ian",
        started_at=timezone.now() - timedelta(hours=1),
        ended_at=timezone.now(),
        answers=all_pass(InspectionKind.FOOD_SERVICE, grease_trap_provided="No trap at all."),
        observations="Kitchen drains straight to the building sewer.",
        samples_text="Grab at the cleanout",
    )
    text = "\n".join(t for _, t in report_lines(i))
    for expected in (
        "Credentials presented (§ 196-21 A): yes, Badge 7 — Ian",
        "[Fail] A grease trap is provided for the kitchen wastes (§ 196-19 F(2)) - No trap at all.",
        "(§ 196-19 D(2))",
        "review (§ 196-19 F(2))",
        "Kitchen drains straight",
        "- Grab at the cleanout",
        "- Trap (trap.png",
        "Olive's Diner",
        # the footer promises only what the office does (§ 196-22 A: the notice, if opened)
        "This report is not a notice of violation",
        "at least 10 days counted from service (§ 196-22 A)",
    ):
        assert expected in text, expected
    pdf = report_pdf(i)
    assert pdf.startswith(b"%PDF")
    r = login("owner").get(f"/inspections/{i.pk}/report.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")
    api = APIClient()
    api.force_authenticate(town.u("viewer"))
    r = api.get(f"/api/inspections/{i.pk}/report/")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


def test_owner_never_sees_a_scheduled_inspection_of_their_facility(town: Town, login: Any) -> None:
    planned = scheduled(town)
    done = completed(town, grease_trap_provided="Missing.")
    c = login("owner")
    for url in (
        f"/inspections/{planned.pk}/",
        f"/inspections/{planned.pk}/report.pdf",
        f"/api/inspections/{planned.pk}/",
        f"/api/inspections/{planned.pk}/report/",
    ):
        assert c.get(url).status_code == 404, url
    assert c.get(f"/inspections/{done.pk}/").status_code == 200
    listing = c.get("/inspections/").content.decode()
    assert done.number in listing and planned.number not in listing
    ids = {r["id"] for r in c.get("/api/inspections/").json()["results"]}
    assert ids == {done.pk}
    page = c.get(f"/registry/establishments/{town.owner_restaurant.pk}/").content.decode()
    assert done.number in page and planned.number not in page
    assert "Missing." in c.get(f"/inspections/{done.pk}/").content.decode()
    staff_page = login("viewer").get(f"/registry/establishments/{town.owner_restaurant.pk}/")
    assert planned.number in staff_page.content.decode()


def test_perform_form_and_credentials_refusal_on_the_page(town: Town, login: Any) -> None:
    i = scheduled(town)
    c = login("inspector")
    page = c.get(f"/inspections/{i.pk}/complete/")
    assert page.status_code == 200 and "§ 196-19 F(2)" in page.content.decode()
    now = timezone.localtime()
    data: dict[str, Any] = {
        "started_at": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "ended_at": now.strftime("%Y-%m-%dT%H:%M"),
        "observations": "ok",
    }
    for item in items(InspectionKind.FOOD_SERVICE):
        data[f"item_{item.key}"] = "pass"
    data["item_garbage_shredded"] = "fail"
    data["note_garbage_shredded"] = "Unapproved 1 hp grinder."
    r = c.post(f"/inspections/{i.pk}/complete/", data)
    assert r.status_code == 409 and "§ 196-21 A" in r.content.decode()
    sample = SamplingEvent.objects.create(
        establishment=town.owner_restaurant,
        sample_id="TRAP-1",
        sample_type="grab",
        collected_at=timezone.now() - timedelta(minutes=30),
    )
    r = c.post(
        f"/inspections/{i.pk}/complete/",
        {**data, "credentials_presented": "on", "credential": "Badge 7", "samples": [sample.pk]},
    )
    assert r.status_code == 302
    assert list(Inspection.objects.get(pk=i.pk).samples.all()) == [sample]
    f = Finding.objects.get(source_id=str(i.pk), kind="inspection")
    assert f.citation == "§ 196-19 D(3)" and "1 hp grinder" in f.message
    assert c.get(f"/inspections/{i.pk}/complete/").status_code == 302


def test_schedule_page(town: Town, login: Any) -> None:
    c = login("engineer")
    assert c.get("/inspections/schedule/").status_code == 200
    r = c.post("/inspections/schedule/", {"kind": "food_service"})
    assert r.status_code == 400
    r = c.post(
        "/inspections/schedule/",
        {
            "kind": "food_service",
            "establishment": town.owner_restaurant.pk,
            "scheduled_for": "2030-05-01T10:00",
            "inspector": town.u("inspector").pk,
        },
    )
    assert r.status_code == 302
    i = Inspection.objects.get()
    assert i.inspector == town.u("inspector") and i.scheduled_for.year == 2030


def test_dashboard_lists_upcoming_and_overdue_for_staff_only(town: Town, login: Any) -> None:
    soon = scheduled(town, when_days=3)
    later = scheduled(town, when_days=30)
    late = scheduled(town, mine=False)
    Inspection.objects.filter(pk=late.pk).update(scheduled_for=timezone.now() - timedelta(days=2))
    page = login("clerk").get("/").content.decode()
    assert soon.number in page and late.number in page and later.number not in page
    assert "Overdue" in page
    assert soon.number not in login("owner").get("/").content.decode()
    upcoming = login("viewer").get("/inspections/?upcoming=on").content.decode()
    assert soon.number in upcoming and later.number in upcoming and late.number not in upcoming


def test_api_schedule_complete_and_refusal(town: Town) -> None:
    api = APIClient()
    api.force_authenticate(town.u("superintendent"))
    r = api.post(
        "/api/inspections/",
        {
            "kind": "industrial_user",
            "establishment": town.other_plant.pk,
            "scheduled_for": (timezone.now() + timedelta(days=2)).isoformat(),
            "inspector": town.u("engineer").pk,
        },
        format="json",
    )
    assert r.status_code == 201, r.content
    pk = r.json()["id"]
    assert r.json()["inspector"] == town.u("engineer").pk
    body = {
        "credentials_presented": False,
        "started_at": (timezone.now() - timedelta(hours=1)).isoformat(),
        "answers": all_pass(
            InspectionKind.INDUSTRIAL_USER, pretreatment_maintained="Clarifier bypassed."
        ),
    }
    r = api.post(f"/api/inspections/{pk}/complete/", body, format="json")
    assert r.status_code == 409 and "§ 196-21 A" in r.json()["detail"]
    r = api.post(
        f"/api/inspections/{pk}/photos/",
        {"photo": SimpleUploadedFile("p.png", PNG, content_type="image/png")},
        format="multipart",
    )
    assert r.status_code == 201 and len(r.json()["photos"]) == 1
    good = {**body, "credentials_presented": True, "credential": "ID 0042"}
    r = api.post(f"/api/inspections/{pk}/complete/", {**good, "samples": [987654]}, format="json")
    assert r.status_code == 400 and "samples" in r.json()["errors"]
    r = api.post(f"/api/inspections/{pk}/complete/", good, format="json")
    assert r.status_code == 200, r.content
    out = r.json()
    assert out["state"] == "completed" and out["inspector"] == town.u("superintendent").pk
    assert [f["citation"] for f in out["findings"]] == ["§ 196-19 G"]
    assert out["report"] == f"/inspections/{pk}/report.pdf"
    r = api.post(f"/api/inspections/{pk}/addenda/", {"text": "Bypass removed."}, format="json")
    assert r.status_code == 201 and r.json()["addenda"][0]["text"] == "Bypass removed."
    r = api.post(f"/api/inspections/{pk}/cancel/", {"reason": "x"}, format="json")
    assert r.status_code == 409


def test_demo_loader(town: Town) -> None:
    from sewer_office.demo.inspections import load_demo_inspections
    from sewer_office.registry.choices import EstablishmentKind
    from sewer_office.registry.models import Establishment

    acme = Establishment.objects.create(
        name="Acme Plating Corporation",
        code="ACME-PLATING",
        operator=town.other_person,
        building=town.other_plant.building,
        kind=EstablishmentKind.INDUSTRIAL,
    )
    second = Establishment.objects.create(
        name="Second Diner",
        operator=town.owner_person,
        building=town.owner_shop_building,
        kind=EstablishmentKind.RESTAURANT,
    )
    anchor = timezone.localdate()
    fake = SimpleNamespace(
        users={"inspector": town.u("inspector"), "superintendent": town.u("superintendent")},
        establishments={EstablishmentKind.RESTAURANT: [town.owner_restaurant, second]},
        anchor=anchor,
        moment=lambda days, minutes=0: (
            timezone.now().replace(hour=14, minute=0)
            - timedelta(days=days)
            + timedelta(minutes=minutes)
        ),
    )
    load_demo_inspections(fake)
    done = Inspection.objects.filter(state=InspectionState.COMPLETED)
    assert done.count() == 2
    acme_done = done.get(establishment=acme)
    assert [f.citation for f in findings_of(acme_done)] == ["§ 196-19 D(4)"]
    assert not findings_of(done.get(establishment=town.owner_restaurant)).exists()
    assert Inspection.objects.filter(state=InspectionState.SCHEDULED).count() == 2
    assert {i.inspector.username for i in Inspection.objects.all()} == {
        "inspector",
        "superintendent",
    }


def test_photos_of_a_completed_inspection_download_to_its_owner_only(
    town: Town, login: Any
) -> None:
    i = scheduled(town)
    att = services.add_photo(
        i, town.u("inspector"), SimpleUploadedFile("t.png", PNG, content_type="image/png")
    )
    services.complete(
        i,
        town.u("inspector"),
        credentials_presented=True,
        credential="Badge 7",
        started_at=timezone.now() - timedelta(hours=1),
        ended_at=None,
        answers=all_pass(InspectionKind.FOOD_SERVICE),
    )
    r = login("owner").get(f"/files/{att.pk}/")
    assert r.status_code == 200 and b"".join(r.streaming_content) == PNG
    assert login("other").get(f"/files/{att.pk}/").status_code == 404
    body = login("owner").get(f"/api/inspections/{i.pk}/").json()
    assert body["photos"][0]["download"] == f"/files/{att.pk}/"
