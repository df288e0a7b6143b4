"""The demo town being built: its clock, its seeded randomness and what each step made.

Every builder of the demo (:mod:`.build` and the stories of each app) reads and fills the one
:class:`Town`; it stands apart from :mod:`.build`, which calls the builders, so that they
import it without importing the whole build.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sewer_office.registry.models import Establishment, Person, Property, ServiceArea

#: The demo town's clock (every back-dated moment of the demo is in it).
TOWN = ZoneInfo("America/New_York")


@dataclass
class Town:
    """What the builder made, for the records step and for tests."""

    anchor: date
    rng: random.Random
    users: dict[str, Any] = field(default_factory=dict)
    areas: dict[str, ServiceArea] = field(default_factory=dict)
    properties: dict[str, list[Property]] = field(default_factory=dict)
    new_construction: dict[str, list[Property]] = field(default_factory=dict)
    establishments: dict[str, list[Establishment]] = field(default_factory=dict)
    developer: Person | None = None
    subdivision_parcels: list[Property] = field(default_factory=list)
    owner_person: Person | None = None
    owner_property: Property | None = None

    def moment(self, days_ago: int, minutes: int = 0) -> datetime:
        """A time ``days_ago`` days before the anchor, at 9:00 town time plus ``minutes``."""
        day = self.anchor - timedelta(days=days_ago)
        return datetime.combine(day, time(9, 0), tzinfo=TOWN) + timedelta(minutes=minutes)
