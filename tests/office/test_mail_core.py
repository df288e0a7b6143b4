"""The mail core: send_message through a real SMTP server on 127.0.0.1 (aiosmtpd), the record
of every message, the dedupe key, the person's preferences and the legal notices."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail as django_mail

from sewer_office.core.errors import InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.mail.choices import MessageStatus, Topic
from sewer_office.mail.models import SentMessage
from sewer_office.mail.services import preferences, send_message, set_preferences

from .factories import Town
from .smtp_support import Inbox


def test_a_message_goes_through_smtp_and_is_recorded(town: Town, smtp: Inbox) -> None:
    owner = town.u("owner")
    msg = send_message(
        to="olive@example.org",
        subject="Pump-out due at Olive's Diner",
        body="The grease interceptor is due for pumping on 2026-05-01.\n— Sewer office",
        topic=Topic.PUMPOUT_DUE,
        user=owner,
        about=town.owner_restaurant,
        key="pumpout_due:1:2026-05-01",
    )
    assert msg.status == MessageStatus.SENT and msg.error == ""
    [got] = smtp.messages
    assert got.rcpt_tos == ["olive@example.org"]
    assert got.mail_from == "sewer-office@wappinger.test"
    assert got.subject == "Pump-out due at Olive's Diner"
    assert "due for pumping on 2026-05-01" in got.body
    assert got.message["From"] == "Sewer office <sewer-office@wappinger.test>"
    stored = SentMessage.objects.get()
    assert (stored.to, stored.topic, stored.user, stored.about) == (
        "olive@example.org",
        "pumpout_due",
        owner,
        town.owner_restaurant,
    )
    assert stored.about_label == "Olive's Diner"
    event = AuditEvent.objects.get(action="send_message")
    assert event.object_id == str(stored.pk) and event.after["to"] == "olive@example.org"


def test_the_same_key_is_never_sent_twice(town: Town, smtp: Inbox) -> None:
    args: dict[str, Any] = {
        "to": "olive@example.org",
        "subject": "Report due",
        "body": "Your periodic report is due.",
        "topic": Topic.REPORT_DUE,
        "key": "report_due:7:30",
    }
    first = send_message(**args)
    again = send_message(**{**args, "subject": "Report due (again)"})
    assert again.pk == first.pk
    assert len(smtp.messages) == 1 and SentMessage.objects.count() == 1
    other = send_message(**{**args, "key": "report_due:7:7"})
    assert other.pk != first.pk and len(smtp.messages) == 2


def test_a_refused_message_is_recorded_failed_and_retried(town: Town, smtp: Inbox) -> None:
    args: dict[str, Any] = {
        "to": "olive@example.org",
        "subject": "Invoice overdue",
        "body": "Invoice 2026-0001 is overdue.",
        "topic": Topic.INVOICE_OVERDUE,
        "key": "invoice_overdue:1",
    }
    smtp.refuse = "554 5.7.1 relay refused"
    failed = send_message(**args)
    assert failed.status == MessageStatus.FAILED
    assert "554" in failed.error and "relay refused" in failed.error
    assert smtp.messages == []
    smtp.refuse = ""
    sent = send_message(**args)
    assert sent.status == MessageStatus.SENT and sent.pk != failed.pk
    assert len(smtp.messages) == 1
    assert send_message(**args).pk == sent.pk
    assert list(SentMessage.objects.values_list("status", flat=True).order_by("id")) == [
        "failed",
        "sent",
    ]


def test_no_server_listening_is_a_failed_message(town: Town, settings: Any) -> None:
    from .smtp_support import free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2
    msg = send_message(to="a@example.org", subject="s", body="b", topic=Topic.APPLICATION)
    assert msg.status == MessageStatus.FAILED
    assert "ConnectionRefusedError" in msg.error


def test_preferences_withhold_a_reminder_but_never_a_legal_notice(town: Town, smtp: Inbox) -> None:
    owner = town.u("owner")
    assert preferences(owner)[Topic.SAMPLING_DUE] is True
    set_preferences(owner, {Topic.SAMPLING_DUE: False})
    assert preferences(owner)[Topic.SAMPLING_DUE] is False
    withheld = send_message(
        to="olive@example.org",
        subject="Sampling due",
        body="Sample CM-1 this week.",
        topic=Topic.SAMPLING_DUE,
        user=owner,
        key="sampling_due:1:2026-05-01",
    )
    assert withheld.status == MessageStatus.WITHHELD and smtp.messages == []
    # Withheld holds the key: turning the topic on again does not resend that occasion.
    set_preferences(owner, {Topic.SAMPLING_DUE: True})
    again = send_message(
        to="olive@example.org",
        subject="Sampling due",
        body="Sample CM-1 this week.",
        topic=Topic.SAMPLING_DUE,
        user=owner,
        key="sampling_due:1:2026-05-01",
    )
    assert again.pk == withheld.pk and smtp.messages == []
    # A reminder turned off but sent as a legal notice goes out; so does a legal topic.
    set_preferences(owner, {Topic.CORRECTION_VERIFIED: False})
    legal = send_message(
        to="olive@example.org",
        subject="Correction verified",
        body="b",
        topic=Topic.CORRECTION_VERIFIED,
        user=owner,
        legal=True,
    )
    notice = send_message(
        to="olive@example.org",
        subject="Notice of violation",
        body="b",
        topic=Topic.NOTICE_SERVED,
        user=owner,
    )
    assert legal.status == notice.status == MessageStatus.SENT
    assert notice.legal is True
    assert [m.subject for m in smtp.messages] == ["Correction verified", "Notice of violation"]


def test_a_legal_topic_cannot_be_turned_off(town: Town) -> None:
    with pytest.raises(InvalidInput) as err:
        set_preferences(town.u("owner"), {Topic.NOTICE_SERVED: False})
    assert "always sent" in err.value.message
    with pytest.raises(InvalidInput):
        set_preferences(town.u("owner"), {"no_such_topic": False})
    assert preferences(town.u("owner"))[Topic.SAMPLING_DUE] is True


def test_bad_input_is_refused_before_anything_is_sent(town: Town) -> None:
    with pytest.raises(InvalidInput) as err:
        send_message(to="not-an-address", subject="Line\nbreak", body="", topic="nope")
    assert set(err.value.errors) == {"to", "subject", "topic"}
    assert SentMessage.objects.count() == 0 and django_mail.outbox == []


def test_a_message_is_written_once(town: Town) -> None:
    msg = send_message(to="a@example.org", subject="s", body="b", topic=Topic.APPLICATION)
    assert len(django_mail.outbox) == 1
    msg.subject = "changed"
    with pytest.raises(ImmutableRecord):
        msg.save()
    with pytest.raises(ImmutableRecord):
        msg.delete()
