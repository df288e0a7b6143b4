"""The back office signs in through the paused-aware form; failed sign-ins are listed there.

Deleting a name's failed sign-ins ends its pauses and its slow-down (the office's "unlock").
django-otp's own pages for devices are taken out of the back office: they would show the
secrets and delete devices without an audit record; the second factor is reset on the office's
page (``/accounts/second-factor/accounts/``), audited.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from .forms import AdminSignInForm
from .models import RegistrationAttempt, SignInFailure, SignInPace, StaffJurisdiction
from .services import grant_jurisdiction, withdraw_jurisdiction
from .towns import installed

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


@admin.register(StaffJurisdiction)
class StaffJurisdictionAdmin(admin.ModelAdmin[StaffJurisdiction]):
    """The jurisdictions each staff member acts for, in an installation of several towns:
    granted and withdrawn through the services, each an audit event; never edited in place."""

    list_display = ("user", "jurisdiction", "granted_at")
    list_filter = ("jurisdiction",)
    search_fields = ("user__username", "jurisdiction")
    fields = ("user", "jurisdiction")

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "jurisdiction":  # only the towns this installation serves
            return forms.ChoiceField(choices=[(j, j) for j in installed()], label="Jurisdiction")
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None  # the add form; a grant is withdrawn and granted again, not edited

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        found = grant_jurisdiction(obj.user, obj.jurisdiction, actor=request.user)
        obj.pk, obj.granted_at = found.pk, found.granted_at

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        withdraw_jurisdiction(obj.user, obj.jurisdiction, actor=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for row in list(queryset):
            withdraw_jurisdiction(row.user, row.jurisdiction, actor=request.user)
