"""Pausing password guessing: after a few failed sign-ins, an account (or an address) waits.

Issue 16 found that twenty wrong passwords, then the right one, signed in. Here, once
``SEWER_USE_SIGNIN_FAILURES`` sign-ins for one name have failed within
``SEWER_USE_SIGNIN_PAUSE_MINUTES``, every further attempt for that name is refused — the right
password too — until the oldest of those failures leaves the window; likewise
``SEWER_USE_SIGNIN_ADDRESS_FAILURES`` failures from one address, whatever the names (guessing
across many accounts). A refused attempt is not itself counted, so the pause ends on time; a
successful sign-in forgets the name's failures. The failures are rows in the database
(:class:`~.models.SignInFailure`), so every server process sees the same count.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from .models import SignInFailure

log = logging.getLogger("sewer_office.accounts")


@dataclass(frozen=True)
class Pause:
    """Sign-in refused until ``until``, because of ``failures`` recent failures of ``whom``."""

    whom: str  # "account" or "address"
    failures: int
    until: datetime

    def message(self, username: str) -> str:
        when = timezone.localtime(self.until).strftime("%H:%M")
        if self.whom == "account":
            return (
                f"Sign-in for “{username[:150]}” is paused after {self.failures} failed attempts: "
                f"try again after {when}, or ask the office to reset the password."
            )
        return (
            f"Sign-in from this address is paused after {self.failures} failed attempts: "
            f"try again after {when}."
        )

    def seconds_left(self, now: datetime | None = None) -> int:
        left = (self.until - (now or timezone.now())).total_seconds()
        return max(1, int(left) + 1)


def _window() -> timedelta:
    return timedelta(minutes=int(settings.SEWER_USE_SIGNIN_PAUSE_MINUTES))


def _key(username: str | None) -> str:
    return (username or "").strip().lower()[:150]


def client_address(request: Any) -> str:
    """The client's IP address: the socket's, or the proxy's last ``X-Forwarded-For`` hop.

    Behind the documented reverse proxy (``SEWER_USE_BEHIND_PROXY=1``) every request comes from
    the proxy; the address the proxy saw is the last one it appended to the header.
    """
    if request is None:
        return ""
    meta = request.META
    if settings.SEWER_USE_BEHIND_PROXY:
        forwarded = str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")[-1].strip()
        if forwarded:
            return forwarded[:45]
    return str(meta.get("REMOTE_ADDR", ""))[:45]


def _pause(rows: QuerySet[SignInFailure], limit: int, whom: str, now: datetime) -> Pause | None:
    if limit <= 0:
        return None
    recent = list(
        rows.filter(at__gt=now - _window()).order_by("-at").values_list("at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return None
    return Pause(whom, limit, recent[-1] + _window())


def pause_for(username: str | None, address: str, now: datetime | None = None) -> Pause | None:
    """The pause that refuses a sign-in as ``username`` from ``address`` now, if any."""
    now = now or timezone.now()
    by_account = _pause(
        SignInFailure.objects.filter(username=_key(username)),
        int(settings.SEWER_USE_SIGNIN_FAILURES),
        "account",
        now,
    )
    if by_account is not None or not address:
        return by_account
    return _pause(
        SignInFailure.objects.filter(address=address),
        int(settings.SEWER_USE_SIGNIN_ADDRESS_FAILURES),
        "address",
        now,
    )


def record_failure(username: str | None, address: str) -> None:
    """Count a failed sign-in (and forget failures older than the window)."""
    now = timezone.now()
    SignInFailure.objects.filter(at__lte=now - _window()).delete()
    SignInFailure.objects.create(username=_key(username), address=address, at=now)
    pause = pause_for(username, address, now)
    if pause is not None:
        log.warning(
            "sign-in paused",
            extra={
                "username": _key(username),
                "address": address,
                "until": pause.until.isoformat(),
            },
        )


def record_success(username: str | None) -> None:
    """A signed-in name starts again from no failures."""
    SignInFailure.objects.filter(username=_key(username)).delete()
