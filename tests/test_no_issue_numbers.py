"""The code and the docs say what and why, never "issue 10": a tracker's numbering means
nothing to the next reader, and the tracker may not travel with the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where a reader looks: the code, its benches and tests, the docs and the top-level files.
PLACES = ("src", "bench", "tests", "docs")
TOP = ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")
SUFFIXES = {".py", ".md", ".yaml", ".yml", ".html", ".css", ".js", ".c", ".h", ".txt", ".toml"}
#: Vendored files are not ours to word.
VENDORED = ("axe.min.js", "leaflet")
NUMBERED = re.compile(r"\b[Ii]ssues? ?#?\d+\b")


def _files() -> list[Path]:
    found = [ROOT / name for name in TOP if (ROOT / name).is_file()]
    for place in PLACES:
        found += [
            p
            for p in (ROOT / place).rglob("*")
            if p.suffix in SUFFIXES
            and p.is_file()
            and not any(v in str(p) for v in VENDORED)
            and "__pycache__" not in p.parts
        ]
    return found


def test_no_file_names_an_issue_by_number() -> None:
    this = Path(__file__).resolve()
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _files()
        if path.resolve() != this
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if NUMBERED.search(line)
    ]
    assert hits == []
