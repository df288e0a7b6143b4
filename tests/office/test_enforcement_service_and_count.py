"""Service by the method recorded (certified mail completes on delivery) and the § 196-22 count
as revised, in the office: the service, the violation page, the letter, the API, the list and
``sewer-use violations`` give the count ``sewer-use fines`` gives for the same dates.

Dates by hand (the demo jurisdiction: 250.00 a day, 350.00 from 2026-01-18): the factories'
notice is issued Mon 2026-01-05; served that day with 10 days its deadline is Thu 2026-01-15.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from sewer_cli.main import main
from sewer_office.core.errors import InvalidInput, TransitionNotAllowed
from sewer_office.core.letters import compose
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.enforcement import liability, services
from sewer_office.enforcement.letters import CERTIFICATE
from sewer_office.enforcement.models import Notice, Violation
from sewer_office.enforcement.summary import violation_summary

from .enforcement_factories import at, issued, mailed_notice, overdue, served
from .factories import Town


def cli_fines(capsys: Any, *argv: str) -> dict[str, Any]:
    """``sewer-use fines`` on the demo jurisdiction (the office tests' jurisdiction)."""
    main(["fines", *argv, "--jurisdiction", "demo", "--format", "json"])
    return dict(json.loads(capsys.readouterr().out))


def serve_in_person(v: Violation, town: Town, on: str) -> Violation:
    return perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": on, "service_method": "personal"},
        at=at(on, 15),
    )


def report_and_verify(
    v: Violation, town: Town, reported: str, verified: str, ceased: str = ""
) -> Violation:
    v = perform(
        v,
        "report_correction",
        town.u("owner"),
        {"reported_on": reported, "description": "Pretreatment unit repaired"},
        at=at(reported, 16),
    )
    data = {"verified_on": verified} | ({"ceased_on": ceased} if ceased else {})
    return perform(v, "verify", town.u("inspector"), data, at=at(verified, 11))


# --- certified mail: no clock until delivery -----------------------------------------------


def test_certified_mail_is_served_on_delivery_not_on_mailing(town: Town, login: Any) -> None:
    v = mailed_notice(town, on="2026-01-05")
    n = v.notices.get()
    assert v.state == "mailed"
    assert (n.mailed_on, n.served_on, n.deadline) == (date(2026, 1, 5), None, None)
    assert "not yet delivered" in n.service_text
    # no clock runs: the daily job moves nothing, and no fine is counted, however late
    assert services.advance_clocks(date(2026, 3, 1)) == 0
    f = liability.fines(v, date(2026, 3, 1))
    assert f.computation is None and "delivery is not yet recorded" in f.message
    page = login("clerk").get(f"/enforcement/{v.pk}/").content.decode()
    assert "mailed by certified mail no. 7019 0001 on 2026-01-05, not yet delivered" in page
    # not served: no certificate of service is composed before delivery
    assert not liability.fines(v, date(2026, 3, 1)).accruing

    # the return receipt shows delivery on Fri 01-09: + 10 = Mon 01-19, Dr. Martin Luther
    # King, Jr. Day → Tue 01-20
    v = perform(
        v,
        "record_delivery",
        town.u("clerk"),
        {"delivered_on": "2026-01-09", "delivery_proof": "return_receipt"},
        at=at("2026-01-12", 9),
    )
    n.refresh_from_db()
    assert v.state == "served"
    assert (n.mailed_on, n.delivered_on, n.served_on) == (
        date(2026, 1, 5),
        date(2026, 1, 9),
        date(2026, 1, 9),
    )
    assert n.deadline == date(2026, 1, 20)
    assert "delivered on 2026-01-09 per return receipt" in n.service_text
    assert AuditEvent.objects.filter(action="record_delivery").count() == 2  # notice + violation
    page = login("clerk").get(f"/enforcement/{v.pk}/").content.decode()
    assert "delivered on 2026-01-09 per return receipt" in page
    letter = " ".join(text for _, text in compose(CERTIFICATE, n))
    assert "no. 7019 0001, on January 5, 2026" in letter
    assert "delivered on January 9, 2026, as shown by the return receipt" in letter
    assert "the end of Tuesday, January 20, 2026" in letter


def test_delivery_facts_are_checked_and_written_once(town: Town) -> None:
    v = mailed_notice(town, on="2026-01-05")
    before = AuditEvent.objects.count()
    with pytest.raises(InvalidInput) as e:
        perform(
            v,
            "record_delivery",
            town.u("clerk"),
            {"delivered_on": "2026-01-04", "delivery_proof": "return_receipt"},
            at=at("2026-01-12"),
        )
    assert "before it was mailed" in e.value.errors["delivered_on"][0]
    with pytest.raises(InvalidInput) as e:
        perform(
            v,
            "record_delivery",
            town.u("clerk"),
            {"delivered_on": "2026-01-20", "delivery_proof": "carrier_record"},
            at=at("2026-01-12"),
        )
    assert "in the future" in e.value.errors["delivered_on"][0]
    assert AuditEvent.objects.count() == before and Notice.objects.get().served_on is None
    v = perform(
        v,
        "record_delivery",
        town.u("clerk"),
        {"delivered_on": "2026-01-07", "delivery_proof": "carrier_record"},
        at=at("2026-01-12"),
    )
    with pytest.raises(TransitionNotAllowed):
        perform(
            v,
            "record_delivery",
            town.u("clerk"),
            {"delivered_on": "2026-01-08", "delivery_proof": "return_receipt"},
        )
    n = Notice.objects.get()
    n.delivered_on = date(2026, 1, 8)
    with pytest.raises(ImmutableRecord):
        n.save()


def test_personal_service_is_complete_on_delivery(town: Town) -> None:
    v = serve_in_person(issued(town), town, "2026-01-06")
    n = v.notices.get()
    # Tue 01-06 + 10 = Fri 01-16
    assert (n.served_on, n.delivered_on, n.mailed_on, n.deadline) == (
        date(2026, 1, 6),
        date(2026, 1, 6),
        None,
        date(2026, 1, 16),
    )
    assert n.service_text == "served by personal delivery on 2026-01-06"


def test_delivery_through_the_api(town: Town, login: Any, capsys: Any) -> None:
    v = mailed_notice(town, on="2026-01-05")
    clerk = login("clerk")
    base = f"/api/enforcement/violations/{v.pk}"
    body = clerk.get(f"{base}/").json()
    assert body["state"] == "mailed" and "not yet delivered" in body["notices"][0]["service_text"]
    assert "days" not in body["fines"]
    assert "record_delivery" in body["available_actions"]
    r = clerk.post(
        f"{base}/record-delivery/",
        {"delivered_on": "2026-01-09", "delivery_proof": "return_receipt"},
        content_type="application/json",
    )
    assert r.status_code == 200, r.json()
    notice = r.json()["notices"][0]
    assert (notice["served_on"], notice["delivered_on"], notice["deadline"]) == (
        "2026-01-09",
        "2026-01-09",
        "2026-01-20",
    )
    expected = cli_fines(capsys, "--served", "2026-01-09", "--as-of", "2026-01-22")
    office = liability.fines(Violation.objects.get(pk=v.pk), date(2026, 1, 22))
    # 01-21 and 01-22 after the deadline 01-20, at 350.00 → 700.00
    assert office.computation is not None and office.computation.days == expected["days"] == 2
    assert str(office.total) == expected["total"] == "700.00"


# --- the count: the office, the page, the API and the command agree ------------------------


def test_reported_in_time_verified_late_no_fine_anywhere(
    town: Town, login: Any, capsys: Any
) -> None:
    v = report_and_verify(served(town), town, reported="2026-01-10", verified="2026-01-25")
    c = v.corrections.get()
    assert (c.ceased_on, c.verified_on) == (date(2026, 1, 10), date(2026, 1, 25))
    expected = cli_fines(
        capsys, "--served", "2026-01-05", "--corrected", "2026-01-10", "--verified", "2026-01-25"
    )
    office = liability.fines(v, date(2026, 2, 1))
    assert office.computation is not None
    assert office.computation.days == expected["days"] == 0
    assert str(office.total) == expected["total"] == "0.00"
    api = login("superintendent").get(f"/api/enforcement/violations/{v.pk}/").json()["fines"]
    assert (api["days"], api["total"], api["verified"]) == (0, "0.00", "2026-01-25")


def test_ceased_day_found_on_inspection_bounds_the_fine(
    town: Town, login: Any, capsys: Any
) -> None:
    # reported 01-17, found on inspection 01-25 to have ceased on 01-18: 16th, 17th at 250.00
    # + 18th at 350.00 = 850.00; the seven days to the verification are not fined
    v = report_and_verify(
        overdue(town), town, reported="2026-01-17", verified="2026-01-25", ceased="2026-01-18"
    )
    expected = cli_fines(
        capsys, "--served", "2026-01-05", "--corrected", "2026-01-18", "--verified", "2026-01-25"
    )
    office = liability.fines(v, date(2026, 2, 1))
    assert office.computation is not None
    assert office.computation.days == expected["days"] == 3
    assert str(office.total) == expected["total"] == "850.00"
    page = login("superintendent").get(f"/enforcement/{v.pk}/").content.decode()
    assert "USD 850.00" in page and "ceased 2026-01-18, as found" in page


def test_a_ceased_day_after_the_verification_or_before_the_finding_is_refused(
    town: Town,
) -> None:
    v = overdue(town)
    v = perform(
        v,
        "report_correction",
        town.u("owner"),
        {"reported_on": "2026-01-17", "description": "fixed"},
        at=at("2026-01-17", 16),
    )
    for ceased, words in (("2026-01-26", "after the verification"), ("2026-01-01", "was found")):
        with pytest.raises(InvalidInput) as e:
            perform(
                v,
                "verify",
                town.u("inspector"),
                {"verified_on": "2026-01-25", "ceased_on": ceased},
                at=at("2026-01-25"),
            )
        assert words in e.value.errors["ceased_on"][0]
    assert v.corrections.get().verified_on is None


def test_a_later_order_suspends_the_count_on_every_surface(
    town: Town, login: Any, capsys: Any
) -> None:
    """Served 01-05 (deadline 01-15); the guide's second notice, issued and served in person
    Mon 02-02 stating 30 days (deadline Wed 03-04); ceased 03-10 as reported, verified 03-12.
    Counted: 01-16..02-02 (18) + 03-05..03-10 (6) = 24 days; 01-16, 01-17 at 250.00 and 22
    days at 350.00 = 500.00 + 7,700.00 = 8,200.00."""
    v = overdue(town)
    sup = town.u("superintendent")
    v = perform(
        v,
        "escalate",
        sup,
        {"nature": "Second notice: still over the limit", "period_days": 30},
        at=at("2026-02-02", 9),
    )
    v = serve_in_person(v, town, "2026-02-02")
    assert services.advance_clocks(date(2026, 3, 4)) == 0  # the order's own deadline day
    assert services.advance_clocks(date(2026, 3, 5)) == 1
    v.refresh_from_db()
    # while the order's period ran, the first 18 days stayed counted and no more accrued
    mid = liability.fines(v, date(2026, 3, 1))
    assert mid.computation is not None and mid.computation.days == 18
    v = report_and_verify(v, town, reported="2026-03-10", verified="2026-03-12")

    expected = cli_fines(
        capsys,
        "--served", "2026-01-05",
        "--later-notice", "2026-02-02:30",
        "--corrected", "2026-03-10",
        "--verified", "2026-03-12",
        "--as-of", "2026-03-20",
    )  # fmt: skip
    office = liability.fines(v, date(2026, 3, 20))
    assert office.computation is not None
    fc = office.computation.as_dict()
    assert fc["days"] == expected["days"] == 24
    assert fc["total"] == expected["total"] == "8200.00"
    assert fc["notices"] == expected["notices"] and fc["periods"] == expected["periods"]

    row = violation_summary(v, date(2026, 3, 20))
    assert (row["days_late"], row["fines_accrued"]) == (24, "8200.00")
    page = login("superintendent").get(f"/enforcement/{v.pk}/").content.decode()
    assert "USD 8200.00" in page
    assert "2026-02-03 to 2026-03-04 not counted" in page
    # the list's export carries the same columns as ``sewer-use violations``
    listing = login("superintendent").get("/enforcement/?format=csv").content.decode()
    assert "8200.00" in listing
    # the API and ``sewer-use violations`` count as of today; the violation ceased and was
    # verified long before, so today changes nothing
    api = login("superintendent").get(f"/api/enforcement/violations/{v.pk}/").json()["fines"]
    assert (api["days"], api["total"]) == (24, "8200.00")
    assert [n["served"] for n in api["notices"]] == ["2026-01-05", "2026-02-02"]
    main(["violations", "--format", "json"])
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert (rows[v.pk]["days_late"], rows[v.pk]["fines_accrued"]) == (24, "8200.00")


def test_a_superseding_notice_replaces_the_one_it_supersedes(town: Town, capsys: Any) -> None:
    # the first notice, delivered 01-05, is superseded on 01-07 (wrong address) and the new
    # notice served in person on Thu 01-08: + 10 = Sun 01-18 → Mon 01-19 (Dr. Martin Luther
    # King, Jr. Day) → Tue 01-20. As of 01-23: 21, 22, 23 at 350.00 = 1,050.00
    v = served(town)
    v = perform(
        v,
        "supersede_notice",
        town.u("superintendent"),
        {"reason": "wrong address"},
        reason="wrong address",
        at=at("2026-01-07"),
    )
    v = serve_in_person(v, town, "2026-01-08")
    expected = cli_fines(capsys, "--served", "2026-01-08", "--as-of", "2026-01-23")
    office = liability.fines(v, date(2026, 1, 23))
    assert office.computation is not None and office.computation.later == ()
    assert office.computation.deadline == date(2026, 1, 20)
    assert office.computation.days == expected["days"] == 3
    assert office.total == Decimal(expected["total"]) == Decimal("1050.00")


@pytest.mark.parametrize(
    ("served_on", "as_of", "deadline", "days"),
    [
        # Sat 2028-02-05 + 10 = Tue 02-15, Susan B. Anthony Day (not in § 24): not moved
        ("2028-02-05", "2028-02-16", "2028-02-15", 1),
        # Wed 2027-12-15 + 10 = Sat 12-25, Christmas → Sun → Mon 12-27 (Fri 12-24 no holiday)
        ("2027-12-15", "2027-12-28", "2027-12-27", 1),
        # Sat 2026-10-24 + 10 = Tue 11-03, general election day → Wed 11-04
        ("2026-10-24", "2026-11-05", "2026-11-04", 1),
    ],
)
def test_the_office_deadline_follows_section_24(
    town: Town, capsys: Any, served_on: str, as_of: str, deadline: str, days: int
) -> None:
    v = serve_in_person(issued(town), town, served_on)
    n = v.notices.get()
    expected = cli_fines(capsys, "--served", served_on, "--as-of", as_of)
    assert n.deadline is not None
    assert n.deadline.isoformat() == expected["deadline"] == deadline
    office = liability.fines(v, date.fromisoformat(as_of))
    assert office.computation is not None and office.computation.days == expected["days"] == days


def test_the_dashboard_lists_a_mailed_notice_for_its_delivery(town: Town, login: Any) -> None:
    v = mailed_notice(town, on="2026-01-05")
    body = login("clerk").get("/").content.decode()
    card = body.split('id="notices-to-serve"')[1].split("</section>")[0]
    assert f"VIOL-{v.pk}" in card and "mailed 2026-01-05, not yet delivered" in card
    assert "#action-record_delivery" in card
