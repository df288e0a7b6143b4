"""The later steps of a member town's own ladder in the office: after its notice goes
unanswered, the Town of Poughkeepsie's administrative order ([ecode360 6322621] B(1)) — a period
the order states, counted from its receipt, after which sewer service may be discontinued — and
the user's petition to the Town Engineer within 15 calendar days of receipt (B(2)), recorded
with its window and decided once. Derived by hand:

- the notice mailed Sunday 2026-11-01 was due Thursday 2026-11-12 (Veterans' Day moved it);
- the order, stating 30 days, is delivered by certified mail on Thursday 2026-11-19: thirty
  calendar days end on Saturday 2026-12-19, so it is due Monday 2026-12-21 (GCL § 25-a);
- its petition window: fifteen calendar days from 2026-11-19 end on Friday 2026-12-04.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.letters import compose
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.enforcement import petitions, services
from sewer_office.enforcement.letters import NOTICE, is_order
from sewer_office.enforcement.models import Petition, Violation
from sewer_office.enforcement.notify import notice_served
from sewer_office.enforcement.reminders import deadlines

from .enforcement_factories import at, overdue
from .enforcement_factories import served as served_in_home_town
from .factories import PASSWORD, Town
from .test_town_own_law_enforcement import _mailed

pytestmark = pytest.mark.django_db

ORDER_SECTION = "T. Poughkeepsie Code [ecode360 6322621] B(1)"
PETITION_SECTION = "T. Poughkeepsie Code [ecode360 6322621] B(2)"


def _unanswered(town: Town) -> Violation:
    v = _mailed(town)  # due 2026-11-12
    assert services.advance_clocks(date(2026, 11, 13)) == 1
    v.refresh_from_db()
    passed = AuditEvent.objects.filter(action="deadline_passed").latest("id")
    assert passed.citation == "T. Poughkeepsie Code [ecode360 6322621] A"  # its notice's
    return v


def _ordered(town: Town, days: str = "30") -> Violation:
    return perform(
        _unanswered(town),
        "escalate",
        town.u("superintendent"),
        {"nature": "LEL over 40 % not explained", "period_days": days, "referred_to": ""},
        at=at("2026-11-16", 9),
    )


def _received(town: Town) -> Violation:
    v = _ordered(town)
    v = perform(
        v,
        "serve",
        town.u("oclerk"),
        {"served_on": "2026-11-17", "service_method": "certified_mail", "receipt_number": "9"},
        at=at("2026-11-17", 15),
    )
    assert v.state == "mailed"  # the order runs from its receipt: its delivery is awaited
    return perform(
        v,
        "record_delivery",
        town.u("oclerk"),
        {"delivered_on": "2026-11-19", "delivery_proof": "return_receipt"},
        at=at("2026-11-20", 9),
    )


def test_escalating_issues_its_administrative_order_for_the_period_it_states(
    two_towns: Town,
) -> None:
    v = _ordered(two_towns)
    assert v.state == "notice_issued"
    order = v.notices.order_by("id").last()
    assert order is not None
    assert (order.response, order.citation, order.period_days) == (
        "administrative_order",
        ORDER_SECTION,
        30,
    )
    assert order.daily_amount is None  # its package states no fine
    assert not is_order(order)  # a step of the town's ladder, in its words (not § 196-22 A's)
    assert AuditEvent.objects.filter(action="escalate").latest("id").citation == ORDER_SECTION
    text = " ".join(str(t) for _, t in compose(NOTICE, order))
    assert f"Order is hereby given under {ORDER_SECTION}" in text
    assert "Within 30 calendar days of your receipt of this order, you shall comply" in text
    assert "sewer service to the premises may be discontinued" in text
    assert (
        "petition the Town Engineer in writing to modify or suspend this order within 15 "
        f"calendar days of your receipt of this order ({PETITION_SECTION})"
    ) in text
    assert "§ 196-22" not in text


def test_an_order_must_state_its_period(two_towns: Town) -> None:
    with pytest.raises(InvalidInput) as e:
        _ordered(two_towns, days="")
    assert "the period the order states" in str(e.value.errors["period_days"])


def test_its_period_runs_from_receipt_and_its_petition_window_too(two_towns: Town) -> None:
    v = _received(two_towns)
    order = v.notices.order_by("id").last()
    assert order is not None and v.state == "served"
    assert (order.nominal_deadline, order.deadline) == (date(2026, 12, 19), date(2026, 12, 21))
    assert order.deadline_basis["counted_from"] == "receipt"
    assert order.deadline_basis["citation"] == ORDER_SECTION
    w = petitions.window(v)
    assert w is not None
    assert (w.received, w.due, w.days, w.to, w.citation) == (
        date(2026, 11, 19),
        date(2026, 12, 4),
        15,
        "Town Engineer",
        PETITION_SECTION,
    )
    assert services.advance_clocks(date(2026, 12, 21)) == 0  # its last day runs to its end
    assert services.advance_clocks(date(2026, 12, 22)) == 1
    v.refresh_from_db()
    with pytest.raises(Blocked, match="names no further step after Administrative"):
        perform(v, "escalate", two_towns.u("superintendent"), {"period_days": "10"})


def test_a_petition_is_recorded_with_its_window_and_decided_once(two_towns: Town) -> None:
    v = _received(two_towns)
    clerk, superintendent = two_towns.u("oclerk"), two_towns.u("superintendent")
    with pytest.raises(InvalidInput, match="was received on 2026-11-19"):
        petitions.record_petition(
            v, clerk, asks="suspend", grounds="x", received_on=date(2026, 11, 18)
        )
    p = petitions.record_petition(
        v,
        clerk,
        asks="modify",
        grounds="Asks 60 days to install a flame arrester",
        received_on=date(2026, 12, 4),
        at=at("2026-12-04", 16),
    )
    assert (p.timely, p.due_on, p.citation) == (True, date(2026, 12, 4), PETITION_SECTION)
    assert p.window["counted_from"] == "receipt"
    event = AuditEvent.objects.filter(action="record_petition").latest("id")
    assert event.citation == PETITION_SECTION
    with pytest.raises(InvalidInput, match="already recorded"):
        petitions.record_petition(
            v, clerk, asks="modify", grounds="again", received_on=date(2026, 12, 4)
        )
    with pytest.raises(Forbidden):
        petitions.decide_petition(
            p, clerk, decision="denied", decided_on=date(2026, 12, 5), note="n"
        )
    decided = petitions.decide_petition(
        p,
        superintendent,
        decision="denied",
        decided_on=date(2026, 12, 6),
        note="No plan submitted with it",
        at=at("2026-12-06", 10),
    )
    assert decided.decision == "denied" and not decided.pending
    with pytest.raises(Blocked, match="was decided on 2026-12-06"):
        petitions.decide_petition(
            p, superintendent, decision="modified", decided_on=date(2026, 12, 6), note="n"
        )
    with pytest.raises(ImmutableRecord, match="never deleted"):
        Petition.objects.get(pk=p.pk).delete()
    stored = Petition.objects.get(pk=p.pk)
    stored.grounds = "changed"
    with pytest.raises(ImmutableRecord, match="never edited"):
        stored.save()


def test_a_petition_after_its_window_is_recorded_as_late(two_towns: Town) -> None:
    v = _received(two_towns)
    p = petitions.record_petition(
        v,
        two_towns.u("oclerk"),
        asks="suspend",
        grounds="Plant closed for repairs",
        received_on=date(2026, 12, 5),
        at=at("2026-12-07"),
    )
    assert not p.timely and p.due_on == date(2026, 12, 4)


def test_no_petition_without_an_order_that_allows_one_nor_by_another_towns_clerk(
    two_towns: Town,
) -> None:
    with pytest.raises(Blocked, match="No order on this violation allows a petition"):
        petitions.record_petition(
            _ordered(two_towns),  # issued, not yet received
            two_towns.u("oclerk"),
            asks="modify",
            grounds="x",
            received_on=date(2026, 11, 20),
        )
    home = served_in_home_town(two_towns)  # a § 196-22 A notice: no petition in that law
    with pytest.raises(Blocked):
        petitions.record_petition(
            home, two_towns.u("hclerk"), asks="modify", grounds="x", received_on=home.observed_on
        )


def test_a_home_town_clerk_cannot_record_one(two_towns: Town) -> None:
    v = _received(two_towns)
    with pytest.raises(Forbidden, match="a town you do not act for"):
        petitions.record_petition(
            v, two_towns.u("hclerk"), asks="modify", grounds="x", received_on=date(2026, 11, 20)
        )


def test_its_page_names_the_order_step_then_records_and_decides_the_petition(
    two_towns: Town,
) -> None:
    c = Client()
    assert c.login(username="superintendent", password=PASSWORD)
    v = _unanswered(two_towns)
    body = c.get(f"/enforcement/{v.pk}/").content.decode()
    escalate = body[body.index('id="action-escalate"') :]
    escalate = escalate[: escalate.index("</details>")]
    assert "Issue the next step: Administrative or compliance order" in escalate
    assert ORDER_SECTION in escalate and "§ 196-22" not in escalate
    assert "the period the order states, in calendar days of your receipt of this order" in (
        escalate
    )
    v = _received(two_towns)
    body = c.get(f"/enforcement/{v.pk}/").content.decode()
    assert 'id="petition-window"' in body and "Friday, 2026-12-04" in body
    assert "Record the compliance" in body  # the answer the order demands
    r = c.post(
        f"/enforcement/{v.pk}/petitions/",
        {"asks": "modify", "grounds": "More time", "received_on": "2026-12-01"},
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    p = Petition.objects.get(violation=v)
    assert 'id="record-petition"' not in c.get(f"/enforcement/{v.pk}/").content.decode()
    r = c.post(f"/enforcement/petitions/{p.pk}/decision/", {"decision": "suspended"})
    assert r.status_code == 400 and "This field is required" in r.content.decode()
    r = c.post(
        f"/enforcement/petitions/{p.pk}/decision/",
        {"decision": "suspended", "decided_on": "2026-12-02", "note": "Repairs under way"},
    )
    assert r.status_code == 302
    p.refresh_from_db()
    assert p.decision == "suspended" and p.decided_by == two_towns.u("superintendent")
    # a clerk of the home town does not see the violation, so neither its petitions
    assert c.login(username="hclerk", password=PASSWORD)
    assert c.post(f"/enforcement/petitions/{p.pk}/decision/", {}).status_code in (403, 404)


def test_its_reminders_say_what_its_law_demands(two_towns: Town) -> None:
    """The e-mail telling of the notice's service and the reminder three days before its
    deadline say what the town's law demands, to whom and what it says of fines — not
    § 196-22's correction and fine; the order's say it may end service."""
    v = _mailed(two_towns)  # mailed 2026-11-01, due 2026-11-12
    notice = v.notices.get()
    served = notice_served(notice)
    assert (
        "Submit an explanation of the violation and a plan for its correction and prevention "
        "by 2026-11-12, to the Managing operator (T. Poughkeepsie Code [ecode360 6322621] A)."
    ) in served.body
    assert "Correct it by" not in served.body
    [due] = list(deadlines(date(2026, 11, 9)))
    assert due.subject == f"{notice.number}: explanation and plan due by 2026-11-12"
    assert "to the Managing operator" in due.body and "penalty provisions" in due.body
    assert "§ 196-22" not in due.subject + due.body
    # the home town's notice keeps the article's words
    home = served_in_home_town(two_towns).notices.get()
    assert "Correct it by" in notice_served(home).body


def test_its_orders_reminder_says_it_may_end_service(two_towns: Town) -> None:
    v = _received(two_towns)  # the order, due 2026-12-21
    order = v.notices.order_by("id").last()
    assert order is not None
    [due] = [d for d in deadlines(date(2026, 12, 18)) if d.about == order]
    assert due.subject == f"{order.number}: compliance due by 2026-12-21"
    assert "sewer service to the premises may be discontinued" in due.body
    assert "Comply with the order by 2026-12-21, to the Town Engineer" in notice_served(order).body


def test_an_order_is_superseded_by_an_order_of_its_law(two_towns: Town) -> None:
    """A modified order (a petition granted) is a new order superseding it: the same step of
    the town's ladder, for the period the new order states."""
    v = _received(two_towns)
    v = perform(
        v,
        "supersede_notice",
        two_towns.u("superintendent"),
        {"nature": "LEL over 40 %: 60 days to install a flame arrester", "period_days": "60"},
        reason="Petition granted: more time",
        at=at("2026-12-07", 9),
    )
    new = v.notices.order_by("id").last()
    assert new is not None
    assert (new.response, new.citation, new.period_days) == (
        "administrative_order",
        ORDER_SECTION,
        60,
    )
    assert new.supersedes is not None and new.supersedes.response == "administrative_order"


def test_past_its_deadline_it_is_not_said_to_accrue_fines(two_towns: Town) -> None:
    """Its law states no fine: the state past the deadline is named so, on its page and in
    the list; the home town's keeps the article's "fines accruing"."""
    v = _unanswered(two_towns)
    assert v.state == "fines_accruing"
    assert v.state_label == "Deadline passed unanswered (no fine stated under its law)"
    c = Client()
    assert c.login(username="superintendent", password=PASSWORD)
    assert v.state_label in c.get(f"/enforcement/{v.pk}/").content.decode()
    assert v.state_label in c.get("/enforcement/").content.decode()
    home = overdue(two_towns)
    assert home.state_label == "Deadline passed uncorrected — fines accruing"
