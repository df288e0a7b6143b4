"""``load_demo``: generate the demo town (deterministic for a seed and anchor date)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sewer_office.accounts.towns import primary, values_of
from sewer_office.demo.build import build_demo_town
from sewer_office.registry.models import Property


class Command(BaseCommand):
    help = "Load the demo town: ~300 properties, ~40 businesses, permits in every state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=4)
        parser.add_argument(
            "--anchor",
            type=date.fromisoformat,
            default=None,
            help="'today' of the demo (YYYY-MM-DD)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if Property.objects.exists():
            raise CommandError(
                "The database already holds a town: load the demo into an empty database."
            )
        params = values_of(primary())  # the demo town is the installation's primary
        if params.get("fee.building_sewer.class_1", date(2016, 1, 1)).value is None:
            raise CommandError(
                f"The jurisdiction '{params.jurisdiction}' has no building sewer fees configured: "
                "load the demo with SEWER_USE_JURISDICTION=demo (as `sewer-use demo` does)."
            )
        town = build_demo_town(seed=options["seed"], anchor=options["anchor"])
        total = sum(len(v) for v in town.properties.values()) + len(town.subdivision_parcels)
        self.stdout.write(f"Demo town loaded: {total} properties, anchor {town.anchor}.")
