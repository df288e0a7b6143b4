"""``sewer-use flag-overdue [--date YYYY-MM-DD]``: record the findings that time alone creates.

Run daily (cron). Three clocks of the office become findings when they run out, each once:

- a slug with no immediate report from the user recorded within the office's window
  (§ 196-19 D(9)(d): "All slug discharges must be immediately reported by the user");
- a grease trap or interceptor whose cleaning interval has passed since its last pump-out
  (the interval is the town's or the approval's choice; the article sets none);
- a required report of a significant industrial user (40 CFR 403.12) not received by its due
  date (more than 45 days late it is also significant noncompliance, 403.8(f)(2)(viii)(F)).

It also advances the § 196-22 clocks: a served notice whose deadline passed without a verified
correction moves its violation to "fines accruing", with its audit event (§ 196-22 B), once.

Of the federal program (40 CFR 403): a compliance-schedule milestone not completed by its date
is a MILESTONE_MISSED finding, and a violation when still uncompleted 90 days after it
(403.8(f)(2)(viii)(E)); an industrial approval past its expiry while the facility still
discharges is an APPROVAL_EXPIRED finding (403.8(f)(1)(iii)). Each once.
"""

from __future__ import annotations

import argparse
import importlib
from datetime import date, datetime, time
from typing import Any

from .cmd_office import _setup


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "flag-overdue",
        help="record the findings time alone creates: slugs, pump-outs, milestones, approvals (daily)",
    )
    p.add_argument(
        "--date",
        type=date.fromisoformat,
        default=None,
        help="judge as of this day (default today, town time)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    timezone = importlib.import_module("django.utils.timezone")
    from sewer_office.enforcement.schedules import flag_missed_milestones
    from sewer_office.enforcement.services import advance_clocks
    from sewer_office.grease.services import flag_overdue_pump_outs
    from sewer_office.meters.services import flag_unreported_slugs
    from sewer_office.permits.services.industrial import flag_expired_approvals
    from sewer_office.pretreatment.services import flag_late_reports

    day = args.date or timezone.localdate()
    now = (
        timezone.now()
        if args.date is None
        else timezone.make_aware(datetime.combine(day, time(23, 59)))
    )
    slugs = flag_unreported_slugs(now)
    pump_outs = flag_overdue_pump_outs(day)
    print(f"{slugs} unreported slug finding(s) recorded")
    print(f"{pump_outs} overdue pump-out finding(s) recorded")
    print(f"{flag_late_reports(day)} late required report finding(s) recorded (40 CFR 403.12)")
    print(f"{flag_expired_approvals(day)} expired-approval finding(s) recorded")
    missed, opened = flag_missed_milestones(day)
    print(f"{missed} missed-milestone finding(s) recorded; {opened} violation(s) opened (90 days)")
    print(f"{advance_clocks(day)} violation(s) past their correction deadline: fines accruing")
    return 0
