"""``meter_days --check | --rebuild``: the daily volumes against the stored readings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.meters.services import params


class Command(BaseCommand):
    help = (
        "Compare each meter's daily volumes (count and exact sum of its readings per town day, "
        "read by billing and pretreatment) with the stored readings (--check, exit 1 on a "
        "difference), or recompute them from the readings (--rebuild, audited)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--check", action="store_true")
        action.add_argument("--rebuild", action="store_true")
        parser.add_argument("--meter", metavar="IDENT", help="one meter (default: every meter)")

    def handle(self, *args: Any, **options: Any) -> None:
        meters = None
        if options["meter"]:
            meters = list(Meter.objects.filter(ident=options["meter"]))
            if not meters:
                raise CommandError(f"no meter '{options['meter']}'")
        tz = params().timezone
        if options["check"]:
            diffs = days.check(tz, meters)
            for d in diffs:
                self.stdout.write(str(d))
            if diffs:
                raise CommandError(
                    f"{len(diffs)} day(s) differ from the readings: run meter_days --rebuild"
                )
            self.stdout.write("OK: every meter's daily volumes match its readings.")
            return
        mended = days.rebuild(None, tz, meters)
        for d in mended:
            self.stdout.write(f"mended {d}")
        self.stdout.write(f"Rebuilt: {len(mended)} day(s) mended.")
