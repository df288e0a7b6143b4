"""Fixtures of the office tests: a fast password hasher, uploads in a temporary directory,
the ``demo`` jurisdiction (so fees are configured), a small town, and the demo town (built once
per test process and restored for each test that asks for it: :mod:`.demo_cache`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from sewer_office.demo.build import Town as DemoTown
from sewer_office.inspections.models import Inspection
from sewer_office.registry.models import Establishment

from . import demo_cache
from .browser_support import launch_browser
from .factories import PASSWORD, Town, make_town
from .jurisdiction_support import article_towns, two_towns  # noqa: F401  (offices of two towns)
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


@pytest.fixture(scope="session")
def demo_baseline(django_db_setup: Any, django_db_blocker: Any) -> None:
    """The migrated, empty test database remembered once per process: demo towns are kept and
    restored only from it (:func:`.demo_cache.record_baseline`)."""
    with django_db_blocker.unblock():
        demo_cache.record_baseline()


@pytest.fixture
def demo_town(demo_baseline: None, db: Any, settings: Any) -> Iterator[Callable[..., DemoTown]]:
    """``demo_town(seed=4, anchor=None)``: ``build_demo_town`` into this test's database, built
    once per process for a seed and anchor and restored after (:mod:`.demo_cache`)."""
    settings.SEWER_USE_JURISDICTION = "demo"
    yield demo_cache.demo_town
    demo_cache.forget_content_types()  # before the rollback brings the test's own back


@pytest.fixture
def load_demo(demo_town: Any) -> Callable[..., None]:
    """``load_demo(**options)``: ``call_command("load_demo", **options)``, its build from the
    cache of :func:`demo_town` (the command's own checks and message as without it)."""
    return demo_cache.load_demo


@pytest.fixture
def demo_walk(demo_town: Callable[..., DemoTown]) -> tuple[Establishment, Inspection]:
    """The demo town for a walk in the browser: ACME-PLATING and the first scheduled inspection."""
    demo_town(seed=4, anchor=timezone.localdate())
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
