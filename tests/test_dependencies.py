"""The package's declared dependencies (pyproject.toml) name every distribution the code
imports or the office's settings load by name, so that ``pip install .`` — what a packager or a
Python user does — gives an office that starts; ``requirements.txt`` pins them (and their own
dependencies) for ``make``."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
SETTINGS = SRC / "sewer_office" / "config" / "settings.py"
DOTTED = re.compile(r"^[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    names = set()
    for requirement in data["project"]["dependencies"]:
        names.add(_normal(re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0]))
    return names


def _imported_tops() -> dict[str, str]:
    """Top-level modules imported by the package's code (absolute imports), with a file each."""
    out: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                out.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return out


def _settings_tops() -> dict[str, str]:
    """Apps and middleware the settings name as dotted strings."""
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(SETTINGS.read_text(encoding="utf-8"))):
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and DOTTED.match(text):
            out.setdefault(text.split(".")[0], str(SETTINGS.relative_to(ROOT)))
    return out


def test_every_distribution_the_code_loads_is_declared() -> None:
    distributions = packages_distributions()
    declared = _declared()
    missing = []
    for top, where in sorted({**_settings_tops(), **_imported_tops()}.items()):
        if top in sys.stdlib_module_names or top.startswith("sewer_") or top == "__future__":
            continue
        owners = distributions.get(top)
        if not owners:
            continue  # not an installed module: a plain string of the settings
        if not any(_normal(d) in declared for d in owners):
            missing.append(f"{top} ({', '.join(owners)}), loaded in {where}")
    assert not missing, "not in pyproject.toml [project] dependencies: " + "; ".join(missing)


def test_every_declared_distribution_is_pinned() -> None:
    pinned = {
        _normal(line.split("==", 1)[0])
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if "==" in line and not line.lstrip().startswith("#")
    }
    assert not {d for d in _declared() if d != "psycopg"} - pinned
