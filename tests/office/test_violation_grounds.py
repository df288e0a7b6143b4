"""A violation (and a notice) is opened only for a violation: by service, page and API.

By hand, only under a provision that imposes a duty or prohibition (sewer_rules.duties); from
a finding, only from a finding that is a violation, a ``review`` result only with the
engineer's/Superintendent's recorded opinion (§ 196-19 D, E). Every refusal is the service's,
so the page and the API say the same words.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent
from sewer_office.core.services import perform
from sewer_office.enforcement import notices, referrals, services
from sewer_office.enforcement.grounds import refused_violations
from sewer_office.enforcement.models import Violation
from sewer_office.findings.models import HarmOpinion
from sewer_office.findings.opinions import record_opinion
from sewer_office.findings.services import record_finding

from .enforcement_factories import at, finding
from .factories import Town

#: Provisions that impose no duty, each with the words its refusal must carry.
NO_DUTY = [
    ("§ 196-15 TOWN", "is a definition: it imposes no duty"),
    ("§ 196-23 D", "is a fee section"),
    ("§ 196-22 B", "is a penalty section"),
    ("§ 196-16 I", "is a savings clause"),
]
#: Finding statuses that are never a violation, each with the words of its refusal.
NOT_VIOLATIONS = [
    ("compliant", "nothing was violated"),
    ("no_limit", "no limit is configured"),
    ("inconclusive", "neither shows nor excludes"),
    ("abnormal_strength", "surcharge matter"),
]


def _by_hand(town: Town, section: str) -> dict[str, Any]:
    return {
        "kind": "discharge_seen",
        "section": section,
        "description": "Seen on inspection",
        "person": town.other_person,
        "establishment": town.other_plant,
    }


def _form(town: Town, section: str) -> dict[str, Any]:
    return {
        "kind": "discharge_seen",
        "section": section,
        "description": "Seen on inspection",
        "person": town.other_person.pk,
        "establishment": town.other_plant.pk,
        "observed_on": "2026-01-02",
    }


def _api(c: Any, data: dict[str, Any]) -> Any:
    return c.post("/api/enforcement/violations/", data, content_type="application/json")


# --- by hand ---------------------------------------------------------------------------


@pytest.mark.parametrize(("section", "words"), NO_DUTY)
def test_by_hand_the_service_refuses_a_provision_without_duty(
    town: Town, section: str, words: str
) -> None:
    with pytest.raises(InvalidInput) as e:
        services.open_violation(
            town.u("superintendent"), at=at("2026-01-02"), **_by_hand(town, section)
        )
    said = e.value.errors["section"][0]
    assert said.startswith(section + " ") and words in said
    assert not Violation.objects.exists()


@pytest.mark.parametrize(("section", "words"), NO_DUTY)
def test_by_hand_the_page_refuses_a_provision_without_duty(
    town: Town, login: Any, section: str, words: str
) -> None:
    r = login("superintendent").post("/enforcement/open/", _form(town, section))
    assert r.status_code == 400 and words in r.content.decode()
    assert not Violation.objects.exists()


@pytest.mark.parametrize(("section", "words"), NO_DUTY)
def test_by_hand_the_api_refuses_a_provision_without_duty(
    town: Town, login: Any, section: str, words: str
) -> None:
    body = {**_form(town, section)}
    body.pop("observed_on")
    r = _api(login("superintendent"), body)
    assert r.status_code == 400 and words in r.content.decode()
    assert not Violation.objects.exists()


def test_by_hand_a_duty_opens_and_damage_is_still_referred_at_once(town: Town) -> None:
    sup = town.u("superintendent")
    v = services.open_violation(sup, at=at("2026-01-02"), **_by_hand(town, "§ 196-19 C(1)"))
    assert v.state == "open"
    damage = services.open_violation(sup, at=at("2026-01-02"), **_by_hand(town, "§ 196-20"))
    assert damage.state == "referred"


# --- from a finding --------------------------------------------------------------------


@pytest.mark.parametrize(("status", "words"), NOT_VIOLATIONS)
def test_from_a_finding_that_is_no_violation_service_page_and_api_refuse(
    town: Town, login: Any, status: str, words: str
) -> None:
    f = finding(town, status=status)
    with pytest.raises(Blocked) as e:
        services.open_from_finding(town.u("superintendent"), f, at=at("2026-01-02", 12))
    assert words in e.value.message and f"Finding #{f.pk}" in e.value.message
    c = login("superintendent")
    page = c.get(f"/enforcement/open/?finding={f.pk}").content.decode()
    assert words in page and "Open the violation</button>" not in page
    r = c.post(f"/enforcement/open/?finding={f.pk}", {"finding": f.pk})
    assert r.status_code == 409 and words in r.content.decode()
    r = _api(c, {"finding": f.pk})
    assert r.status_code == 409 and words in r.content.decode()
    assert not Violation.objects.exists()


def test_an_advisory_and_a_superseded_finding_are_refused(town: Town) -> None:
    advisory = record_finding(
        source=None,
        establishment=town.owner_restaurant,
        kind="advisory",
        status="advisory",
        citation="§ 196-19 I",
        message="pH from a composite sample",
        observed_at=at("2026-01-02", 9),
    )
    with pytest.raises(Blocked, match="advisory"):
        services.open_from_finding(town.u("superintendent"), advisory)
    old = finding(town, status="prohibited")
    old.current = False
    old.save(update_fields=["current"])
    with pytest.raises(Blocked, match="superseded"):
        services.open_from_finding(town.u("superintendent"), old)


def test_review_needs_the_recorded_opinion_by_service_page_and_api(town: Town, login: Any) -> None:
    sup = town.u("superintendent")
    f = finding(town, status="review")
    with pytest.raises(Blocked, match="Record that opinion"):
        services.open_from_finding(sup, f)
    c = login("superintendent")
    r = c.post(f"/enforcement/open/?finding={f.pk}", {"finding": f.pk})
    assert r.status_code == 409 and "Record that opinion" in r.content.decode()
    assert _api(c, {"finding": f.pk}).status_code == 409
    # harm not likely: still refused, with the date it was recorded
    record_opinion(f, sup, harm_likely=False, reasons="small volume", at=at("2026-01-03"))
    with pytest.raises(Blocked, match="harm is not likely"):
        services.open_from_finding(sup, f)
    # the engineer changes the opinion (a new record, the old one kept): now it opens, by API
    record_opinion(
        f, town.u("engineer"), harm_likely=True, reasons="sewer of concrete", at=at("2026-01-04")
    )
    assert HarmOpinion.objects.filter(finding=f).count() == 2
    r = _api(c, {"finding": f.pk})
    assert r.status_code == 201, r.content.decode()
    assert Violation.objects.get().finding == f


def test_review_with_opinion_opens_by_service_and_by_page(town: Town, login: Any) -> None:
    sup = town.u("superintendent")
    f = finding(town, status="review")
    record_opinion(f, sup, harm_likely=True, reasons="harm likely", at=at("2026-01-03"))
    v = services.open_from_finding(sup, f, at=at("2026-01-04"))
    assert v.finding == f
    g = finding(town, status="review", mine=False)
    c = login("superintendent")
    # the opinion recorded on the page itself, then the violation opened there
    r = c.post(
        f"/enforcement/open/?finding={g.pk}",
        {"finding": g.pk, "opinion": "harm_likely", "reasons": "copper against low flows"},
    )
    assert r.status_code == 302
    opinion = HarmOpinion.objects.get(finding=g)
    event = AuditEvent.objects.get(action="record_opinion", object_id=str(opinion.pk))
    assert event.citation == "§ 196-19 D" and event.actor == sup
    r = c.post(f"/enforcement/open/?finding={g.pk}", {"finding": g.pk})
    assert r.status_code == 302 and Violation.objects.filter(finding=g).exists()


def test_only_the_superintendent_or_engineer_records_an_opinion(town: Town, login: Any) -> None:
    f = finding(town, status="review")
    for name in ("inspector", "clerk", "highway", "viewer", "owner"):
        with pytest.raises(Forbidden):
            record_opinion(f, town.u(name), harm_likely=True, reasons="x")
    r = login("inspector").post(
        f"/enforcement/open/?finding={f.pk}",
        {"finding": f.pk, "opinion": "harm_likely", "reasons": "x"},
    )
    assert r.status_code == 403
    with pytest.raises(InvalidInput, match="factors"):
        record_opinion(f, town.u("engineer"), harm_likely=True, reasons=" ")
    compliant = finding(town, status="compliant")
    with pytest.raises(InvalidInput, match="not under review"):
        record_opinion(compliant, town.u("engineer"), harm_likely=True, reasons="x")
    assert not HarmOpinion.objects.exists()


def test_findings_of_a_duty_not_met_open_without_an_opinion(town: Town) -> None:
    overdue = record_finding(
        source=None,
        establishment=town.owner_restaurant,
        kind="pump_out_overdue",
        status="review",
        citation="§ 196-19 G",
        message="Grease trap not cleaned within its interval",
        observed_at=at("2026-01-02", 9),
    )
    v = services.open_from_finding(town.u("superintendent"), overdue, at=at("2026-01-03"))
    assert v.section == "§ 196-19 G"


# --- existing records --------------------------------------------------------------------


def _legacy(town: Town, section: str, status: str = "prohibited") -> Violation:
    """A violation as the office recorded it before the rule (made directly, as old data)."""
    f = finding(town, status=status)
    return Violation.objects.create(
        kind="result_exceedance",
        section=section,
        description="recorded before the rule",
        person=town.owner_person,
        establishment=town.owner_restaurant,
        finding=f,
        observed_on=at("2026-01-02").date(),
        opened_by=town.u("superintendent"),
        state="open",
    )


def test_existing_refused_violations_are_marked_filtered_and_get_no_notice(
    town: Town, login: Any
) -> None:
    bad = _legacy(town, "§ 196-15 NORMAL SEWAGE", status="abnormal_strength")
    good = _legacy(town, "§ 196-19 C(3)")
    assert list(refused_violations(Violation.objects.all())) == [bad]
    with pytest.raises(Exception, match="No notice can be issued"):
        perform(bad, "issue_notice", town.u("superintendent"), {}, at=at("2026-01-05"))
    bad.refresh_from_db()
    assert bad.state == "open" and not bad.notices.exists()  # the record is unchanged
    assert referrals.guard_escalate(bad, {}) is not None
    assert "surcharge matter" in (notices.guard_issue(bad, {}) or "")
    assert notices.guard_issue(good, {}) is None
    c = login("superintendent")
    body = c.get("/enforcement/").content.decode()
    assert "would now be refused" in body and "surcharge matter" in body
    body = c.get("/enforcement/?refused=true").content.decode()
    assert bad.number in body and good.number not in body
    rows = c.get("/api/enforcement/violations/?refused=false").json()
    listed = rows["results"] if isinstance(rows, dict) else rows
    assert [r["id"] for r in listed] == [good.pk]
    assert listed[0]["would_now_be_refused"] is None
    one = c.get(f"/api/enforcement/violations/{bad.pk}/").json()
    assert "surcharge matter" in one["would_now_be_refused"]


def test_sewer_use_violations_marks_and_filters_the_refused(town: Town, capsys: Any) -> None:
    from sewer_cli.main import main

    bad = _legacy(town, "§ 196-23 D")
    good = _legacy(town, "§ 196-19 C(3)")
    assert main(["violations", "--format", "json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows[good.pk]["would_now_be_refused"] is None
    assert "§ 196-23 D is a fee section" in rows[bad.pk]["would_now_be_refused"]
    assert main(["violations", "--refused"]) == 0
    out = capsys.readouterr().out
    assert "§ 196-23 D *" in out and f"* {bad.number} would now be refused: " in out
    assert "§ 196-19 C(3)" not in out


def test_the_opinion_by_api_then_the_violation_by_api(town: Town, login: Any) -> None:
    f = finding(town, status="review")
    url = f"/api/monitoring/findings/{f.pk}/opinion/"
    body = {"harm_likely": True, "reasons": "copper against the low night flows"}
    for name in ("inspector", "clerk", "owner"):
        r = login(name).post(url, body, content_type="application/json")
        assert r.status_code == 403, name
    assert login(None).post(url, body, content_type="application/json").status_code == 401
    c = login("engineer")
    r = c.post(url, {"harm_likely": True, "reasons": ""}, content_type="application/json")
    assert r.status_code == 400 and "factors" in r.content.decode()
    r = c.post(url, body, content_type="application/json")
    assert r.status_code == 201 and r.json()["recorded_by"] == "engineer"
    r = _api(login("superintendent"), {"finding": f.pk})
    assert r.status_code == 201 and Violation.objects.get().finding == f
