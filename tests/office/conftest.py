"""Fixtures of the office tests: a fast password hasher, uploads in a temporary directory,
the ``demo`` jurisdiction (so fees are configured), and a small town."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from sewer_office.demo.build import build_demo_town
from sewer_office.inspections.models import Inspection
from sewer_office.registry.models import Establishment

from .browser_support import launch_browser
from .factories import PASSWORD, Town, make_town
from .smtp_support import smtp  # noqa: F401  (the SMTP server fixture of the e-mail tests)

# Tests open connections from several threads (the live server of the browser test): close
# each at the end of its request, so that the PostgreSQL test database can be dropped.
django_settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True)
def _office_settings(settings: Any, tmp_path: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.SEWER_USE_JURISDICTION = "demo"


@pytest.fixture
def town(db: Any) -> Town:
    return make_town()


@pytest.fixture
def demo_walk(settings: Any, db: Any) -> tuple[Establishment, Inspection]:
    """The demo town for a walk in the browser: ACME-PLATING and the first scheduled inspection."""
    settings.SEWER_USE_JURISDICTION = "demo"
    build_demo_town(seed=4, anchor=timezone.localdate())
    inspection = Inspection.objects.filter(state="scheduled").order_by("id").first()
    assert inspection is not None
    return Establishment.objects.get(code="ACME-PLATING"), inspection


@pytest.fixture
def browser() -> Any:
    """Headless Debian Chromium (see :mod:`.browser_support`)."""
    yield from launch_browser()


@pytest.fixture
def login(client: Any) -> Any:
    """``login("clerk")`` signs the test client in as that user (None = anonymous)."""

    def sign_in(username: str | None) -> Any:
        client.logout()
        if username:
            assert client.login(username=username, password=PASSWORD)
        return client

    return sign_in
