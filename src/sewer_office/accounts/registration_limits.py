"""How often the portal's registration may be used: per client address, and per e-mail address.

- ``SEWER_USE_REGISTRATIONS_PER_ADDRESS`` registrations from one client address within
  ``SEWER_USE_REGISTRATION_WINDOW_MINUTES``; the next is refused, saying until when (429).
  Registering answers the same whether a name is free or taken, so this limit is what keeps
  anyone from confirming names (through their own mailbox) in bulk.
- ``SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT`` messages to one e-mail address within the
  window; beyond them the registration answers as always and sends nothing, so the form cannot
  be used to fill a stranger's mailbox. Which of the two limits applied is not said: the page is
  the same, and only the address's owner could tell.

The registrations are rows of the database (:class:`~.models.RegistrationAttempt`), like the
sign-in failures, so every server process counts the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from .models import RegistrationAttempt
from .throttle import clean_text


@dataclass(frozen=True)
class Refusal:
    registrations: int
    until: datetime

    def message(self) -> str:
        when = timezone.localtime(self.until).strftime("%H:%M")
        return (
            f"Too many registrations from this address ({self.registrations} within "
            f"{_window_minutes()} minutes): try again after {when}, or ask the Town Clerk."
        )

    def seconds_left(self) -> int:
        return max(1, int((self.until - timezone.now()).total_seconds()) + 1)


def _window_minutes() -> int:
    return int(settings.SEWER_USE_REGISTRATION_WINDOW_MINUTES)


def _window() -> timedelta:
    return timedelta(minutes=_window_minutes())


def refusal(address: str) -> Refusal | None:
    """Why a registration from ``address`` is refused now, if it is."""
    limit = int(settings.SEWER_USE_REGISTRATIONS_PER_ADDRESS)
    if limit <= 0:
        return None
    now = timezone.now()
    recent = list(
        RegistrationAttempt.objects.filter(address=address, at__gt=now - _window())
        .order_by("-at")
        .values_list("at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return None
    return Refusal(limit, recent[-1] + _window())


def record(address: str, email: str) -> bool:
    """Count a registration from ``address`` for ``email``; whether a message may still be
    sent to ``email`` (counting this one)."""
    now = timezone.now()
    RegistrationAttempt.objects.filter(at__lte=now - _window()).delete()
    recipient = clean_text(email).strip().lower()[:254]
    RegistrationAttempt.objects.create(address=clean_text(address)[:45], email=recipient, at=now)
    cap = int(settings.SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT)
    if cap <= 0:
        return True
    sent = RegistrationAttempt.objects.filter(email=recipient, at__gt=now - _window()).count()
    return sent <= cap
