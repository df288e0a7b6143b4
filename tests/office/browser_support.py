"""Headless Chromium for the browser tests: the Debian ``chromium`` package driven through
playwright's ``executable_path`` (never a downloaded browser). The ``browser`` fixture lives in
``conftest.py``; test modules set ``pytestmark = BROWSER_MARKS``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs the Debian chromium package (apt-get install -y chromium)",
    ),
]


def launch_browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # playwright's sync API runs an event loop in this thread; the ORM calls made by the test
    # itself (fixtures, assertions) are plain synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()
        # The ORM calls made inside playwright's context hold their own connection: close it,
        # or PostgreSQL refuses to drop the test database at the end of the session.
        from django.db import connections

        connections.close_all()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
