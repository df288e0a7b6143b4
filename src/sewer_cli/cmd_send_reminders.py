"""``sewer-use send-reminders [--on YYYY-MM-DD] [--dry-run]``: e-mail what people owe, once.

Run daily (cron or the systemd timer in deploy/): sampling due, compliance reports due in 30 and
7 days, a notice's correction deadline in 3 days, overdue invoices and pump-outs due, and the
events since the last run — a notice of violation served, a correction verified, an invoice
issued, an application's state changed. Each goes to the representatives of the persons it
concerns (§ 196-15 PERSON), who choose on ``/mail/preferences/`` which reminders they get
(legal notices are always sent). A reminder already sent is never sent again, whatever the
number of runs; a run missed on a reminder's first day sends it on the next.
Prints, per topic, what was sent, already sent, not wanted, without an address or failed.
Exit 0; 1 when a message failed (it is tried again by the next run).
"""

from __future__ import annotations

import argparse
from datetime import date
from typing import Any

from .cmd_office import _setup


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "send-reminders",
        help="e-mail the reminders and notifications owed today, each once (daily, from cron)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--on",
        type=date.fromisoformat,
        default=None,
        help="as of this day (default today, town time)",
    )
    p.add_argument("--dry-run", action="store_true", help="count what would be sent; send nothing")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    from django.utils import timezone

    from sewer_office.reminders.services import run as send

    day = args.on or timezone.localdate()
    tally = send(day, dry_run=args.dry_run)
    what = "would be sent (dry run: nothing sent)" if args.dry_run else "sent"
    print(f"Reminders of {day:%Y-%m-%d}: {tally.total('sent')} {what}")
    for line in tally.lines():
        print(f"  {line}")
    return 1 if tally.total("failed") else 0
