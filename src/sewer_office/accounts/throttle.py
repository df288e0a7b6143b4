"""Pausing password guessing without letting anyone lock the Town out.

Pausing a *name* after a few failures, whoever failed, lets anyone lock that name out — the
Superintendent included — with five wrong passwords every fifteen minutes. So the rules are:

1. **A name at an address.** ``SEWER_USE_SIGNIN_FAILURES`` failures of one name from one
   address within ``SEWER_USE_SIGNIN_PAUSE_MINUTES`` pause that name *at that address* (for
   browsers it does not know); the name signs in from anywhere else.
2. **An address.** ``SEWER_USE_SIGNIN_ADDRESS_FAILURES`` failures from one address, whatever
   the names, pause that address (guessing across many accounts).
3. **A name across addresses: slowed, never locked.** Once a name has
   ``SEWER_USE_SIGNIN_SLOW_AFTER`` failures within the window, from any addresses, attempts for
   it from an unrecognised device are taken at most once every ``SEWER_USE_SIGNIN_SLOW_SECONDS``
   (:class:`~.models.SignInPace`, claimed by one conditional update, so a thousand attempts
   sent at once still get one turn). An attempt carrying a code of the second factor passes.
4. **A known device** (:mod:`.known_device`: a signed cookie a successful sign-in left in this
   browser, bound to the account) is paused only by its own failures: others' failures, from
   its address or any other, neither pause nor slow it.

A refused attempt is not itself counted, so a pause ends on time; a success forgets the
failures of its name at its address (and on its device), never those of other addresses — an
attacker's count does not restart because the real user signed in. The failures are rows of
the database (:class:`~.models.SignInFailure`), so every server process sees one count.
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from .models import SignInFailure, SignInPace

log = logging.getLogger("sewer_office.accounts")

#: The attribute of the request on which the backend leaves why it refused an attempt.
REFUSAL_ATTRIBUTE = "sewer_signin_refusal"


@dataclass(frozen=True)
class Pause:
    """Sign-in refused until ``until``: ``whom`` is ``"account"`` (the name at this address),
    ``"device"`` (the name on this known device), ``"address"`` (every name from this address)
    or ``"slowed"`` (the name from unrecognised devices, for a few seconds)."""

    whom: str
    failures: int
    until: datetime

    def message(self, username: str) -> str:
        name = clean_text(username)[:150]
        if self.whom == "slowed":
            return (
                f"Sign-in for “{name}” is slowed after many failed attempts from elsewhere: "
                f"try again in {self.seconds_left()} seconds, or give the code of your "
                "authenticator app with your password, or sign in from a device you have "
                "signed in from before."
            )
        when = timezone.localtime(self.until).strftime("%H:%M")
        if self.whom == "address":
            return (
                f"Sign-in from this address is paused after {self.failures} failed attempts: "
                f"try again after {when}."
            )
        where = "on this device" if self.whom == "device" else "from this address"
        return (
            f"Sign-in for “{name}” {where} is paused after {self.failures} failed attempts: "
            f"try again after {when}, sign in from another device you have used before, "
            "or ask the office to reset the password."
        )

    def seconds_left(self, now: datetime | None = None) -> int:
        left = (self.until - (now or timezone.now())).total_seconds()
        return max(1, int(left) + 1)


@dataclass(frozen=True)
class Attempt:
    """Who tries to sign in, from where: the name's key, the client's address and the id of
    the known device the attempt carries for that name ("" when none)."""

    username: str
    address: str
    device: str = ""


def clean_text(value: Any) -> str:
    """``value`` without control characters (NUL among them: PostgreSQL refuses to store it,
    and no user name can contain one), so a key never fails to be written."""
    text = str(value or "")
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cc")


def has_control_characters(value: Any) -> bool:
    return clean_text(value) != str(value or "")


def key(username: Any) -> str:
    """A name as counted: as typed, without control characters, trimmed, lower-cased."""
    return clean_text(username).strip().lower()[:150]


def _window() -> timedelta:
    return timedelta(minutes=int(settings.SEWER_USE_SIGNIN_PAUSE_MINUTES))


def client_address(request: Any) -> str:
    """The client's IP address: the socket's, or the proxy's last ``X-Forwarded-For`` hop.

    Behind the documented reverse proxy (``SEWER_USE_BEHIND_PROXY=1``) every request comes from
    the proxy; the address the proxy saw is the last one it appended to the header.
    """
    if request is None:
        return ""
    meta = request.META
    if settings.SEWER_USE_BEHIND_PROXY:
        forwarded = clean_text(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")[-1].strip()
        if forwarded:
            return forwarded[:45]
    return clean_text(meta.get("REMOTE_ADDR", "")).strip()[:45]


def _pause(rows: QuerySet[SignInFailure], limit: int, whom: str, now: datetime) -> Pause | None:
    if limit <= 0:
        return None
    recent = list(
        rows.filter(at__gt=now - _window()).order_by("-at").values_list("at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return None
    return Pause(whom, limit, recent[-1] + _window())


def failures_at(username: Any, address: str) -> QuerySet[SignInFailure]:
    """The failures of one name from one address (the address-scoped count of a name) made
    without a known device: a known device's failures count against that device."""
    return SignInFailure.objects.filter(username=key(username), address=address, device="")


def pause_for(attempt: Attempt, now: datetime | None = None) -> Pause | None:
    """The pause that refuses ``attempt`` now, if any (the slow-down aside: :func:`refusal`)."""
    now = now or timezone.now()
    limit = int(settings.SEWER_USE_SIGNIN_FAILURES)
    if attempt.device:
        own = SignInFailure.objects.filter(username=attempt.username, device=attempt.device)
        return _pause(own, limit, "device", now)
    if attempt.address:
        by_address = _pause(
            SignInFailure.objects.filter(address=attempt.address),
            int(settings.SEWER_USE_SIGNIN_ADDRESS_FAILURES),
            "address",
            now,
        )
        if by_address is not None:
            return by_address
    return _pause(failures_at(attempt.username, attempt.address), limit, "account", now)


def is_slowed(username: str, now: datetime | None = None) -> bool:
    """Whether the name has had many failures within the window, from any addresses."""
    threshold = int(settings.SEWER_USE_SIGNIN_SLOW_AFTER)
    if threshold <= 0:
        return False
    now = now or timezone.now()
    recent = SignInFailure.objects.filter(username=username, at__gt=now - _window())
    return recent.count() >= threshold


def _claim_turn(username: str, now: datetime) -> datetime | None:
    """Take the name's next turn: None when taken, else when the next turn comes.

    The update moves ``next_at`` only where it has passed: of concurrent attempts, the one
    whose update changes the row has the turn."""
    interval = timedelta(seconds=max(1, int(settings.SEWER_USE_SIGNIN_SLOW_SECONDS)))
    SignInPace.objects.get_or_create(username=username, defaults={"next_at": now})
    if SignInPace.objects.filter(username=username, next_at__lte=now).update(
        next_at=now + interval
    ):
        return None
    return SignInPace.objects.filter(username=username).values_list("next_at", flat=True).first()


def refusal(attempt: Attempt, *, with_code: bool = False) -> Pause | None:
    """Why ``attempt`` is refused before its password is even checked, if it is.

    Pauses first (:func:`pause_for`); then, for an unrecognised device without a code of the
    second factor, the slow-down of a name attacked from many addresses — taking its turn."""
    now = timezone.now()
    pause = pause_for(attempt, now)
    if pause is not None or attempt.device or with_code:
        return pause
    if not is_slowed(attempt.username, now):
        return None
    next_at = _claim_turn(attempt.username, now)
    if next_at is None:
        return None
    return Pause("slowed", int(settings.SEWER_USE_SIGNIN_SLOW_AFTER), next_at)


def record_failure(attempt: Attempt) -> None:
    """Count a failed sign-in (and forget failures and turns older than the window)."""
    now = timezone.now()
    SignInFailure.objects.filter(at__lte=now - _window()).delete()
    SignInPace.objects.filter(next_at__lte=now - _window()).delete()
    SignInFailure.objects.create(
        username=attempt.username, address=attempt.address, device=attempt.device, at=now
    )
    pause = pause_for(attempt, now)
    if pause is not None:
        log.warning(
            "sign-in paused",
            extra={
                "username": attempt.username,
                "address": attempt.address,
                "whom": pause.whom,
                "until": pause.until.isoformat(),
            },
        )


def record_success(attempt: Attempt) -> None:
    """A name that signed in starts again from no failures — at this address and on this
    device only: failures from elsewhere are someone else's and keep counting."""
    failures_at(attempt.username, attempt.address).delete()
    if attempt.device:
        SignInFailure.objects.filter(username=attempt.username, device=attempt.device).delete()


def refused(request: Any) -> Pause | None:
    """The refusal the backend left on ``request`` for the attempt it just refused."""
    value = getattr(request, REFUSAL_ATTRIBUTE, None)
    return value if isinstance(value, Pause) else None
