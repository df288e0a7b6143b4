"""API access: signed in (token or session) and holding a role of the office — with the code
of the second factor where it is owed.

Which records a user sees is narrowed by :func:`sewer_office.accounts.access.visible`, and
which actions they may take is decided by the services — exactly as for the pages.

A session that signed in with the password but still owes its code is refused, as the pages
refuse it. A token is issued only with the code by ``POST /api/token/`` to an account that has
an authenticator, and enrolling one withdraws the account's earlier tokens; so in ``required``
mode the one token still refused is that of an account of the roles that need the second
factor and have not enrolled (a token from before the mode was switched on).
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

from sewer_office.accounts import second_factor
from sewer_office.accounts.roles import is_office_user

NO_ROLE = "Your account has no role in the sewer office."
OWES_CODE = (
    "Give the code of your second factor first: sign in again at /accounts/login/, or ask "
    "for a token with the otp field."
)
NOT_ENROLLED = (
    "Your role requires a second factor: enrol an authenticator app at "
    "/accounts/second-factor/enrol/, then ask for a token with the otp field."
)


class OfficeUser(BasePermission):
    message = NO_ROLE

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated and is_office_user(user)):
            return False
        if request.auth is None:  # the session's sign-in
            if second_factor.pending(request._request):
                self.message = OWES_CODE
                return False
        elif second_factor.required_for(user) and not second_factor.has_device(user):
            self.message = NOT_ENROLLED
            return False
        return True
