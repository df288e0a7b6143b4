"""The demo town's enforcement: a violation at every stage after ``load_demo``, made through the
services (each step has its audit event), and the pages that show them."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.test import Client


def test_demo_town_has_a_violation_at_every_stage(load_demo: Any) -> None:
    from sewer_office.core.models import AuditEvent
    from sewer_office.enforcement import liability
    from sewer_office.enforcement.models import Correction, Cost, Notice, Referral, Violation

    anchor = date(2026, 3, 2)
    load_demo(anchor=anchor)
    states = set(Violation.objects.values_list("state", flat=True))
    assert states == {
        "open",
        "notice_issued",
        "mailed",
        "served",
        "fines_accruing",
        "referred",
        "corrected",
    }
    # mailed by certified mail the day before, its return receipt not back: no clock yet
    mailed = Notice.objects.get(violation__state="mailed")
    assert (mailed.mailed_on, mailed.served_on, mailed.deadline) == (
        anchor - timedelta(days=1),
        None,
        None,
    )
    assert "delivery is not yet recorded" in liability.fines(mailed.violation, anchor).message
    # a notice issued and not yet served (the clerk's "notices to serve")
    assert Notice.objects.filter(served_on__isnull=True, violation__state="notice_issued").exists()
    # served, its deadline within the week after the anchor
    week = Notice.objects.filter(
        violation__state="served", deadline__gte=anchor, deadline__lte=anchor + timedelta(7)
    )
    assert week.exists()
    # deadline passed, fines accruing as of the anchor, the Town's costs recorded
    accruing = Violation.objects.get(state="fines_accruing")
    f = liability.fines(accruing, anchor)
    assert f.accruing and f.total and f.total > 0
    assert {c.category for c in accruing.costs.all()} == {"laboratory", "staff_hours"}
    # corrected in time and verified: no fine; and one corrected late across the amount change
    corrected = list(Violation.objects.filter(state="corrected"))
    fines = {v.pk: liability.fines(v, anchor) for v in corrected}
    assert any(x.computation and x.computation.days == 0 for x in fines.values())
    spanning = [x for x in fines.values() if x.computation and len(x.computation.segments) == 2]
    assert len(spanning) == 1
    segments = spanning[0].computation.segments  # type: ignore[union-attr]
    assert [s.daily_amount.value for s in segments] == [Decimal("250.00"), Decimal("350.00")]
    assert segments[1].first_day == date(2026, 1, 18)
    assert all(c.verified_on for v in corrected for c in v.corrections.all())
    # a correction rejected, the clock still running
    rejected = Correction.objects.get(rejected_on__isnull=False)
    assert rejected.violation.state == "served"
    # escalated along the guide: notice, second notice, administrative order
    escalated = Violation.objects.get(notices__response="second_notice")
    assert [n.response for n in escalated.notices.all()] == [
        "notice_of_violation",
        "second_notice",
        "administrative_order",
    ]
    # each later notice suspends the count through its own deadline (by hand, anchor Mon
    # 2026-03-02): the first notice mailed Thu 01-22, delivered Fri 01-23 (+10 = Mon 02-02);
    # the second notice served Wed 02-04 (+10 = Sat 02-14 → Mon 02-16, Washington's Birthday →
    # Tue 02-17); the order served Wed 02-18 stating 30 days (Fri 03-20). Counted: 02-03,
    # 02-04 and 02-18 = 3 days at 350.00, and none while the order's period runs.
    first = escalated.notices.get(response="notice_of_violation")
    assert (first.mailed_on, first.served_on) == (date(2026, 1, 22), date(2026, 1, 23))
    count = liability.fines(escalated, anchor).computation
    assert count is not None and count.state == "within_correction_period"
    assert [(p.first, p.last) for p in count.spans] == [
        (date(2026, 2, 3), date(2026, 2, 4)),
        (date(2026, 2, 18), date(2026, 2, 18)),
    ]
    assert count.days == 3 and count.total == Decimal("1050.00")
    # § 196-20: referred for arrest at once, no notice, repair costs recorded
    arrest = Referral.objects.get(kind="arrest")
    assert arrest.violation.section == "§ 196-20" and not arrest.violation.notices.exists()
    assert Cost.objects.filter(violation=arrest.violation, category="repairs").exists()
    # every step through the services: each state change has its audit event
    for action in (
        "open_violation",
        "issue_notice",
        "serve",
        "record_delivery",
        "deadline_passed",
        "report_correction",
        "verify",
        "reject_correction",
        "escalate",
        "refer",
        "record_cost",
    ):
        assert AuditEvent.objects.filter(action=action).exists(), action
    # Acme's representative sees its own violations once noticed, and its notice letter
    acme = Client()
    assert acme.login(username="acme", password="demo")
    mine = {r["id"] for r in acme.get("/api/enforcement/violations/").json()["results"]}
    acme_ids = set(
        Violation.objects.filter(establishment__name="Acme Plating Corporation")
        .exclude(state__in=("open", "dismissed"))
        .values_list("id", flat=True)
    )
    assert mine == acme_ids and len(mine) >= 3
    letter = Notice.objects.filter(violation__in=mine).first()
    assert letter is not None
    r = acme.get(f"/enforcement/notices/{letter.pk}.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    su = Client()
    assert su.login(username="superintendent", password="demo")
    body = su.get("/enforcement/").content.decode()
    assert "Deadline passed uncorrected — fines accruing" in body
