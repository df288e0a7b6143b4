"""The back office signs in through the paused-aware form; failed sign-ins are listed there.

Deleting a name's failed sign-ins ends its pauses and its slow-down (the office's "unlock").
django-otp's own pages for devices are taken out of the back office: they would show the
secrets and delete devices without an audit record; the second factor is reset on the office's
page (``/accounts/second-factor/accounts/``), audited.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from .forms import AdminSignInForm
from .models import RegistrationAttempt, SignInFailure, SignInPace

admin.site.login_form = AdminSignInForm

for _model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)


@admin.register(SignInFailure)
class SignInFailureAdmin(admin.ModelAdmin[SignInFailure]):
    list_display = ("username", "address", "known_device", "at")
    search_fields = ("username", "address")
    readonly_fields = ("username", "address", "device", "at")

    @admin.display(boolean=True, description="known device")
    def known_device(self, obj: SignInFailure) -> bool:
        return bool(obj.device)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _ReadOnly(admin.ModelAdmin[Any]):
    """Rows the sign-in and registration limits keep: listed for the office to see, and
    deleted to lift a limit early; never written by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SignInPace)
class SignInPaceAdmin(_ReadOnly):
    """A name being slowed across addresses: deleting its row ends the slow-down at once."""

    list_display = ("username", "next_at")
    search_fields = ("username",)


@admin.register(RegistrationAttempt)
class RegistrationAttemptAdmin(_ReadOnly):
    """Registrations counted against the per-address and per-recipient limits."""

    list_display = ("address", "email", "at")
    search_fields = ("address", "email")
