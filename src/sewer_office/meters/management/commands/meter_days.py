"""``meter_days --check | --rebuild``: the daily volumes against the stored readings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.meters.services import timezone_of


def by_zone(meters: list[Meter]) -> dict[str, list[Meter]]:
    """``meters`` by the time zone of each one's town: a meter's days are its town's days."""
    out: dict[str, list[Meter]] = {}
    for meter in meters:
        out.setdefault(timezone_of(meter), []).append(meter)
    return out


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
        meters = Meter.objects.select_related("sampling_point__establishment").order_by("ident")
        if options["meter"]:
            meters = meters.filter(ident=options["meter"])
            if not meters.exists():
                raise CommandError(f"no meter '{options['meter']}'")
        zones = by_zone(list(meters))
        if options["check"]:
            diffs = sorted(
                (d for tz, group in zones.items() for d in days.check(tz, group)),
                key=lambda d: (d.meter, d.day),
            )
            for d in diffs:
                self.stdout.write(str(d))
            if diffs:
                raise CommandError(
                    f"{len(diffs)} day(s) differ from the readings: run meter_days --rebuild"
                )
            self.stdout.write("OK: every meter's daily volumes match its readings.")
            return
        with transaction.atomic():  # every town's meters at once, as one rebuild
            mended = [d for tz, group in zones.items() for d in days.rebuild(None, tz, group)]
        for d in sorted(mended, key=lambda d: (d.meter, d.day)):
            self.stdout.write(f"mended {d}")
        self.stdout.write(f"Rebuilt: {len(mended)} day(s) mended.")
