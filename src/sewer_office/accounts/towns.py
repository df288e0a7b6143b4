"""The towns an installation serves, from its settings alone.

``SEWER_USE_JURISDICTION`` names the primary town (the one a record belongs to when nothing
says otherwise); ``SEWER_USE_JURISDICTIONS`` the member towns of an installation that serves
several. This module reads settings only, so the office's system checks and its models'
defaults may use it before the apps are loaded; which towns a user acts for is
:mod:`.jurisdictions`'.
"""

from __future__ import annotations

from django.conf import settings


def installed() -> tuple[str, ...]:
    """The installation's jurisdictions, the primary (``SEWER_USE_JURISDICTION``) first."""
    first = primary()
    listed = [str(j) for j in getattr(settings, "SEWER_USE_JURISDICTIONS", ()) if j]
    return (first, *(j for j in dict.fromkeys(listed) if j != first))


def primary() -> str:
    """The jurisdiction a record belongs to when nothing says otherwise: in a one-town
    installation, the town."""
    return str(settings.SEWER_USE_JURISDICTION)


def several() -> bool:
    return len(installed()) > 1
