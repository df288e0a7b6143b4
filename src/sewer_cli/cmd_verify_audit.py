"""``sewer-use verify-audit``: check the hash chain over the office's audit events.

Each audit event stores the SHA-256 of its content and of the event before it
(``sewer_office.core.chain``). Walking the chain oldest first, the command reports the first
event whose link or content does not verify — an event changed, removed or inserted below
the application — with exit status 1, or ``OK`` and the number of events with exit status 0.
"""

from __future__ import annotations

import argparse
from typing import Any

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "verify-audit", help="check the hash chain over the audit events (first broken link)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.core.audit import verify_chain

    checked, broken = verify_chain()
    if broken is not None:
        print(f"BROKEN at {broken} — {checked - 1} event(s) before it verify")
        return EXIT_FOUND
    print(f"OK: {checked} audit event(s), the chain verifies")
    return EXIT_OK
