"""Sign-in forms that say when, and why, sign-in is paused (instead of "wrong password"), and
the forms of the second factor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm

from . import throttle
from .actors import Actor

CODE_LABEL = "Code from your authenticator app"


class _SaysWhenPaused:
    """Signs in through the throttled backend and turns its refusal into the form's message
    (code ``paused``; ``slowed`` for the slow-down, whose form then asks for the code)."""

    request: Any
    cleaned_data: dict[str, Any]
    user_cache: Any
    ask_code: bool = False

    if TYPE_CHECKING:  # AuthenticationForm's, which the forms below mix this with

        def get_invalid_login_error(self) -> forms.ValidationError: ...

        def confirm_login_allowed(self, user: Actor) -> None: ...

    def _sign_in(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        code = str(self.cleaned_data.get("otp_token") or "")
        self.ask_code = bool(code)
        if username is not None and password:
            self.user_cache = authenticate(
                self.request, username=username, password=password, otp_token=code or None
            )
            if self.user_cache is None:
                pause = throttle.refused(self.request)
                if pause is not None:
                    self.ask_code = self.ask_code or pause.whom == "slowed"
                    raise forms.ValidationError(
                        pause.message(str(username)),
                        code="slowed" if pause.whom == "slowed" else "paused",
                    )
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class SignInForm(_SaysWhenPaused, AuthenticationForm):
    """The sign-in page: name and password; the code of the second factor is asked on the
    next page, or here when sign-in for the name is slowed (it lets the attempt through)."""

    otp_token = forms.CharField(
        label=CODE_LABEL,
        required=False,
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
        help_text="Only if you have one: six digits, or one of your recovery codes.",
    )

    def clean(self) -> dict[str, Any]:
        return self._sign_in()


class AdminSignInForm(_SaysWhenPaused, AdminAuthenticationForm):
    """The back office's sign-in; its session owes the code like the page's
    (:class:`~.middleware.SecondFactorMiddleware` asks for it before any back-office page)."""

    def clean(self) -> dict[str, Any]:
        return self._sign_in()


class CodeForm(forms.Form):
    """A code of the second factor: six digits from the app, or a recovery code."""

    code = forms.CharField(
        label=CODE_LABEL,
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
        help_text="Six digits from the app, or one of your recovery codes (each works once).",
    )


class EnrolForm(forms.Form):
    """The first code of the new authenticator; ``current`` when one is being replaced."""

    code = forms.CharField(
        label="The six-digit code the app now shows",
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, replacing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if replacing:
            self.fields["current"] = forms.CharField(
                label="A code of your current authenticator, or a recovery code",
                max_length=32,
                widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}),
            )


class ResetForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        label="Why (for the audit record)",
        help_text="e.g. “telephone lost, identity checked at the counter”.",
    )
