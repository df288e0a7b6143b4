"""Every module of the code stays small enough to read in one sitting: at most
:data:`MAX_LINES` lines (CONTRIBUTING, "Style"). A module that grows past it is split by
concept — a subsection of the law, a page family, a stage of a reader — not into parts.
Django's generated migrations are not read that way and are left out."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.database_free

SRC = Path(__file__).resolve().parents[1] / "src"
MAX_LINES = 400


def test_no_module_is_longer_than_the_guide_allows() -> None:
    long = sorted(
        (n, str(path.relative_to(SRC)))
        for path in SRC.rglob("*.py")
        if "migrations" not in path.parts
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    )
    assert not long, "split by concept: " + ", ".join(f"{p} ({n} lines)" for n, p in long)
