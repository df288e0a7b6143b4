"""API access: signed in (token or session) and holding a role of the office.

Which records a user sees is narrowed by :func:`sewer_office.accounts.access.visible`, and
which actions they may take is decided by the services — exactly as for the pages.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

from sewer_office.accounts.roles import is_office_user


class OfficeUser(BasePermission):
    message = "Your account has no role in the sewer office."

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated and is_office_user(request.user))
