"""``sewer-use reevaluate-slugs [--meter ID] [--dry-run] [--reason TEXT] [--as USERNAME]``.

Judges the office's stored meter readings again under the reading of § 196-15 SLUG now in
force (the mean of the normal-operation readings, carried past a day that holds none; the
meter's recorded fixed baselines; a run ended by a gap of three usual intervals, never less
than 5 minutes) and supersedes the stored slugs no longer found as recorded — never editing
or deleting them: a re-evaluation record with its reason, the slugs found anew, audit events,
in one transaction per meter (:mod:`sewer_office.meters.reevaluation`). ``--dry-run`` prints what would change.
Exit status: 0 nothing to change (or a dry run), 1 slugs superseded or found, 2 unknown meter
or user.

Only argparse here: the office (Django) is imported when the command runs.
"""

from __future__ import annotations

import argparse
import sys

from .main import EXIT_FOUND, EXIT_OK, EXIT_UNUSABLE


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "reevaluate-slugs",
        help="judge stored meter readings again (§ 196-15 SLUG) and supersede old slugs",
    )
    p.add_argument("--meter", metavar="ID", help="only this meter (default: every meter)")
    p.add_argument("--dry-run", action="store_true", help="say what would change, write nothing")
    p.add_argument("--reason", default=None, help="the reason recorded (default: the new reading)")
    p.add_argument(
        "--as", dest="username", default=None, help="record it as this office user (staff)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .cmd_office import NoSuchUser, _setup, office_user

    _setup()
    from sewer_office.core.errors import OfficeError
    from sewer_office.core.town_law import OtherLaw
    from sewer_office.meters.models import Meter
    from sewer_office.meters.reevaluation import DEFAULT_REASON, reevaluate_slugs
    from sewer_office.meters.services import timezone_of

    meters = Meter.objects.select_related("sampling_point__establishment").order_by("ident")
    if args.meter is not None:
        meters = meters.filter(ident=args.meter)
        if not meters.exists():
            print(f"reevaluate-slugs: no meter {args.meter!r}", file=sys.stderr)
            return EXIT_UNUSABLE
    try:
        actor = office_user(args.username)
    except NoSuchUser as e:
        print(f"reevaluate-slugs: {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    changed = False
    for meter in meters:
        try:
            done = reevaluate_slugs(
                meter, actor, reason=args.reason or DEFAULT_REASON, dry_run=args.dry_run
            )
        except OtherLaw as refused:  # a meter of a town whose law is its own: not judged
            print(f"reevaluate-slugs: {meter.ident}: {refused.message}", file=sys.stderr)
            if args.meter is not None:
                return EXIT_UNUSABLE
            continue
        except OfficeError as refused:
            print(f"reevaluate-slugs: {refused.message}", file=sys.stderr)
            return EXIT_UNUSABLE
        changed |= done.changed
        verb = "would supersede" if args.dry_run else "superseded"
        print(
            f"{meter.ident}: {done.readings} readings judged; {len(done.kept)} slug(s) kept, "
            f"{len(done.superseded)} {verb}, {len(done.new)} found anew"
        )
        tz = timezone_of(meter)
        for old in done.superseded:
            print(f"  - {old.start.isoformat()} to {old.end.isoformat()} ({old.readings} readings)")
        for slug in done.new:
            shown = slug.as_dict(tz)
            print(f"  + {shown['start']} to {shown['end']} ({slug.readings} readings)")
    return EXIT_FOUND if changed and not args.dry_run else EXIT_OK
