"""The settings of sign-in, checked when the office starts (``manage.py check``): a typo in
``SEWER_USE_SECOND_FACTOR`` or its roles must not silently leave an account without its
second factor."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from .roles import ALL_ROLES
from .second_factor import MODES


def check_sign_in_settings(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []
    value = getattr(settings, "SEWER_USE_SECOND_FACTOR", "")
    if value not in MODES:
        errors.append(
            checks.Error(
                f"SEWER_USE_SECOND_FACTOR = {value!r}: expected one of {', '.join(MODES)}",
                id="sewer_use.E001",
            )
        )
    unknown = [
        r for r in getattr(settings, "SEWER_USE_SECOND_FACTOR_ROLES", ()) if r not in ALL_ROLES
    ]
    if unknown:
        errors.append(
            checks.Error(
                f"SEWER_USE_SECOND_FACTOR_ROLES names unknown role(s): {', '.join(unknown)} "
                f"(roles: {', '.join(ALL_ROLES)})",
                id="sewer_use.E002",
            )
        )
    for name in (
        "SEWER_USE_SIGNIN_SLOW_SECONDS",
        "SEWER_USE_KNOWN_DEVICE_DAYS",
        "SEWER_USE_REGISTRATION_WINDOW_MINUTES",
    ):
        if int(getattr(settings, name, 1)) < 1:
            errors.append(checks.Error(f"{name} must be at least 1", id="sewer_use.E003"))
    return errors
