"""Known devices: a browser this account has signed in from before.

A successful sign-in on the page leaves a cookie (``sewer_known_device``): signed with the
office's secret key, HttpOnly, SameSite=Lax, Secure where the session cookie is, kept
``SEWER_USE_KNOWN_DEVICE_DAYS`` days. It holds, for up to :data:`MAX_ACCOUNTS` accounts that
signed in from this browser, the account's id and a random id of the device. An attempt
carrying it for the account it names is paused only by this device's own failures
(:mod:`.throttle`): whoever guesses the Superintendent's password from elsewhere does not stop
the Superintendent signing in at the office's computer.

The cookie proves nothing about the password — it only exempts from others' failures — so a
copied cookie still needs the password (and the code of the second factor), and is paused
after its own few failures like any device.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpResponseBase

from .actors import Actor
from .throttle import has_control_characters

COOKIE = "sewer_known_device"
SALT = "sewer_office.accounts.known_device"
#: Accounts remembered by one browser (a shared counter computer), the most recent first.
MAX_ACCOUNTS = 5


def _max_age() -> int:
    return int(settings.SEWER_USE_KNOWN_DEVICE_DAYS) * 24 * 3600


def _entries(request: Any) -> list[tuple[int, str]]:
    """The (account id, device id) pairs of the request's cookie; none when it is absent,
    altered, expired or signed with another key."""
    raw = getattr(request, "COOKIES", {}).get(COOKIE) if request is not None else None
    if not raw:
        return []
    try:
        data = signing.loads(raw, salt=SALT, max_age=_max_age())
    except signing.BadSignature:
        return []
    out: list[tuple[int, str]] = []
    if isinstance(data, list):
        for item in data[:MAX_ACCOUNTS]:
            if (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and isinstance(item[1], str)
            ):
                out.append((item[0], item[1][:32]))
    return out


def device_for(request: Any, username: Any) -> str:
    """The id of this browser's known device for the account named ``username``, or ""."""
    entries = _entries(request)
    if not entries or not isinstance(username, str) or has_control_characters(username):
        return ""
    user_model = get_user_model()
    pk = (
        user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username})
        .values_list("pk", flat=True)
        .first()
    )
    return next((device for uid, device in entries if uid == pk), "") if pk is not None else ""


def remember(request: Any, response: HttpResponseBase, user: Actor) -> None:
    """Set (or refresh) the cookie on ``response``: this browser is a known device of ``user``.

    The device keeps its id across sign-ins, so its own failures stay counted against it."""
    entries = _entries(request)
    device = next((d for uid, d in entries if uid == user.pk), "") or secrets.token_urlsafe(12)
    kept = [[user.pk, device]] + [[uid, d] for uid, d in entries if uid != user.pk]
    response.set_cookie(
        COOKIE,
        signing.dumps(kept[:MAX_ACCOUNTS], salt=SALT),
        max_age=_max_age(),
        httponly=True,
        samesite="Lax",
        secure=bool(settings.SESSION_COOKIE_SECURE),
    )
