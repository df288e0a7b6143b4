"""``sewer-use send-reminders``: each reminder and notification through a real SMTP server on
127.0.0.1, exactly once across any number of daily runs (a property test over due dates and
clock times), the latest stage only after missed runs, preferences withholding the optional
topics but never a legal notice, users without an address counted, the dry run recording
nothing, and the command's summary and exit status."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.core import mail as django_mail
from django.db import connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_cli.main import main
from sewer_office.billing import charges, invoices
from sewer_office.core import protection
from sewer_office.core.services import perform
from sewer_office.grease import installations
from sewer_office.grease import services as grease
from sewer_office.grease.choices import InterceptorKind
from sewer_office.mail.choices import MessageStatus, Topic
from sewer_office.mail.models import SentMessage
from sewer_office.mail.services import set_preferences
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.models import ReportDue
from sewer_office.pretreatment.reminders import REPORT_LEADS
from sewer_office.registry.reminders import EVENT_DAYS, stage
from sewer_office.reminders import services

from .billing_money_factories import invoice
from .enforcement_factories import at, issued, reported, served
from .factories import Town, new_record
from .monitoring_factories import facilities
from .pretreatment_factories import chronic_copper, sup
from .smtp_support import Inbox, free_port

DUE = date(2026, 3, 31)


def with_address(town: Town, name: str = "owner") -> Any:
    user = town.u(name)
    user.email = f"{name}@example.org"
    user.save(update_fields=["email"])
    return user


def report_due(town: Town, first_due: date = DUE) -> ReportDue:
    f = chronic_copper(town)
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="periodic", first_due=first_due, every_months=6,
        at=at("2026-01-02"),
    )  # fmt: skip
    return ReportDue.objects.filter(requirement=req).order_by("due_on").first()  # type: ignore[return-value]


def subjects(smtp: Inbox) -> list[str]:
    return [m.subject for m in smtp.messages]


def test_report_reminders_30_and_7_days_before_each_once(town: Town, smtp: Inbox) -> None:
    with_address(town)
    due = report_due(town)
    assert services.run(date(2026, 2, 28)).total("sent") == 0  # 31 days before
    first = services.run(date(2026, 3, 1))
    assert first.count(Topic.REPORT_DUE, "sent") == 1
    [got] = smtp.messages
    assert got.rcpt_tos == ["owner@example.org"]
    assert "due on 2026-03-31" in got.subject and "in 30 day(s)" in got.body
    assert "40 CFR 403.12(e)" in got.body or "403.12" in got.body
    again = services.run(date(2026, 3, 1))
    assert again.count(Topic.REPORT_DUE, "already sent") == 1 and len(smtp.messages) == 1
    services.run(date(2026, 3, 10))  # still the 30-day stage: nothing new
    services.run(date(2026, 3, 24))
    assert len(smtp.messages) == 2 and "in 7 day(s)" in smtp.messages[1].body
    services.run(date(2026, 4, 1))  # the date has passed: the office's findings take over
    assert len(smtp.messages) == 2
    stored = SentMessage.objects.filter(topic=Topic.REPORT_DUE).order_by("id")
    assert [m.key for m in stored] == [
        f"report_due:{due.pk}:2026-03-31:30:u{town.u('owner').pk}",
        f"report_due:{due.pk}:2026-03-31:7:u{town.u('owner').pk}",
    ]
    assert {m.about for m in stored} == {due}


def test_a_received_report_is_not_reminded(town: Town, smtp: Inbox) -> None:
    with_address(town)
    due = report_due(town)
    report_dues.record_received(town.u("clerk"), due, date(2026, 2, 20), at=at("2026-02-20"))
    services.run(date(2026, 3, 24))
    assert smtp.messages == []


def test_missed_runs_send_the_latest_stage_only(town: Town, smtp: Inbox) -> None:
    with_address(town)
    report_due(town)
    services.run(date(2026, 3, 26))  # cron did not run for the 30-day reminder
    assert len(smtp.messages) == 1 and "in 5 day(s)" in smtp.messages[0].body


def test_notice_served_and_its_deadline_are_legal_notices(town: Town, smtp: Inbox) -> None:
    with_address(town)
    # the owner turns off everything optional: legal notices still come
    set_preferences(town.u("owner"), dict.fromkeys(["report_due", "invoice_issued"], False))
    v = served(town, on="2026-01-05")
    notice = v.notices.get()
    assert notice.deadline is not None
    services.run(date(2026, 1, 5))
    [got] = smtp.messages
    assert got.subject.startswith(f"{notice.number}:") and "served on 2026-01-05" in got.subject
    assert "§ 196-22" in got.body
    services.run(notice.deadline - timedelta(days=4))
    assert len(smtp.messages) == 1
    services.run(notice.deadline - timedelta(days=3))
    services.run(notice.deadline)
    assert len(smtp.messages) == 2
    assert f"due by {notice.deadline:%Y-%m-%d}" in smtp.messages[1].subject
    assert all(m.legal for m in SentMessage.objects.all())


def test_correction_verified_and_application_changes(town: Town, smtp: Inbox) -> None:
    with_address(town)
    v = reported(town, on="2026-01-19")
    perform(
        v, "verify", town.u("superintendent"), {"verified_on": "2026-01-20"}, at=at("2026-01-20")
    )
    tally = services.run(date(2026, 1, 20))
    assert tally.count(Topic.CORRECTION_VERIFIED, "sent") == 1
    assert any(s.startswith("Correction verified") for s in subjects(smtp))
    permit = new_record("building-sewer", town)
    n = len(smtp.messages)
    today = timezone.localdate()
    # the filing itself (by the clerk, at the counter) is no change of state to announce
    assert services.run(today).count(Topic.APPLICATION, "sent") == 0
    perform(permit, "reject", town.u("engineer"), {}, reason="Plans are missing")
    services.run(today)
    assert len(smtp.messages) == n + 1
    got = smtp.messages[-1]
    assert got.subject == f"Building sewer permit {permit}: rejected"
    assert "from submitted to rejected" in got.body and "Plans are missing" in got.body
    services.run(today)
    assert len(smtp.messages) == n + 1


def test_invoices_issued_and_overdue_and_preferences(town: Town, smtp: Inbox) -> None:
    with_address(town)
    person = town.owner_person
    assert person is not None
    inv = invoice(town, person, "120.00", issued_on=date(2026, 4, 1), due_on=date(2026, 5, 1))
    services.run(date(2026, 4, 2))
    assert subjects(smtp) == [f"Invoice {inv.number} issued: USD 120.00"]
    services.run(date(2026, 5, 1))  # due today: not yet overdue
    assert len(smtp.messages) == 1
    set_preferences(town.u("owner"), {"invoice_overdue": False})
    tally = services.run(date(2026, 5, 2))
    assert tally.count(Topic.INVOICE_OVERDUE, "not wanted") == 1 and len(smtp.messages) == 1
    withheld = SentMessage.objects.get(topic=Topic.INVOICE_OVERDUE)
    assert withheld.status == MessageStatus.WITHHELD
    # withheld once is decided once: turning the topic on again does not send the old one
    set_preferences(town.u("owner"), {"invoice_overdue": True})
    services.run(date(2026, 5, 3))
    assert len(smtp.messages) == 1


def test_users_without_address_are_counted_and_dry_run_records_nothing(
    town: Town, smtp: Inbox
) -> None:
    report_due(town)
    tally = services.run(date(2026, 3, 1))
    assert tally.count(Topic.REPORT_DUE, "no e-mail address") == 1 and smtp.messages == []
    with_address(town)
    dry = services.run(date(2026, 3, 1), dry_run=True)
    assert dry.count(Topic.REPORT_DUE, "sent") == 1
    assert smtp.messages == [] and not SentMessage.objects.exists()


def test_the_command_prints_its_tally(
    town: Town, smtp: Inbox, capsys: pytest.CaptureFixture[str]
) -> None:
    with_address(town)
    report_due(town)
    assert main(["send-reminders", "--on", "2026-03-01", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "Reminders of 2026-03-01: 1 would be sent (dry run: nothing sent)" in out
    assert main(["send-reminders", "--on", "2026-03-01"]) == 0
    out = capsys.readouterr().out
    assert "1 sent" in out and "report_due" in out and len(smtp.messages) == 1
    # a refused message fails the run (exit 1) and is tried again by the next
    smtp.refuse = "554 5.7.1 refused"
    person = town.owner_person
    assert person is not None
    invoice(town, person, "80.00", issued_on=date(2026, 3, 1), due_on=date(2026, 3, 31))
    assert main(["send-reminders", "--on", "2026-03-01"]) == 1
    assert "1 failed" in capsys.readouterr().out
    smtp.refuse = ""
    assert main(["send-reminders", "--on", "2026-03-01"]) == 0
    assert len(smtp.messages) == 2


def test_stage_is_the_latest_lead_reached_until_the_date() -> None:
    d = date(2026, 3, 31)
    assert stage(d, date(2026, 2, 28), REPORT_LEADS) is None
    assert stage(d, date(2026, 3, 1), REPORT_LEADS) == 30
    assert stage(d, date(2026, 3, 23), REPORT_LEADS) == 30
    assert stage(d, date(2026, 3, 24), REPORT_LEADS) == 7
    assert stage(d, d, REPORT_LEADS) == 7
    assert stage(d, date(2026, 4, 1), REPORT_LEADS) is None


#: Runs as UTC instants over ten weeks around the due date (any clock time, twice a day or
#: with days missed); each run's day is the town's date of that instant, as the command's.
RUNS = st.lists(st.integers(min_value=0, max_value=70 * 24 * 60 - 1), min_size=1, max_size=25).map(
    sorted
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(due_offset=st.integers(min_value=0, max_value=40), minutes=RUNS)
def test_each_reminder_goes_out_exactly_once_across_daily_runs(
    town: Town, settings_django: Any, due_offset: int, minutes: list[int]
) -> None:
    with_address(town)
    if not ReportDue.objects.exists():
        report_due(town, first_due=date(2026, 2, 15))
    due = ReportDue.objects.order_by("due_on").first()
    assert due is not None
    due_on = date(2026, 2, 15)
    with protection.suspended(connection, "mail.SentMessage"):  # each example starts afresh
        SentMessage.objects.all().delete()
    django_mail.outbox = []
    start = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=due_offset - 20)
    days = [timezone.localdate(start + timedelta(minutes=m)) for m in minutes]
    for day in days:
        services.run(day)
    stages = {stage(due_on, day, REPORT_LEADS) for day in days} - {None}
    sent = [m for m in django_mail.outbox if "due on 2026-02-15" in m.subject]
    keys = list(
        SentMessage.objects.filter(topic=Topic.REPORT_DUE, status=MessageStatus.SENT).values_list(
            "key", flat=True
        )
    )
    assert len(sent) == len(stages) == len(keys) == len(set(keys))
    assert {int(k.split(":")[3]) for k in keys} == stages


@pytest.fixture
def settings_django(settings: Any) -> Any:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return settings


# --- events told as they happen (after the commit), the daily run catching up ---------------


def serve_now(town: Town, v: Any) -> Any:
    """Record service today through ``perform`` as the pages do (no back-dating): personal
    service, complete on the day (certified mail would be served only on its delivery)."""
    return perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": str(timezone.localdate()), "service_method": "personal"},
    )


def test_a_notice_served_is_told_at_once_and_the_daily_run_sends_it_no_more(
    town: Town, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with_address(town)
    set_preferences(town.u("owner"), {"report_due": False})  # optional topics: no bearing
    v = issued(town)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        serve_now(town, v)
        assert smtp.messages == []  # not before the commit
    assert len(callbacks) == 1
    [got] = smtp.messages
    notice = v.notices.get()
    assert got.rcpt_tos == ["owner@example.org"] and got.subject.startswith(notice.number)
    stored = SentMessage.objects.get()
    assert stored.legal and stored.key == f"notice_served:{notice.pk}:u{town.u('owner').pk}"
    assert stored.about == notice
    tally = services.run(timezone.localdate())
    assert tally.count(Topic.NOTICE_SERVED, "already sent") == 1
    assert len(smtp.messages) == 1


def test_a_rolled_back_transition_sends_and_records_nothing(
    town: Town, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with_address(town)
    v = issued(town)

    def serve_then_fail() -> None:
        with transaction.atomic():
            serve_now(town, v)
            raise RuntimeError("the request failed after the transition")

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError, match="request failed"),
    ):
        serve_then_fail()
    assert callbacks == [] and smtp.messages == [] and not SentMessage.objects.exists()
    v.refresh_from_db()
    assert v.state == "notice_issued"


def test_a_server_down_at_the_moment_is_caught_up_by_the_daily_run(
    town: Town, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with_address(town)
    v = issued(town)
    smtp.refuse = "451 4.3.0 try again later"
    with django_capture_on_commit_callbacks(execute=True):
        serve_now(town, v)  # the service of the notice stands whatever the mail does
    v.refresh_from_db()
    assert v.state == "served"
    assert SentMessage.objects.get().status == MessageStatus.FAILED and smtp.messages == []
    smtp.refuse = ""
    for _ in range(3):
        services.run(timezone.localdate())
    assert len(smtp.messages) == 1
    assert SentMessage.objects.filter(status=MessageStatus.SENT).count() == 1


def test_a_correction_verified_is_told_at_once(
    town: Town, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with_address(town)
    v = reported(town)
    with django_capture_on_commit_callbacks(execute=True):
        perform(v, "verify", town.u("superintendent"), {"verified_on": str(timezone.localdate())})
    [got] = smtp.messages
    assert got.subject.startswith("Correction verified") and "§ 196-22 B" in got.body
    assert services.run(timezone.localdate()).count(Topic.CORRECTION_VERIFIED, "sent") == 0
    assert len(smtp.messages) == 1


def test_an_applications_change_is_told_to_the_applicant_not_to_who_made_it(
    town: Town, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with_address(town)
    with django_capture_on_commit_callbacks(execute=True):
        permit = new_record("building-sewer", town)  # the filing: nothing to tell
    assert smtp.messages == []
    with django_capture_on_commit_callbacks(execute=True):
        perform(permit, "reject", town.u("engineer"), {}, reason="Plans are missing")
    [got] = smtp.messages
    assert got.subject == f"Building sewer permit {permit}: rejected"
    assert "Plans are missing" in got.body
    # the owner withdraws its own application: it is not told of what it did itself
    other = new_record("building-sewer", town)
    with django_capture_on_commit_callbacks(execute=True):
        perform(other, "withdraw", town.u("owner"), {}, reason="Not building this year")
    assert len(smtp.messages) == 1
    services.run(timezone.localdate())
    assert len(smtp.messages) == 1  # neither the reject again nor the owner's own withdrawal


def test_an_invoice_issued_is_told_at_once_and_a_credit_note_too(
    town: Town, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with_address(town)
    clerk = town.u("clerk")
    person = town.owner_person
    assert person is not None
    day = date(2026, 3, 2)
    with django_capture_on_commit_callbacks(execute=True):
        c = charges.article_copies(person, 1, day, clerk)
        inv = invoices.issue_invoice(person, [c], clerk, day)
    [got] = smtp.messages
    assert got.subject == f"Invoice {inv.number} issued: USD {inv.total}"
    with django_capture_on_commit_callbacks(execute=True):
        note = invoices.credit_note(inv, clerk, "Copies not collected", issued_on=day)
    assert smtp.messages[-1].subject.startswith(f"Credit note {note.number} issued")
    services.run(day)
    assert len(smtp.messages) == 2


def test_the_message_log_is_in_the_openapi_schema(town: Town, login: Any) -> None:
    schema = login("clerk").get("/api/schema/?format=json").json()
    assert "/api/mail/messages/" in schema["paths"]
    assert "/api/mail/messages/{id}/" in schema["paths"]
    assert set(schema["paths"]["/api/mail/messages/"]) == {"get"}


def test_sampling_due_from_seven_days_before_once(town: Town, smtp: Inbox) -> None:
    with_address(town)
    f = facilities(town)
    point = f.my_point
    point.sampling_interval_days = 30
    point.save(update_fields=["sampling_interval_days"])
    SamplingEvent.objects.create(
        establishment=f.mine,
        sampling_point=point,
        sample_id="S-1",
        sample_type="composite",
        collected_at=at("2026-02-01", 9),
    )  # the next sample is due by 2026-03-03
    assert services.run(date(2026, 2, 23)).count(Topic.SAMPLING_DUE, "sent") == 0
    for day in (date(2026, 2, 24), date(2026, 2, 24), date(2026, 3, 1), date(2026, 3, 3)):
        services.run(day)
    [got] = smtp.messages
    assert got.subject == "Sampling due by 2026-03-03 at Olive's Diner (CM-1)"
    assert "§ 196-19 D(7)" in got.body and "every 30 days" in got.body
    services.run(date(2026, 3, 4))  # passed: the office's findings take over
    assert len(smtp.messages) == 1


def test_pumpout_due_from_fourteen_days_before_once(town: Town, smtp: Inbox) -> None:
    with_address(town)
    su = town.u("superintendent")
    trap = installations.register_interceptor(
        su,
        establishment=town.owner_restaurant,
        kind=InterceptorKind.GREASE_TRAP,
        rated_gpm=Decimal("20"),
        location="Kitchen",
        accessible=True,
        installed_on=date(2025, 6, 1),
        cleaning_interval_days=90,
    )
    grease.record_pump_out(
        su, trap, pumped_on=date(2026, 1, 1), hauler_name="HV", volume_gal=Decimal("300")
    )  # the next pump-out is due by 2026-04-01
    assert services.run(date(2026, 3, 17)).count(Topic.PUMPOUT_DUE, "sent") == 0
    assert services.run(date(2026, 3, 18)).count(Topic.PUMPOUT_DUE, "sent") == 1
    assert services.run(date(2026, 3, 30)).count(Topic.PUMPOUT_DUE, "already sent") == 1
    services.run(date(2026, 4, 1))
    [got] = smtp.messages
    assert got.subject.startswith("Pump-out due by 2026-04-01")
    assert "Olive's Diner" in got.body
    stored = SentMessage.objects.get(topic=Topic.PUMPOUT_DUE)
    assert stored.key == f"pumpout_due:{trap.pk}:2026-04-01:u{town.u('owner').pk}"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    issued_offset=st.integers(min_value=0, max_value=30),
    at_once_fails=st.booleans(),
    run_offsets=st.lists(st.integers(min_value=-3, max_value=12), max_size=12).map(sorted),
)
def test_an_event_told_at_once_or_caught_up_goes_out_exactly_once(
    town: Town,
    settings_django: Any,
    django_capture_on_commit_callbacks: Any,
    issued_offset: int,
    at_once_fails: bool,
    run_offsets: list[int],
) -> None:
    """An invoice told at once (or failing then) and any daily runs after it: one message,
    unless the first try failed and no run came within the 7 days the runs look back."""
    with_address(town)
    clerk = town.u("clerk")
    person = town.owner_person
    assert person is not None
    day = date(2026, 3, 2) + timedelta(days=issued_offset)
    if at_once_fails:  # nothing listens on the port: the send fails, the issue stands
        settings_django.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings_django.EMAIL_HOST, settings_django.EMAIL_PORT = "127.0.0.1", free_port()
    with django_capture_on_commit_callbacks(execute=True):
        c = charges.article_copies(person, 1, day, clerk)
        inv = invoices.issue_invoice(person, [c], clerk, day)
    settings_django.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    django_mail.outbox = []
    for offset in run_offsets:
        services.run(day + timedelta(days=offset))
    mine = SentMessage.objects.filter(topic=Topic.INVOICE_ISSUED, about_id=str(inv.pk))
    sent = list(mine.filter(status=MessageStatus.SENT))
    caught_up = any(0 <= o <= EVENT_DAYS for o in run_offsets)
    assert len(sent) == (1 if not at_once_fails or caught_up else 0)
    assert mine.filter(status=MessageStatus.FAILED).count() == (1 if at_once_fails else 0)
    assert len([m for m in django_mail.outbox if inv.number in m.subject]) == (
        1 if at_once_fails and caught_up else 0
    )
