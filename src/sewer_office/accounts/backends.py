"""The office's one way to check a password: Django's, behind the sign-in pause."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from . import known_device, second_factor, throttle
from .actors import Actor


class ThrottledModelBackend(ModelBackend):
    """:class:`ModelBackend` behind the pauses and the slow-down of :mod:`.throttle`.

    Every sign-in goes through :func:`django.contrib.auth.authenticate` and so through here:
    the sign-in page, the back office's and ``POST /api/token/``. A refused attempt raises
    :class:`PermissionDenied` (Django then tries no other backend, and the right password is
    refused like a wrong one) after leaving the refusal on the request, for the form or the
    API to say why and until when.

    ``otp_token``, when given (the API's ``otp`` field, or the sign-in form's code), is a code
    of the account's second factor: it lets the attempt through the slow-down of a name
    attacked from many addresses, and is checked after the password — a wrong code fails the
    attempt like a wrong password, so a random code tells nothing about the password. A right
    one marks the user (``user.otp_device``) and its session is verified at sign-in.
    """

    def authenticate(
        self,
        request: Any,
        username: str | None = None,
        password: str | None = None,
        otp_token: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None or password is None:
            return None
        attempt = throttle.Attempt(
            throttle.key(username),
            throttle.client_address(request),
            known_device.device_for(request, username),
        )
        code = second_factor.normalise(otp_token)
        refusal = throttle.refusal(attempt, with_code=bool(code))
        if refusal is not None:
            if request is not None:
                setattr(request, throttle.REFUSAL_ATTRIBUTE, refusal)
            raise PermissionDenied("sign-in paused")
        user: Actor | None = None
        if not throttle.has_control_characters(username):  # no such name; not a database error
            user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None and code:
            device, _why = second_factor.verify_code(user, code)
            if device is None:
                user = None
            else:
                # django-otp verifies the session at sign-in (a mark, not a field of User)
                setattr(user, "otp_device", device)  # noqa: B010
        if user is None:
            throttle.record_failure(attempt)
        else:
            throttle.record_success(attempt)
        return user
