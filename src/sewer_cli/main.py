"""``sewer-use`` — the single command-line entry point.

Each sub-command lives in a module ``sewer_cli/cmd_<name>.py`` that defines
``register(subparsers)``, so adding a command is adding a file (and its line in
:data:`COMMANDS`, which a test checks against every ``cmd_*.py``).
Rules commands work without Django; office commands hand over to Django.

Why the table: start-up cost. The commands need polars, numpy, pint, pyarrow, matplotlib,
networkx or Django, and importing them all takes about a second — longer than most commands
take to answer ``--help``. So the top-level parser lists the commands from :data:`COMMANDS`
(name → module, one-line help) without importing them, and imports only the module of the
command being run (or whose ``--help`` is asked). Each ``cmd_*.py`` in turn imports at module
level only what its ``register()`` needs, and loads its heavy dependencies when it runs. This
is not about import cycles; it is the time a user waits.

Exit status convention: 0 nothing to report, 1 something found (a violation, a row error),
2 unusable input (a missing column, an unreadable file) — with a message, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __name__ as _pkg_name

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_UNUSABLE = 2


class UsageError(Exception):
    """Unusable input: printed as ``sewer-use: <message>`` with exit status 2."""


# Every sub-command: name → (module of sewer_cli that registers it, the one-line help it gives).
# In the order of the modules, and within a module in the order its register() adds them.
COMMANDS: dict[str, tuple[str, str]] = {
    "anchor-audit": (
        "cmd_anchor_audit",
        "verify the audit chain and write its head outside the database (daily)",
    ),
    "audit-key": (
        "cmd_anchor_audit",
        "the audit chain's keys: append a new one (rotation), list their ids",
    ),
    "backup": (
        "cmd_backup",
        "back up the office: database dump, uploaded files and a manifest (SHA-256)",
    ),
    "restore": ("cmd_backup", "restore a backup of the office into an empty installation"),
    "bill": (
        "cmd_bill",
        "§ 196-19 E(1)(d): a billing run of the facilities' surcharges for a period",
    ),
    "check": (
        "cmd_check",
        "evaluate laboratory results against the ordinance and permit limits",
    ),
    "demo-report": ("cmd_demo_report", "evaluate the bundled examples (what `make run` shows)"),
    "export-all": (
        "cmd_export_all",
        "export every record and file of the office (CSV, JSON, data dictionary)",
    ),
    "import-all": ("cmd_export_all", "load an export (export-all) into an empty installation"),
    "fines": (
        "cmd_fines",
        "§ 196-22: correction deadline and accrued daily fine of a notice of violation",
    ),
    "flag-overdue": (
        "cmd_flag_overdue",
        "record the findings time alone creates: slugs, pump-outs, milestones, approvals (daily)",
    ),
    "grease-interceptor": (
        "cmd_grease_interceptor",
        "§ 196-19 F(2): size a grease interceptor (PDI G-101 or UPC table)",
    ),
    "grinder": (
        "cmd_grinder",
        "§ 196-19 D(3): does a garbage grinder need the Superintendent's approval?",
    ),
    "icis-export": (
        "cmd_icis_export",
        "40 CFR 403.12(i): the annual pretreatment report as ICIS-NPDES XML (for EPA)",
    ),
    "import-facilities": (
        "cmd_import_facilities",
        "import a town's spreadsheet of users and facilities",
    ),
    "import-parcels": (
        "cmd_import_parcels",
        "import the county's tax parcel roll into the office",
    ),
    "import-districts": (
        "cmd_import_parcels",
        "import the sewer districts' boundaries into the office",
    ),
    "import-readings": (
        "cmd_import_readings",
        "append a meter's readings (CSV/Parquet) in the office and judge them",
    ),
    "import-records": (
        "cmd_import_records",
        "import records of the past (permits, approvals, inspections, violations)",
    ),
    "import-results": ("cmd_import_results", "import a laboratory results file into the office"),
    "jurisdiction": (
        "cmd_jurisdiction",
        "a town's law as a package: new (from a model ordinance), list, show, check",
    ),
    "network-check": (
        "cmd_network_check",
        "validate a sewer network (GeoJSON or CSV) and summarise it",
    ),
    "import-network": ("cmd_network_office", "import the sewer network (GeoJSON) into the office"),
    "trace": (
        "cmd_network_office",
        "facilities and properties upstream of a manhole (office network)",
    ),
    "serve": ("cmd_office", "run the sewer office (web pages and API)"),
    "demo": ("cmd_office", "run the sewer office with the demo town loaded"),
    "manage": ("cmd_office", "run a Django management command of the office"),
    "params": ("cmd_params", "print the parameter values in force on a date"),
    "plant-temperature": (
        "cmd_plant_temperature",
        "§ 196-19 C(5): plant influent temperature caused by a discharge",
    ),
    "reevaluate-slugs": (
        "cmd_reevaluate_slugs",
        "judge stored meter readings again (§ 196-15 SLUG) and supersede old slugs",
    ),
    "sections": ("cmd_sections", "print the registry of the article's sections with coverage"),
    "send-reminders": (
        "cmd_send_reminders",
        "e-mail the reminders and notifications owed today, each once (daily, from cron)",
    ),
    "sewer-design": (
        "cmd_sewer_design",
        "§ 196-18 D, F, G, H: check a building sewer design (JSON)",
    ),
    "slugs": (
        "cmd_slugs",
        "slugs (§ 196-15 SLUG) and pH/temperature excursions in continuous meter data",
    ),
    "snc": (
        "cmd_snc",
        "40 CFR 403.8(f)(2)(viii): industrial users in significant noncompliance",
    ),
    "snc-office": (
        "cmd_snc_office",
        "40 CFR 403.8(f)(2)(viii): determine SNC from the office's stored results",
    ),
    "surcharge": (
        "cmd_surcharge",
        "§ 196-19 E(1)(d), J: extra-strength surcharge of a billing period",
    ),
    "verify-audit": (
        "cmd_verify_audit",
        "check the audit chain (keys, links) and compare it with its anchors",
    ),
    "violations": ("cmd_violations", "list the office's violations (§ 196-22)"),
}


def _chosen_command(argv: Sequence[str]) -> str | None:
    """The sub-command named on the command line (the top level has no options but -h)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the module of the command it names is imported.

    Without ``argv`` every command module is imported and registered (the full parser).
    With it, the other commands are listed by name and help from :data:`COMMANDS` only.
    """
    parser = argparse.ArgumentParser(
        prog="sewer-use",
        description="The Town of Wappinger's sewer-use law (Town Code ch. 196, art. VII) as code.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if argv is None:
        wanted = {module for module, _ in COMMANDS.values()}
    else:
        chosen = COMMANDS.get(_chosen_command(argv) or "")
        wanted = {chosen[0]} if chosen else set()
    registered: set[str] = set()
    for name, (module, help_text) in COMMANDS.items():
        if module not in wanted:
            sub.add_parser(name, help=help_text)
        elif module not in registered:
            importlib.import_module(f"{_pkg_name}.{module}").register(sub)
            registered.add(module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments)
    args = parser.parse_args(arguments)
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
    # ``python -m sewer_cli.main``: this file runs as ``__main__``, while the commands import
    # ``sewer_cli.main`` — a second copy, whose UsageError this copy's ``main`` would not catch.
    from sewer_cli.main import main as _main

    sys.exit(_main())
