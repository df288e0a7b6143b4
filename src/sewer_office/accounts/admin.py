"""The back office signs in through the paused-aware form; failed sign-ins are listed there.

Deleting a name's failed sign-ins ends its pause (the office's "unlock").
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .forms import AdminSignInForm
from .models import SignInFailure

admin.site.login_form = AdminSignInForm


@admin.register(SignInFailure)
class SignInFailureAdmin(admin.ModelAdmin[SignInFailure]):
    list_display = ("username", "address", "at")
    search_fields = ("username", "address")
    readonly_fields = ("username", "address", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
