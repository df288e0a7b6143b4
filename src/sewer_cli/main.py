"""``sewer-use`` — the single command-line entry point.

Each sub-command lives in a module ``sewer_cli/cmd_<name>.py`` that defines
``register(subparsers)``; this module finds them, so adding a command is adding a file.
Rules commands work without Django; office commands (later) hand over to Django.

Exit status convention: 0 nothing to report, 1 something found (a violation, a row error),
2 unusable input (a missing column, an unreadable file) — with a message, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from . import __name__ as _pkg_name

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_UNUSABLE = 2


class UsageError(Exception):
    """Unusable input: printed as ``sewer-use: <message>`` with exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sewer-use",
        description="The Town of Wappinger's sewer-use law (Town Code ch. 196, art. VII) as code.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    pkg = importlib.import_module(_pkg_name)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            importlib.import_module(f"{_pkg_name}.{info.name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_UNUSABLE
    try:
        code: int = args.func(args)
    except UsageError as e:
        print(f"sewer-use: {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
