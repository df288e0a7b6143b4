"""``sewer-use verify-audit [--anchor FILE]``: check the audit chain, and against its anchors.

Each audit event stores the keyed hash (HMAC-SHA256 under the audit key, which the database
does not hold) of its content, its sequence number and the event before it
(``sewer_office.core.chain``; the events of before the key, plain SHA-256). Walking the chain
oldest first, the command reports the first event whose link, number, key or content does
not verify — an event changed, removed or inserted below the application.

Then it compares the chain with its anchors, the heads written outside the database
(``sewer-use anchor-audit``, every backup): every anchor file of the anchor directory
(``SEWER_USE_AUDIT_ANCHOR_DIR``), or only the file given with ``--anchor`` (one kept in a
backup, or the one e-mailed to the Superintendent). It fails when the chain holds fewer
events than an anchor counted (the newest removed, the table emptied), or when an anchored
event is missing or has another digest (changed, and the chain after it re-hashed).

Exit status: 0 the chain verifies and agrees with its anchors (with no anchor at all, a
warning: only the chain itself was checked); 1 something does not verify (what, printed);
2 the anchor file given cannot be read.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK, UsageError

#: Anchor problems printed before "... and N more".
SHOWN = 8


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "verify-audit",
        help="check the audit chain (keys, links) and compare it with its anchors",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--anchor",
        type=Path,
        default=None,
        metavar="FILE",
        help="compare with this anchor file only (default: every anchor of the anchor directory)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.core import anchor as anchors
    from sewer_office.core.audit import verify_chain

    if args.anchor is not None:
        try:
            chosen = [anchors.read(args.anchor)]
        except anchors.AnchorError as e:
            raise UsageError(str(e)) from None
        where = str(args.anchor)
        damaged = ""
    else:
        where = str(anchors.anchor_dir())
        try:
            chosen, damaged = anchors.stored(), ""
        except anchors.AnchorError as e:
            chosen, damaged = [], str(e)

    checked, broken = verify_chain()
    failed = broken is not None
    if broken is not None:
        print(f"BROKEN at {broken} — {checked - 1} event(s) before it verify")
    else:
        print(f"OK: {checked} audit event(s), the chain verifies")

    if damaged:
        print(f"FAILED: an anchor file is damaged: {damaged}")
        failed = True
    elif not chosen:
        print(
            f"WARNING: no anchor in {where} (sewer-use anchor-audit writes one): only the "
            "chain itself was checked, not whether its newest events were removed",
            file=sys.stderr,
        )
    else:
        comparison = anchors.compare(chosen)
        if comparison.ok:
            print(f"OK {comparison.summary()}")
        else:
            failed = True
            print(f"FAILED {comparison.summary()}")
            for problem in comparison.problems[:SHOWN]:
                print(f"  - {problem}")
            if len(comparison.problems) > SHOWN:
                print(f"  ... and {len(comparison.problems) - SHOWN} more")
    if failed:
        logging.getLogger("sewer_office.audit").error(
            "the audit chain does NOT verify (sewer-use verify-audit)"
        )
        return EXIT_FOUND
    return EXIT_OK
