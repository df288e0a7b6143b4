"""A session that owes the code of its second factor reaches nothing but the code.

After the password, a session that must still give its code (:func:`.second_factor.pending`)
is sent from every page — the office's, the back office's — to the code, or to the enrolment
when it has no authenticator yet; a form it posts elsewhere is refused (403). Left alone: the
code and enrolment pages themselves, signing out, the sign-in page, static files, the health
checks, and ``/api/``, whose permission class refuses such a session in the API's own error
shape (``sewer_office.api.permissions``). Installed after django-otp's ``OTPMiddleware``,
which says whether the session is verified.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect
from django.urls import reverse

from . import second_factor

_OPEN_NAMES = ("second-factor-verify", "second-factor-enrol", "logout", "login")
_OPEN_PREFIXES = ("/api/", "/healthz", "/readyz", "/favicon.ico")


class SecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._open(request.path) or not second_factor.pending(request):
            return self.get_response(request)
        if request.method in ("GET", "HEAD"):
            return redirect(second_factor.step_url(request, request.get_full_path()))
        return HttpResponseForbidden(
            "Give the code of your second factor first: " + second_factor.step_url(request),
            content_type="text/plain; charset=utf-8",
        )

    @staticmethod
    def _open(path: str) -> bool:
        static = str(getattr(settings, "STATIC_URL", "") or "")
        if static.startswith("/") and path.startswith(static):
            return True
        return path.startswith(_OPEN_PREFIXES) or path in {reverse(n) for n in _OPEN_NAMES}
