"""SNC criteria determined by staff (40 CFR 403.8(f)(2)(viii)(C), (D), (G), (H)): recorded on a
determination, which a new one supersedes (never edited), kept by a re-computation."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent
from sewer_office.enforcement.models import Violation
from sewer_office.pretreatment import snc, snc_staff
from sewer_office.pretreatment.models import SNCDetermination

from .factories import Town
from .pretreatment_factories import at, chronic_copper, sup

FACTS = "Copper slug on 2026-03-04 upset the aeration tanks (interference)."


def _compliant(town: Town) -> tuple[Any, SNCDetermination]:
    f = chronic_copper(town, sius=True)
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    det = SNCDetermination.objects.get(establishment=f.mine, superseded_by__isnull=True)
    assert not det.snc and det.violation_id is None
    return f, det


def test_recording_supersedes_audits_and_opens_the_violation_once(town: Town) -> None:
    f, det = _compliant(town)
    eng = town.u("engineer")
    new = snc_staff.record_staff_criterion(det, "C", FACTS, date(2026, 3, 4), eng,
                                          at=at("2026-07-05"))  # fmt: skip
    assert new.pk != det.pk and new.supersedes_id == det.pk
    det.refresh_from_db()
    assert not det.snc and det.criteria == [] and det.staff_criteria == []  # never edited
    assert new.snc and new.criteria == ["C"]
    assert new.citations == ["40 CFR 403.8(f)(2)(viii)(C)"]
    assert new.staff_criteria == [
        {"criterion": "C", "citation": "40 CFR 403.8(f)(2)(viii)(C)", "text": FACTS,
         "on": "2026-03-04", "by": "engineer"}
    ]  # fmt: skip
    v = new.violation
    assert v is not None and v.kind == "significant_noncompliance"
    assert "(C)" in v.finding.message and "aeration" in v.finding.message
    ev = AuditEvent.objects.get(action="record_snc_criterion", object_id=str(new.pk))
    assert ev.citation == "40 CFR 403.8(f)(2)(viii)(C)" and ev.state_to == "snc"
    assert ev.before["id"] == det.pk and ev.after["violation"] == v.pk
    # a second criterion: one more determination, the same violation
    again = snc_staff.record_staff_criterion(new, "G", "Reported compliance in the March "
                                            "report despite the slug.", date(2026, 4, 1),
                                            sup(town), at=at("2026-07-06"))  # fmt: skip
    assert again.criteria == ["C", "G"] and again.violation_id == v.pk
    assert Violation.objects.filter(kind="significant_noncompliance", person=f.mine.operator
                                    ).count() == 1  # fmt: skip


def test_a_facility_already_in_snc_keeps_its_violation(town: Town) -> None:
    f = chronic_copper(town, sius=True)
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    det = SNCDetermination.objects.get(establishment=f.theirs, superseded_by__isnull=True)
    before = Violation.objects.count()
    new = snc_staff.record_staff_criterion(det, "H", "Refused entry to the inspector.",
                                          date(2026, 5, 2), sup(town), at=at("2026-07-05"))  # fmt: skip
    assert new.criteria == ["A", "H"] and new.violation_id == det.violation_id
    assert Violation.objects.count() == before


def test_recomputation_keeps_the_staff_criterion(town: Town) -> None:
    f, det = _compliant(town)
    snc_staff.record_staff_criterion(det, "D", "Emergency order to halt the discharge.",
                                    date(2026, 2, 9), sup(town), at=at("2026-07-05"))  # fmt: skip
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-08"))
    mine = next(d for d in run.determinations if d.establishment_id == f.mine.pk)
    assert mine.snc and mine.criteria == ["D"]
    assert [s["criterion"] for s in mine.staff_criteria] == ["D"]
    assert run.violations_opened == 0  # the one opened by the staff criterion stays
    assert Violation.objects.filter(person=f.mine.operator,
                                    kind="significant_noncompliance").count() == 1  # fmt: skip


@pytest.mark.parametrize(
    ("criterion", "facts", "on", "field"),
    [
        ("E", FACTS, date(2026, 3, 4), "criterion"),
        ("X", FACTS, date(2026, 3, 4), "criterion"),
        ("C", "   ", date(2026, 3, 4), "facts"),
        ("C", FACTS, date(2026, 7, 1), "on"),
        ("C", FACTS, date(2025, 12, 31), "on"),
        ("C", FACTS, None, "on"),
    ],
)
def test_bad_input_is_refused_and_nothing_written(
    town: Town, criterion: str, facts: str, on: date | None, field: str
) -> None:
    _f, det = _compliant(town)
    n, events, viols = SNCDetermination.objects.count(), AuditEvent.objects.count(), \
        Violation.objects.count()  # fmt: skip
    with pytest.raises(InvalidInput) as e:
        snc_staff.record_staff_criterion(det, criterion, facts, on, sup(town), at=at("2026-07-05"))
    assert field in e.value.errors
    assert (SNCDetermination.objects.count(), AuditEvent.objects.count(),
            Violation.objects.count()) == (n, events, viols)  # fmt: skip


@pytest.mark.parametrize("username", ["inspector", "clerk", "viewer", "owner"])
def test_other_roles_may_not_record(town: Town, username: str) -> None:
    _f, det = _compliant(town)
    n = SNCDetermination.objects.count()
    with pytest.raises(Forbidden):
        snc_staff.record_staff_criterion(det, "C", FACTS, date(2026, 3, 4), town.u(username))
    assert SNCDetermination.objects.count() == n


def test_a_superseded_determination_is_refused(town: Town) -> None:
    _f, det = _compliant(town)
    snc_staff.record_staff_criterion(det, "C", FACTS, date(2026, 3, 4), sup(town))
    with pytest.raises(Blocked):
        snc_staff.record_staff_criterion(det, "G", FACTS, date(2026, 3, 4), sup(town))


def test_page_form_and_api(town: Town, login: Any) -> None:
    f, det = _compliant(town)
    clerk_page = login("clerk").get(f"/pretreatment/snc/{det.pk}/").content.decode()
    assert "Record a criterion" not in clerk_page
    c = login("engineer")
    body = c.get(f"/pretreatment/snc/{det.pk}/").content.decode()
    assert "Record a criterion determined by the Control Authority" in body
    url = f"/pretreatment/snc/{det.pk}/staff-criterion/"
    r = c.post(url, {"criterion": "C", "facts": "", "on": "2026-03-04"})
    assert r.status_code == 400 and "This field is required" in r.content.decode()
    r = c.post(url, {"criterion": "C", "facts": FACTS, "on": "2026-08-01"})
    assert r.status_code == 400 and "outside the period" in r.content.decode()
    r = c.post(url, {"criterion": "C", "facts": FACTS, "on": "2026-03-04"})
    new = SNCDetermination.objects.get(supersedes=det)
    assert r.status_code == 302 and r["Location"] == f"/pretreatment/snc/{new.pk}/"
    page = c.get(r["Location"]).content.decode()
    assert "40 CFR 403.8(f)(2)(viii)(C)" in page and "aeration tanks" in page
    api = f"/api/pretreatment/snc/{new.pk}/staff-criterion/"
    r = c.post(api, {"criterion": "Z", "facts": FACTS, "on": "2026-03-04"},
               content_type="application/json")  # fmt: skip
    assert r.status_code == 400 and "'Z'" in r.json()["errors"]["criterion"][0]
    r = c.post(api, {"criterion": "G", "facts": "False report.", "on": "2026-04-01"},
               content_type="application/json")  # fmt: skip
    assert r.status_code == 201 and r.json()["criteria"] == ["C", "G"]
    assert r.json()["supersedes"] == new.pk and r.json()["snc"] is True
    # the superseded one is no longer in the API
    assert c.post(api, {"criterion": "H", "facts": "x", "on": "2026-04-01"},
                  content_type="application/json").status_code == 404  # fmt: skip
    assert f.mine.pk == new.establishment_id
