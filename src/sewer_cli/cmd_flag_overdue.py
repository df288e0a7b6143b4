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
Then a response of the adopted enforcement response plan not issued within its time frame (the
first response from the day a violation was opened; the next step from the day after a deadline
passed uncorrected) is a RESPONSE_LATE finding, once per violation and step — the Town's own
lateness, never a violation by the user (403.8(f)(5)).

Of the federal program (40 CFR 403): a compliance-schedule milestone not completed by its date
is a MILESTONE_MISSED finding, and a violation when still uncompleted 90 days after it
(403.8(f)(2)(viii)(E)); an industrial approval past its expiry while the facility still
discharges is an APPROVAL_EXPIRED finding (403.8(f)(1)(iii)). Each once.

The program's own oversight (``pretreatment.oversight``, ``pretreatment.repeat_samples``): on
the first day after a program year, each user that was an SIU in it and was not inspected, or
not sampled by the Town, in it is a SIU_NOT_INSPECTED or SIU_NOT_SAMPLED finding — the Town's
duty (403.8(f)(2)(v)), never a violation by the user; and a violation shown by a user's own
sample whose repeat did not reach the Town within 30 days of its result, unless the Town
sampled in between or monthly, is a NO_REPEAT_SAMPLE finding (403.12(g)(2)). Each once.
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
    from sewer_office.enforcement.lateness import flag_late_responses
    from sewer_office.enforcement.schedules import flag_missed_milestones
    from sewer_office.enforcement.services import advance_clocks
    from sewer_office.grease.services import flag_overdue_pump_outs
    from sewer_office.meters.services import flag_unreported_slugs
    from sewer_office.permits.services.industrial import flag_expired_approvals
    from sewer_office.pretreatment.oversight import flag_siu_oversight
    from sewer_office.pretreatment.repeat_samples import flag_missing_repeat_samples
    from sewer_office.pretreatment.report_dues import flag_late_reports

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
    not_inspected, not_sampled = flag_siu_oversight(day)
    print(
        f"{not_inspected} SIU-not-inspected and {not_sampled} SIU-not-sampled finding(s) "
        "recorded (40 CFR 403.8(f)(2)(v))"
    )
    print(
        f"{flag_missing_repeat_samples(day)} missing repeat-sample finding(s) recorded "
        "(40 CFR 403.12(g)(2))"
    )
    missed, opened = flag_missed_milestones(day)
    print(f"{missed} missed-milestone finding(s) recorded; {opened} violation(s) opened (90 days)")
    print(f"{advance_clocks(day)} violation(s) past their correction deadline: fines accruing")
    print(
        f"{flag_late_responses(day)} enforcement response(s) late against the adopted plan "
        "(40 CFR 403.8(f)(5))"
    )
    return 0
