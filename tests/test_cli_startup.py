"""Start-up: ``sewer-use --help`` and every sub-command's ``--help`` import no heavy library.

Deterministic (no clock): a child process asks for each help in turn and reports which of the
heavy libraries had been imported by then. The timing itself is ``bench/cli_startup.py``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import subprocess
import sys

import sewer_cli
from sewer_cli.main import COMMANDS, build_parser

HEAVY = ("polars", "numpy", "pint", "django", "matplotlib", "pyarrow", "networkx")

# ``manage`` hands every argument, --help included, to Django's own command line.
HELP_RUNS_THE_COMMAND = {"manage"}

CHILD = """
import contextlib, io, json, sys
from sewer_cli.main import main
heavy = {heavy!r}
loaded = {{}}
for argv in {argvs!r}:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(argv)
        except SystemExit:
            pass
    loaded[" ".join(argv)] = sorted({{m.split(".")[0] for m in sys.modules}} & set(heavy))
print(json.dumps(loaded))
"""


def _loaded_after(argvs: list[list[str]]) -> dict[str, list[str]]:
    code = CHILD.format(heavy=HEAVY, argvs=argvs)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, list[str]] = json.loads(done.stdout)
    return result


def test_top_level_help_imports_no_command_module() -> None:
    code = (
        "import contextlib, io, sys\n"
        "from sewer_cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main(['--help'])\n"
        "    except SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('sewer_cli.cmd_')"
        " or m.split('.')[0] in ('sewer_rules', 'sewer_office')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_no_help_imports_a_heavy_library() -> None:
    argvs = [["--help"]] + [
        [name, "--help"] for name in COMMANDS if name not in HELP_RUNS_THE_COMMAND
    ]
    loaded = _loaded_after(argvs)
    assert list(loaded) == [" ".join(a) for a in argvs]
    # the child asks in turn, so a library is blamed on the first help that loaded it
    offenders, seen = {}, set()
    for argv, mods in loaded.items():
        if set(mods) - seen:
            offenders[argv] = sorted(set(mods) - seen)
        seen |= set(mods)
    assert not offenders, f"--help imported heavy libraries: {offenders}"


def test_running_a_command_still_loads_what_it_needs() -> None:
    """The check above would pass vacuously if the child never reached the commands."""
    loaded = _loaded_after([["check", "examples/lab-results-2026-03.csv", "--format", "json"]])
    assert "polars" in loaded["check examples/lab-results-2026-03.csv --format json"]


def _registered(module: str) -> list[tuple[str, str, str]]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    importlib.import_module(f"sewer_cli.{module}").register(sub)
    return [(a.dest, module, str(a.help)) for a in sub._choices_actions]


def test_the_table_lists_every_command_module_with_its_own_help() -> None:
    modules = sorted(
        m.name for m in pkgutil.iter_modules(sewer_cli.__path__) if m.name.startswith("cmd_")
    )
    registered = [row for module in modules for row in _registered(module)]
    table = [(name, module, help_text) for name, (module, help_text) in COMMANDS.items()]
    assert table == registered


def test_the_full_parser_and_the_lazy_one_agree() -> None:
    full = build_parser()
    for name in COMMANDS:
        lazy = build_parser([name])
        assert _choices(lazy) == _choices(full) == list(COMMANDS)
        assert _choices(lazy)  # and the chosen command's parser is the real one
    lazy = build_parser(["sections", "--help"])
    action = next(a for a in lazy._actions if isinstance(a, argparse._SubParsersAction))
    sections = action.choices["sections"]
    assert any(a.dest == "citation" for a in sections._actions)
    assert not any(a.dest == "citation" for a in action.choices["params"]._actions)


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(action.choices, key=list(COMMANDS).index)


def test_constants_restated_for_help_agree_with_the_rules() -> None:
    from sewer_cli import cmd_grease_interceptor, cmd_sections, cmd_slugs
    from sewer_engines.monitoring import source
    from sewer_rules.monitoring import instants as series
    from sewer_rules.ordinance.s196_19_use_of_public_sewers import grease_interceptors
    from sewer_rules.sections import Coverage

    assert cmd_slugs.DEDUPE == source.DEDUPE
    assert (cmd_slugs.US_PER_SECOND, cmd_slugs.US_PER_MINUTE, cmd_slugs.US_PER_HOUR) == (
        series.US_PER_SECOND,
        series.US_PER_MINUTE,
        series.US_PER_HOUR,
    )
    assert cmd_grease_interceptor.PDI_DRAIN_MINUTES == grease_interceptors.PDI_DRAIN_MINUTES
    assert tuple(c.value for c in Coverage) == cmd_sections.STATUSES
