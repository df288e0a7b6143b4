"""Demo permits of the smaller kinds: subdivision sewers (§ 196-16 G, § 196-23), grinder
pumps, grease traps and interceptors, flushing notices — each in every state of its workflow.
Apart from :mod:`.approvals` (the industrial and cooling water approvals, the control
mechanism) so that each reads on its own; :class:`.records.Records` builds both.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sewer_office.permits.services.minor import (
    file_flushing_notice,
    file_grinder,
    require_interceptor,
)
from sewer_office.permits.services.subdivision import file_subdivision
from sewer_office.registry.choices import EstablishmentKind

from .base import RecordsBase
from .billing import pay_permit_fee


class MinorPermits(RecordsBase):
    """Subdivisions, grinders, interceptors and flushing notices of the demo town."""

    # --- § 196-16 G; § 196-23 subdivisions ------------------------------------------------------

    def subdivisions(self) -> None:
        t = self.town
        developer = t.developer
        assert developer is not None, "the town's developer is built before its subdivisions"
        clerk = self.user("clerk")
        plans = (
            (0, "Meadow Ridge", 24, "0.45", "480000.00", 600, 4),
            (1, "Orchard View Estates", 12, "0.60", "265000.00", 120, 3),
            (2, "Hilltop Farms", 8, "1.50", "95000.00", 90, 2),
            (3, "Brook Hollow", 16, "0.33", "310000.00", 12, 0),
            (3, "Cedar Knolls", 9, "0.40", "150000.00", 45, 1),
        )
        for i, name, lots, acres, cost, start, depth in plans:
            sub = file_subdivision(
                clerk,
                applicant=developer,
                prop=t.subdivision_parcels[i],
                name=name,
                lots=lots,
                smallest_lot_acres=Decimal(acres),
                estimated_cost=Decimal(cost),
                at=self.at(start),
            )
            steps: tuple[tuple[str, str, dict[str, Any]], ...] = (
                ("record_fee_payment", "clerk", {}),
                (
                    "record_health_approval",
                    "clerk",
                    {
                        "health_approval_ref": f"DCHD-S-{sub.pk:04d}",
                        "health_approved_on": self.day(start - 30),
                    },
                ),
                ("approve_plans", "engineer", {}),
                ("record_filing", "clerk", {"filed_with_planning_board_on": self.day(start - 60)}),
            )
            for k, (step, who, data) in enumerate(steps[:depth]):
                if step == "record_fee_payment":  # made by the payment of the fee invoice
                    day = start - 5 - 20 * k
                    sub = pay_permit_fee(clerk, sub, self.at(day), self.day(day))
                    continue
                sub = self.do(sub, step, who, start - 5 - 20 * k, data)
        rejected = file_subdivision(
            clerk,
            applicant=developer,
            prop=t.subdivision_parcels[1],
            name="Orchard View East",
            lots=30,
            smallest_lot_acres=Decimal("0.25"),
            estimated_cost=Decimal("610000.00"),
            at=self.at(340),
        )
        self.do(
            rejected,
            "reject",
            "engineer",
            320,
            reason="Plans show no connection to the trunk line; profiles incomplete.",
        )
        withdrawn = file_subdivision(
            clerk,
            applicant=developer,
            prop=t.subdivision_parcels[0],
            name="Meadow Ridge II",
            lots=6,
            smallest_lot_acres=Decimal("0.50"),
            estimated_cost=Decimal("90000.00"),
            at=self.at(220),
        )
        self.do(withdrawn, "withdraw", "clerk", 200, reason="Developer's letter: phase deferred.")

    # --- § 196-19 D(3) grinders -------------------------------------------------------------------

    def grinders(self) -> None:
        restaurants = self.town.establishments[EstablishmentKind.RESTAURANT]
        spec = (
            ("0.5", None),
            ("1.0", None),
            ("1.5", "approve"),
            ("2.0", "reject"),
            ("0.75", "approve"),
            ("1.0", "withdraw"),
        )
        for k, (hp, outcome) in enumerate(spec):
            est = restaurants[k]
            g = file_grinder(
                self.user("clerk"),
                applicant=est.operator,
                prop=est.building.property,
                establishment=est,
                make_model=f"InSinkErator SS-{int(Decimal(hp) * 100)}",
                motor_hp=Decimal(hp),
                at=self.at(200 - 30 * k),
            )
            if outcome == "approve":
                self.do(g, "approve", "superintendent", 190 - 30 * k)
            elif outcome == "reject":
                self.do(
                    g,
                    "reject",
                    "superintendent",
                    190 - 30 * k,
                    reason="Kitchen waste volume too high for the lateral; install a pulper with solids recovery instead.",
                )
            elif outcome == "withdraw":
                self.do(g, "withdraw", "clerk", 10, reason="Restaurant chose a food waste hauler.")

    # --- § 196-19 F grease traps and interceptors -------------------------------------------------

    def interceptors(self) -> None:
        t = self.town
        food = [
            e
            for k in (
                EstablishmentKind.RESTAURANT,
                EstablishmentKind.FOOD_PREPARATION,
                EstablishmentKind.FOOD_PROCESSING,
            )
            for e in t.establishments[k]
        ]
        for k, est in enumerate(food):
            start = 900 - 30 * k
            req = require_interceptor(
                self.user("clerk"), establishment=est, kind="grease_trap", at=self.at(start)
            )
            if k % 6 == 5:
                continue  # still required
            install = {
                "unit_type": "hydromechanical",
                "capacity": "50 gpm",
                "location": "Kitchen, under the three-bay sink",
                "accessible": True,
                "installed_on": self.day(start - 30),
            }
            req = self.do(req, "record_installation", "inspector", start - 30, install)
            if k % 6 == 4:
                continue  # installed, awaiting approval
            self.do(
                req,
                "approve",
                "superintendent",
                start - 40,
                {"health_approval_ref": f"DCHD-GT-{req.pk:04d}"},
            )
        commercial = {e.name: e for e in t.establishments[EstablishmentKind.COMMERCIAL]}
        basis = "Vehicle service bays discharge oil and sand to floor drains."
        for name, depth in (
            ("Route 9 Auto Care", 2),
            ("Quick Lube Express", 0),
            ("Myers Corners Car Wash", 1),
        ):
            req = require_interceptor(
                self.user("superintendent"),
                establishment=commercial[name],
                kind="oil_sand_interceptor",
                basis=basis,
                at=self.at(260),
            )
            if depth >= 1:
                req = self.do(
                    req,
                    "record_installation",
                    "superintendent",
                    200,
                    {
                        "unit_type": "oil/sand separator",
                        "capacity": "1000 gal",
                        "location": "Service bay drain line",
                        "accessible": True,
                    },
                )
            if depth >= 2:
                self.do(req, "approve", "superintendent", 190)

    # --- § 196-19 L flushing notices ----------------------------------------------------------------

    def flushing(self) -> None:
        t = self.town
        sites = (
            t.establishments[EstablishmentKind.RESTAURANT][6:]
            + t.establishments[EstablishmentKind.COMMERCIAL][:3]
        )
        plan = (
            ("completed", 300),
            ("completed", 120),
            ("acknowledged", 6),
            ("submitted", 2),
            ("objected", 40),
            ("withdrawn", 80),
        )
        for k, (state, start) in enumerate(plan):
            est = sites[k]
            n = file_flushing_notice(
                self.user("clerk"),
                applicant=est.operator,
                building=est.building,
                planned_on=self.day(start - 7),
                water_source="Town water supply (hydrant meter)",
                water_unpolluted=True,
                tri_municipal_notified_on=self.day(start),
                at=self.at(start),
            )
            if state == "withdrawn":
                self.do(
                    n, "withdraw", "clerk", start - 1, reason="Flushing rescheduled by the owner."
                )
                continue
            if state == "objected":
                self.do(
                    n,
                    "object",
                    "superintendent",
                    start - 2,
                    reason="Proposed flushing water is recycled process water, not unpolluted water (§ 196-15).",
                )
                continue
            if state in ("acknowledged", "completed"):
                n = self.do(n, "acknowledge", "superintendent", start - 1)
            if state == "completed":
                self.do(
                    n, "record_flushing", "clerk", start - 7, {"flushed_on": self.day(start - 7)}
                )
