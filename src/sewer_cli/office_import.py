"""What the office's import commands share (``import-results``, ``import-facilities``,
``import-records``; the parcel roll's commands can use it as well): the options ``--dry-run``,
``--format table|json`` and ``--as USERNAME``, the office user an import is recorded as, a
message on standard error with its exit status (:class:`Stop`, caught by :func:`command`), and
the report as JSON or as a table.

Every command :func:`command` wraps reads its file without the web's upload cap
(``SEWER_USE_MAX_UPLOAD_BYTES``): the operator who runs it on the server already holds the file
and the machine, and a county laboratory's year of results is larger than what a page takes.

Nothing here imports Django: the commands set the office up when they run (start-up time).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .cmd_office import NoSuchUser, _setup, office_user
from .main import EXIT_UNUSABLE
from .output import table

AS_HELP = "record the import as this office user (default: the office itself)"


def add_options(p: argparse.ArgumentParser, *, dry_run: str) -> None:
    """``--dry-run`` (``dry_run`` is its help), ``--format table|json`` and ``--as USERNAME``."""
    p.add_argument("--dry-run", action="store_true", help=dry_run)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--as", dest="username", default=None, help=AS_HELP)


class Stop(Exception):
    """The command stops: ``message`` goes to standard error, ``status`` is its exit status."""

    def __init__(self, message: str, status: int = EXIT_UNUSABLE) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


Run = Callable[[argparse.Namespace], int]


def command(prog: str) -> Callable[[Run], Run]:
    """A command's ``run`` whose :class:`Stop` prints ``prog: message`` on standard error and
    returns its status; it runs within ``operator_files`` (no upload cap: a file of any size the
    machine can hold)."""

    def wrap(run: Run) -> Run:
        @functools.wraps(run)
        def guarded(args: argparse.Namespace) -> int:
            from sewer_office.core.errors import operator_files

            try:
                with operator_files():
                    return run(args)
            except Stop as e:
                print(f"{prog}: {e.message}", file=sys.stderr)
                return e.status

        return guarded

    return wrap


def office_actor(username: str | None) -> Any:
    """The office set up (Django) and the user ``--as`` names (None: the office itself);
    :class:`Stop` (exit 2) for an unknown user."""
    _setup()
    try:
        return office_user(username)
    except NoSuchUser as e:
        raise Stop(str(e)) from None


def emit(args: argparse.Namespace, report: Mapping[str, Any], show: Callable[[], None]) -> None:
    """The report as one line of JSON (``--format json``), else ``show()`` prints it."""
    if args.format == "json":
        json.dump(report, sys.stdout, ensure_ascii=False, default=str)
        sys.stdout.write("\n")
    else:
        show()


def plural(n: int, word: str) -> str:
    """``1 error``, ``2 errors``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def refusal(name: str, errors: Iterable[tuple[int, str, str]], *, nothing: str) -> list[str]:
    """A refused import's lines: ``NAME: refused, nothing stored (2 errors):`` (``nothing`` says
    what was not done) and the table of its errors by row and field."""
    rows = [(str(row), field, message) for row, field, message in errors]
    return [
        f"{name}: refused, {nothing} ({plural(len(rows), 'error')}):",
        table(["row", "field", "message"], rows),
    ]
