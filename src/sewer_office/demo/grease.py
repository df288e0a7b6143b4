"""Demo grease traps: an installation for every food establishment whose trap is in, with
sizing checks and pump-out histories (a few overdue, a few coming due, one voided record).

Built through the grease services, after the permits' interceptor requirements exist: an
establishment whose requirement is still "required" (nothing installed yet) gets no
installation, so its facility page shows the § 196-19 F(2) warning. Everything is
deterministic for the town's seed and anchor.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from sewer_office.grease.choices import InterceptorKind
from sewer_office.grease.installations import register_interceptor
from sewer_office.grease.services import record_pump_out, void_pump_out
from sewer_office.permits.models import InterceptorRequirement
from sewer_office.registry.choices import EstablishmentKind

HAULERS = (
    ("Hudson Valley Grease Hauling", "NYSDEC 3A-114"),
    ("Dutchess Septic & Grease", "NYSDEC 3A-207"),
    ("Mid-Hudson Liquid Waste", "NYSDEC 3A-331"),
)
#: (fixtures served, in³): a 3-bay sink 48×24×12, a 2-bay 36×24×12, three 18×20×12 bays.
FIXTURES = (Decimal("13824"), Decimal("10368"), Decimal("12960"))
FOOD_KINDS = (
    EstablishmentKind.RESTAURANT,
    EstablishmentKind.FOOD_PREPARATION,
    EstablishmentKind.FOOD_PROCESSING,
)


def load_demo_grease(town: Any) -> None:
    """Register the demo installations and their pump-outs (the town's users, its anchor)."""
    inspector = town.users["inspector"]
    food = [e for k in FOOD_KINDS for e in town.establishments.get(k, [])]
    for k, est in enumerate(food):
        req = InterceptorRequirement.objects.filter(establishment=est, state__in=_INSTALLED).first()
        if req is None:
            continue
        installed = req.installed_on or town.anchor - timedelta(days=400)
        gravity = k % 7 == 3
        undersized = k % 8 == 6  # a 35 gpm unit on a 44.89 gpm sink: fails the check
        trap = register_interceptor(
            inspector,
            establishment=est,
            requirement=req,
            kind=InterceptorKind.GRAVITY if gravity else InterceptorKind.HYDROMECHANICAL,
            make_model="Precast 1,000 gal two-compartment" if gravity else "EXAMPLE GI-series",
            rated_gpm=None if gravity else Decimal("35" if undersized else "50"),
            grease_capacity_lb=None if gravity else Decimal("70" if undersized else "100"),
            capacity_gal=Decimal("1000") if gravity else None,
            location="Rear yard, manhole cover at grade"
            if gravity
            else (req.location or "Kitchen, under the three-bay sink"),
            accessible=k % 9 != 8,
            access_note="" if k % 9 != 8 else "Under a walk-in cooler shelf: hard to open.",
            installed_on=installed,
            fixture_volume_in3=None
            if gravity
            else (FIXTURES[0] if undersized else FIXTURES[k % len(FIXTURES)]),
            drain_minutes=1,
            dfu=30 if gravity else None,
            today=town.anchor,
        )
        _pump_outs(town, trap, k, installed)
    _oil_sand(town)


_INSTALLED = ("installed", "approved")


def _pump_outs(town: Any, trap: Any, k: int, installed: Any) -> None:
    """Pump-outs every 70–90 days; every 5th trap stopped 100–160 days ago (overdue)."""
    rng = town.rng
    anchor = town.anchor
    stop = anchor - timedelta(days=100 + 15 * (k % 5)) if k % 5 == 2 else anchor
    day = installed + timedelta(days=rng.randint(60, 85))
    owner_user = _representative(trap)
    n = 0
    while day <= stop:
        name, permit = HAULERS[(k + n) % len(HAULERS)]
        pump = record_pump_out(
            owner_user if owner_user and n % 4 == 3 else town.users["inspector"],
            trap,
            pumped_on=day,
            hauler_name=name,
            hauler_permit=permit,
            volume_gal=Decimal(rng.choice((250, 300, 400, 500, 750))),
            grease_percent=Decimal(rng.randint(12, 30)),
            manifest_number=f"M-{trap.pk:03d}-{n + 1:03d}",
            today=anchor,
        )
        if k == 1 and n == 0:
            void_pump_out(
                town.users["engineer"], pump, "Entered on the wrong trap: manifest was for #2."
            )
        n += 1
        day += timedelta(days=rng.randint(70, 90))


def _representative(trap: Any) -> Any:
    """The operator's outside user, if one represents it (self-reported pump-outs)."""
    return trap.establishment.operator.representatives.first()


def _oil_sand(town: Any) -> None:
    """The installed oil and sand interceptors of § 196-19 F(1) (no sizing method applies)."""
    superintendent = town.users["superintendent"]
    reqs = InterceptorRequirement.objects.filter(
        kind="oil_sand_interceptor", state__in=_INSTALLED
    ).select_related("establishment")
    for req in reqs:
        register_interceptor(
            superintendent,
            establishment=req.establishment,
            requirement=req,
            kind=InterceptorKind.OIL_SAND,
            capacity_gal=Decimal("1000"),
            location=req.location or "Service bay drain line",
            accessible=True,
            installed_on=req.installed_on,
            cleaning_interval_days=180,
            today=town.anchor,
        )
