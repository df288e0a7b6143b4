"""Template context for every page: the user's roles and the jurisdiction in use."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from sewer_office.accounts.roles import APPLICANT, is_staff_member, role_label, roles_of
from sewer_rules.parameters import load_jurisdiction


def office(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    roles = sorted(roles_of(user))
    params = load_jurisdiction(settings.SEWER_USE_JURISDICTION)
    return {
        "user_roles": roles,
        "user_role_labels": [role_label(r) for r in roles],
        "is_staff_member": is_staff_member(user),
        "is_applicant": APPLICANT in roles,
        "jurisdiction_name": params.name,
        "jurisdiction_notice": params.notice,
    }
