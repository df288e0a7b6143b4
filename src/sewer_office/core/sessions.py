"""Office staff are signed out after a working day without activity.

Django keeps a session two weeks (``SESSION_COOKIE_AGE``): a staff member's browser left
signed in on a counter computer would open every record of the town to the next person for
that long. :class:`StaffIdleSessionMiddleware` ends a staff session (any staff role, or a
back-office superuser) after ``SEWER_USE_STAFF_SESSION_IDLE_HOURS`` hours (10 by default:
a working day and its breaks) without a request, and moves that end forward on each request:
the session's own expiry (its cookie and its database row) is set to the same limit, so the
server forgets an idle session even if this check never runs again. The time of the last
activity is written at most every :data:`STAMP_EVERY_SECONDS` (not a database write per
request), so a session may end up to that much before the full idle limit.

Outside users (the portal's applicants) keep Django's lifetime: they see only the records of
the persons they represent, they come back rarely and from their own computers, and a short
limit would mostly sign them out in the middle of a filing.

A request of an idle session is signed out: a page redirects to the sign-in page (and back
here after it); the API answers as to anyone not signed in.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse

from sewer_office.accounts.roles import is_staff_member

#: The session key of the time (seconds since the epoch) of the staff member's last request.
LAST_ACTIVITY = "_sewer_last_activity"
#: The last activity is written again only when it is older than this (seconds).
STAMP_EVERY_SECONDS = 300


def idle_seconds() -> int:
    """The idle limit of a staff session, in seconds (``SEWER_USE_STAFF_SESSION_IDLE_HOURS``)."""
    return int(float(settings.SEWER_USE_STAFF_SESSION_IDLE_HOURS) * 3600)


class StaffIdleSessionMiddleware:
    """See the module; placed after the authentication and message middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        now = time.time()
        user = getattr(request, "user", None)
        if user is not None and is_staff_member(user):
            last = request.session.get(LAST_ACTIVITY)
            if isinstance(last, int | float) and now - last > idle_seconds():
                return self._signed_out(request)
        response = self.get_response(request)
        self._stamp(request, now)
        return response

    def _signed_out(self, request: HttpRequest) -> HttpResponse:
        hours = settings.SEWER_USE_STAFF_SESSION_IDLE_HOURS
        logout(request)  # flushes the session; request.user is anonymous from here
        if request.path.startswith("/api/"):
            return self.get_response(request)
        messages.info(request, f"Signed out after {hours:g} hours without activity: sign in again.")
        return redirect_to_login(request.get_full_path())

    def _stamp(self, request: HttpRequest, now: float) -> None:
        """After the view (which may have signed someone in or out): record the activity of a
        signed-in staff member and move the session's expiry to the idle limit."""
        user = getattr(request, "user", None)
        if user is None or not is_staff_member(user):
            return
        last = request.session.get(LAST_ACTIVITY)
        if isinstance(last, int | float) and now - last < STAMP_EVERY_SECONDS:
            return
        request.session[LAST_ACTIVITY] = now
        request.session.set_expiry(idle_seconds())
