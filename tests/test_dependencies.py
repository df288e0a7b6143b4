"""One source of dependencies: pyproject.toml declares them, the lock files are generated.

- ``[project] dependencies`` names every distribution the package's code imports or the
  office's settings load by name, so that ``pip install .`` — what a packager or a Python user
  does — gives an office that starts (tests/test_packaging.py installs it and serves a page);
  the ``test`` extra names what the tests and the benches import on top.
- ``requirements.txt`` (running) and ``requirements-dev.txt`` (running and the tools of
  ``make test``) are generated from it by ``make lock`` (uv pip compile): their direct
  requirements are exactly the declared ones, each pin inside its declared range, and the
  development file pins what the running file pins at the same version. A line added to
  pyproject.toml without ``make lock``, or a lock file edited by hand, fails here.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
SETTINGS = SRC / "sewer_office" / "config" / "settings.py"
DOTTED = re.compile(r"^[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: The extras requirements-dev.txt is compiled with (the Makefile's `lock` target).
DEV_EXTRAS = ("test", "lint", "types")
#: What uv writes beside a requirement that pyproject.toml names (a dependency, an extra's or
#: the ``make`` group's), as opposed to one pulled in by another distribution.
DIRECT = re.compile(r"^sewer-use \(pyproject\.toml(:\w+)?\)$")


def _requirements(*lists: list[str]) -> dict[str, Requirement]:
    out: dict[str, Requirement] = {}
    for items in lists:
        for text in items:
            requirement = Requirement(text)
            out[canonicalize_name(requirement.name)] = requirement
    return out


RUNNING = _requirements(
    PYPROJECT["project"]["dependencies"], PYPROJECT["dependency-groups"]["make"]
)
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
DEVELOPMENT = {**RUNNING, **_requirements(*(EXTRAS[name] for name in DEV_EXTRAS))}


@dataclass
class Pin:
    version: Version
    via: set[str] = field(default_factory=set)


def _lock(name: str) -> dict[str, Pin]:
    """The pins of a lock file as uv writes it: ``name==version [; marker] \\``, its hashes,
    then ``# via X`` or ``# via`` and one ``#   X`` line per source."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        entry = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)", line)
        if entry:
            current = pins[canonicalize_name(entry[1])] = Pin(Version(entry[3]))
            continue
        via = re.match(r"^\s+#\s+(?:via\s+)?(\S.*)$", line)
        if current is not None and via and via[1] != "via":
            current.via.add(via[1].strip())
    return pins


def _direct(pins: dict[str, Pin]) -> set[str]:
    return {name for name, pin in pins.items() if any(DIRECT.match(v) for v in pin.via)}


def _imported_tops(*roots: Path) -> dict[str, str]:
    """Top-level modules imported by the code under ``roots`` (absolute imports), a file each."""
    out: dict[str, str] = {}
    for root in roots:
        for path in sorted(root.rglob("*.py")):
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


def _undeclared(loaded: dict[str, str], declared: AbstractSet[str]) -> list[str]:
    """The installed distributions that provide a module in ``loaded`` and are not declared."""
    distributions = packages_distributions()
    missing = []
    for top, where in sorted(loaded.items()):
        if top in sys.stdlib_module_names or top.startswith("sewer_") or top == "__future__":
            continue
        owners = distributions.get(top)
        if not owners:
            continue  # not an installed module: a plain string of the settings, a local module
        if not any(canonicalize_name(d) in declared for d in owners):
            missing.append(f"{top} ({', '.join(owners)}), loaded in {where}")
    return missing


def test_every_distribution_the_code_loads_is_declared() -> None:
    declared = {
        canonicalize_name(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]
    }
    missing = _undeclared({**_settings_tops(), **_imported_tops(SRC)}, declared)
    assert not missing, "not in pyproject.toml [project] dependencies: " + "; ".join(missing)


def test_every_distribution_the_tests_and_benches_load_is_declared() -> None:
    """What the tests and benches import comes with ``make test``: a running dependency or
    the ``test`` extra (the lint and type tools are run as commands, not imported)."""
    declared = {
        canonicalize_name(Requirement(r).name)
        for r in [*PYPROJECT["project"]["dependencies"], *EXTRAS["test"]]
    }
    missing = _undeclared(_imported_tops(ROOT / "tests", ROOT / "bench"), declared)
    assert not missing, "not in pyproject.toml dependencies nor the test extra: " + "; ".join(
        missing
    )


@pytest.mark.parametrize(
    ("lock", "declared"),
    [("requirements.txt", RUNNING), ("requirements-dev.txt", DEVELOPMENT)],
)
def test_the_lock_file_pins_exactly_what_pyproject_declares(
    lock: str, declared: dict[str, Requirement]
) -> None:
    pins = _lock(lock)
    direct = _direct(pins)
    assert set(declared) - direct == set(), f"declared, not locked: run `make lock` ({lock})"
    assert direct - set(declared) == set(), f"locked, no longer declared: run `make lock` ({lock})"
    outside = {
        f"{name}=={pins[name].version} (pyproject.toml: {declared[name].specifier})"
        for name in declared
        if not declared[name].specifier.contains(pins[name].version, prereleases=True)
    }
    assert not outside, f"{lock} pins outside pyproject's ranges: run `make lock`"


def test_the_development_lock_pins_what_running_pins() -> None:
    """requirements-dev.txt is compiled with requirements.txt as constraints: the tests run
    with the versions the office runs with."""
    running, development = _lock("requirements.txt"), _lock("requirements-dev.txt")
    differ = {
        f"{name}: {pin.version} against {development[name].version}"
        for name, pin in running.items()
        if name in development and development[name].version != pin.version
    }
    assert not differ
    # colorama is Windows-only in both; every other running pin is in the development file
    assert set(running) <= set(development)


@pytest.mark.parametrize("lock", ["requirements.txt", "requirements-dev.txt"])
def test_the_lock_file_says_it_was_generated_by_make_lock(lock: str) -> None:
    """The header uv writes names the command; it is the Makefile's, so that the file is
    regenerated as it was generated."""
    header = (ROOT / lock).read_text(encoding="utf-8").splitlines()[:2]
    assert header[0] == "# This file was autogenerated by uv via the following command:"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    command = re.search(r"^LOCK := \$\(UV\) (pip compile .*)$", makefile, re.M)
    assert command, "the Makefile's LOCK command"
    flags = command[1].replace("--quiet ", "")
    assert header[1].startswith(f"#    uv {flags} "), header[1]
    assert header[1].endswith(f"-o {lock}")


def test_the_make_group_carries_the_build_backend_and_the_installer() -> None:
    """`make` installs the project with ``--no-build-isolation``: the build-system's
    requirements must be in the venv, that is in the ``make`` group, at the same range."""
    build = _requirements(PYPROJECT["build-system"]["requires"])
    for name, requirement in build.items():
        assert name in RUNNING
        assert RUNNING[name].specifier == requirement.specifier
    # and uv, which the Makefile bootstraps from requirements.txt's pin and installs with
    assert "uv" in _requirements(PYPROJECT["dependency-groups"]["make"])
