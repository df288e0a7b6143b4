"""A real SMTP server on 127.0.0.1 (aiosmtpd), started by the test: the office's SMTP backend
talks to it over a socket, and the test reads what arrived."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: Message

    @property
    def subject(self) -> str:
        # as a reader sees it: unfolded (RFC 5322 2.2.3) and its encoded words decoded (RFC 2047)
        raw = str(self.message["Subject"]).replace("\r\n", "").replace("\n", "")
        return str(make_header(decode_header(raw))).strip()

    @property
    def body(self) -> str:
        payload = self.message.get_payload(decode=True)
        assert isinstance(payload, bytes)
        return payload.decode(self.message.get_content_charset() or "utf-8")


@dataclass
class Inbox:
    """What the server received, in order."""

    messages: list[Received] = field(default_factory=list)
    #: Answer every DATA with this SMTP reply instead of accepting (e.g. "554 refused").
    refuse: str = ""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse:
            return self.refuse
        self.messages.append(
            Received(
                mail_from=envelope.mail_from,
                rcpt_tos=list(envelope.rcpt_tos),
                message=message_from_bytes(envelope.original_content or envelope.content),
            )
        )
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Received]:
        return [m for m in self.messages if address in m.rcpt_tos]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """An SMTP server on 127.0.0.1 and the office's settings pointed at it."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 10
    settings.DEFAULT_FROM_EMAIL = "Sewer office <sewer-office@wappinger.test>"
    try:
        yield inbox
    finally:
        controller.stop()
