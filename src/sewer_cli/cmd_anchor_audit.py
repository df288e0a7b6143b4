"""``sewer-use anchor-audit`` and ``sewer-use audit-key new|list``: the audit chain's anchor
and keys (docs/audit-chain.md).

``anchor-audit`` (daily, the systemd timer of that name) first verifies the chain and compares
it with the anchors already written; when that passes it takes the chain's head (the last
event's sequence number, id and digest, the number of events, the key, the time) and writes
it OUTSIDE the database: a JSON file in the anchor directory (``SEWER_USE_AUDIT_ANCHOR_DIR``,
default ``DATA_DIR/audit-anchors``: one file named by the UTC time, and ``latest.json``), a
line of the log (logger ``sewer_office.audit``), and an e-mail to every Superintendent. When
it fails, no anchor is taken (a new anchor must never bless a cut or rewritten chain), the
problems are printed, logged as an error and e-mailed to the Superintendents. Exit status 0
anchored; 1 the chain does not verify, or a message could not be sent.

``audit-key new`` appends a fresh key, dated today, to the key file
(``SEWER_USE_AUDIT_KEY_FILE``; on a laptop the file generated in the data directory): it
signs the events of every process started after (restart the office), while the older keys
in the file keep verifying the events they signed. With ``--print`` it prints a new
``<key id>:<secret>`` entry for ``SEWER_USE_AUDIT_KEY`` instead. ``audit-key list`` shows the
key ids in use (never a secret).
"""

from __future__ import annotations

import argparse
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK, UsageError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "anchor-audit",
        help="verify the audit chain and write its head outside the database (daily)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--no-mail", action="store_true", help="write and log the anchor, e-mail nobody")
    p.set_defaults(func=run_anchor)

    k = subparsers.add_parser(
        "audit-key",
        help="the audit chain's keys: append a new one (rotation), list their ids",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument("action", choices=("new", "list"), help="new: append a key; list: key ids")
    k.add_argument(
        "--file",
        type=Path,
        default=None,
        help="the key file to append to (default SEWER_USE_AUDIT_KEY_FILE, or the laptop's)",
    )
    k.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help="print a new <key id>:<secret> entry for SEWER_USE_AUDIT_KEY; write no file",
    )
    k.set_defaults(func=run_key)


def run_anchor(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.core import anchor as anchors
    from sewer_office.core.audit import verify_chain
    from sewer_office.reminders.audit_anchor import Mailed, send_alarm, send_anchor

    problems: list[str] = []
    try:
        previous = anchors.stored()
    except anchors.AnchorError as e:
        previous, problems = [], [f"an anchor file is damaged: {e}"]
    checked, broken = verify_chain()
    if broken is not None:
        problems.insert(0, f"{broken} ({checked - 1} event(s) before it verify)")
    comparison = anchors.compare(previous) if previous else None
    if comparison is not None:
        problems += comparison.problems

    mailed: Mailed | None = None
    if problems:
        print(f"FAILED: the audit chain does not verify; no anchor taken ({checked} event(s))")
        for problem in problems:
            print(f"  - {problem}")
        logging.getLogger("sewer_office.audit").error(
            "the audit chain does NOT verify; no anchor taken: %s", "; ".join(problems)
        )
        if not args.no_mail:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
            mailed = send_alarm(problems, stamp)
            _print_mailed(mailed, "the problems")
        return EXIT_FOUND

    taken = anchors.take("anchor-audit")
    path = anchors.publish(taken)
    print(
        f"anchor written to {path}: {taken.events} audit event(s), last sequence number "
        f"{taken.seq}, digest {taken.digest or '-'} (key {taken.key_id or '-'})"
    )
    if comparison is not None:
        print(f"the chain verifies {comparison.summary()}")
    else:
        print("the chain verifies (no earlier anchor: this is the first)")
    if args.no_mail:
        return EXIT_OK
    mailed = send_anchor(taken, str(path))
    _print_mailed(mailed, "the anchor")
    return EXIT_FOUND if mailed.failed else EXIT_OK


def _print_mailed(mailed: Any, what: str) -> None:
    print(f"{what} e-mailed to {mailed.sent} Superintendent(s)", end="")
    print(f", {mailed.failed} message(s) FAILED (see /mail/messages/)" if mailed.failed else "")
    if mailed.without_address:
        print(f"  no e-mail address: {', '.join(mailed.without_address)}")


def _key_file(given: Path | None) -> Path:
    """The key file ``audit-key new`` appends to, found as the settings find it (without
    starting Django: the first key of a production installation is made before it starts)."""
    from sewer_office.core import audit_keys

    if given is not None:
        return given.expanduser().resolve()
    if os.environ.get(audit_keys.ENV_VARIABLE, "").strip():
        raise UsageError(
            f"the audit keys come from {audit_keys.ENV_VARIABLE}: add the new entry there "
            "(`sewer-use audit-key new --print`), or give --file"
        )
    configured = os.environ.get(audit_keys.FILE_VARIABLE, "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    if os.environ.get("SEWER_USE_PRODUCTION", "").strip().lower() in {"1", "true", "yes", "on"}:
        raise UsageError(f"set {audit_keys.FILE_VARIABLE} (the key file), or give --file")
    data_dir = Path(os.environ.get("SEWER_USE_DATA_DIR") or "var").resolve()
    return data_dir / audit_keys.LAPTOP_FILE


def run_key(args: argparse.Namespace) -> int:
    from sewer_office.core import audit_keys

    today = datetime.now(UTC).date()
    if args.action == "list":
        settings = _setup()
        ring = settings.SEWER_USE_AUDIT_KEYS
        print(f"audit keys ({ring.source}), oldest first:")
        for key in ring.keys:
            print(
                f"  {key.key_id}{'   (current: signs new events)' if key is ring.current else ''}"
            )
        return EXIT_OK
    if args.print_only:
        current = os.environ.get(audit_keys.ENV_VARIABLE, "")
        try:
            taken = tuple(k.key_id for k in audit_keys.parse_environment(current))
        except audit_keys.AuditKeyError as e:
            raise UsageError(str(e)) from None
        key_id = audit_keys.next_key_id(taken, today)
        print(f"{key_id}:{audit_keys.new_secret()}")
        return EXIT_OK
    path = _key_file(args.file)
    try:
        key = audit_keys.append_key(path, today)
    except audit_keys.AuditKeyError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"{path}: cannot be written ({e.strerror})") from None
    print(
        f"audit key {key.key_id} appended to {path}: it signs the events of every process "
        "started from now (restart the office: systemctl restart sewer-use); keep the older "
        "lines, they verify the events their keys signed"
    )
    return EXIT_OK
