"""Every answer carries the Content-Security-Policy, and no template
of the office holds an inline script or an inline event handler, which the policy would refuse
(the browser test, test_browser_security.py, proves the pages work under it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sewer_office.core.security import policy, tile_source

from .factories import Town

OFFICE = Path(__file__).resolve().parents[2] / "src" / "sewer_office"
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def _directives(header: str) -> dict[str, str]:
    return {d.split(" ", 1)[0]: d.split(" ", 1)[1] for d in header.split("; ")}


@pytest.mark.parametrize(
    ("path", "who"),
    [
        ("/accounts/login/", None),
        ("/", "superintendent"),
        ("/api/permits/industrial/", "superintendent"),
        ("/no-such-page/", "clerk"),
        ("/healthz", None),
        ("/api/docs/redoc/", "engineer"),
    ],
)
def test_every_answer_carries_the_policy(town: Town, login: Any, path: str, who: str) -> None:
    response = login(who).get(path)
    d = _directives(response["Content-Security-Policy"])
    assert d["script-src"] == "'self'"  # no inline script, no eval
    assert d["object-src"] == "'none'" and d["frame-ancestors"] == "'none'"
    assert d["form-action"] == "'self'" and d["base-uri"] == "'self'"


def test_the_map_tiles_server_is_allowed_for_images_only(settings: Any) -> None:
    settings.SEWER_USE_MAP_TILE_URL = "https://{s}.tile.example.org/{z}/{x}/{y}.png"
    d = _directives(policy())
    assert "https://*.tile.example.org" in d["img-src"]
    assert "tile.example.org" not in d["script-src"] + d["connect-src"]
    assert tile_source("") == "" and tile_source("javascript:alert(1)") == ""


def test_a_configured_policy_replaces_the_office_s(town: Town, login: Any, settings: Any) -> None:
    settings.SEWER_USE_CONTENT_SECURITY_POLICY = "default-src 'none'"
    assert login(None).get("/accounts/login/")["Content-Security-Policy"] == "default-src 'none'"


def test_no_template_holds_an_inline_script_or_event_handler() -> None:
    found = []
    for template in OFFICE.rglob("templates/**/*.html"):
        text = template.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER):
            found += [
                f"{template.relative_to(OFFICE)}: {m.group(0)[:60]}" for m in pattern.finditer(text)
            ]
    assert found == []
