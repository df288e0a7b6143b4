"""The office's one way to check a password: Django's, behind the sign-in pause."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from . import throttle


class ThrottledModelBackend(ModelBackend):
    """:class:`ModelBackend` that refuses paused names and addresses and counts failures.

    Every sign-in goes through :func:`django.contrib.auth.authenticate` and so through here:
    the sign-in page, the back office's and ``POST /api/token/``. Raising
    :class:`PermissionDenied` makes Django stop at this backend, so no other backend can be
    tried while the pause lasts, and the right password is refused like a wrong one.
    """

    def authenticate(
        self,
        request: Any,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        address = throttle.client_address(request)
        if throttle.pause_for(username, address) is not None:
            raise PermissionDenied("sign-in paused")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            throttle.record_failure(username, address)
        else:
            throttle.record_success(username)
        return user
