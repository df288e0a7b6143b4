"""Sign-in forms that say when, and why, sign-in is paused (instead of "wrong password")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from . import throttle


class _SaysWhenPaused:
    """Checks the pause before the password, so a paused name learns that it is paused."""

    request: Any
    data: Any

    def _refuse_if_paused(self) -> None:
        username = str(self.data.get("username", ""))
        pause = throttle.pause_for(username, throttle.client_address(self.request))
        if pause is not None:
            raise forms.ValidationError(pause.message(username), code="paused")


class SignInForm(_SaysWhenPaused, AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        self._refuse_if_paused()
        return super().clean()


class AdminSignInForm(_SaysWhenPaused, AdminAuthenticationForm):
    def clean(self) -> dict[str, Any]:
        self._refuse_if_paused()
        return super().clean()
