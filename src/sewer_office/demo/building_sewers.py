"""Demo building sewer permits (§ 196-18) in every state, and § 196-17 E connections."""

from __future__ import annotations

from typing import Any

from sewer_office.permits.services.building_sewer import file_building_sewer_permit
from sewer_rules.ordinance.s196_18_building_sewers.permit_class import USES

from .base import RecordsBase
from .billing import pay_permit_fee

GOOD_DESIGN = {
    "buildings": [
        {
            "id": "house",
            "building_sewer": "S1",
            "connected_sources": ["sanitary_fixtures", "kitchen_fixtures", "laundry"],
            "building_drain_elevation_ft": "101.50",
            "basement_floor_elevation_ft": "103.00",
        }
    ],
    "building_sewers": [
        {
            "id": "S1",
            "diameter": "4 in",
            "slope": "1/4 in/ft",
            "material": "PVC SDR 35",
            "length_ft": "60",
            "public_sewer_elevation_ft": "97.20",
        }
    ],
}
BAD_DESIGN = {
    "buildings": [
        {
            "id": "house",
            "building_sewer": "S1",
            "connected_sources": ["sanitary_fixtures", "sump_pump"],
        }
    ],
    "building_sewers": [{"id": "S1", "diameter": "3 in", "slope": "1/8 in/ft", "material": "PVC"}],
}

#: Building sewer states and how many demo permits end in each.
BSP_PLAN = (
    ("completed", 14),
    ("submitted", 5),
    ("plan_review", 5),
    ("plans_approved", 4),
    ("road_opening_permitted", 3),
    ("ready_for_inspection", 4),
    ("corrections_required", 2),
    ("rejected", 3),
    ("withdrawn", 2),
)
BSP_PATH = (
    "record_fee_payment",
    "approve_plans",
    "record_road_opening_permit",
    "notify_ready",
    "complete_connection",
)
BSP_DEPTH = {
    "submitted": 0,
    "plan_review": 1,
    "plans_approved": 2,
    "road_opening_permitted": 3,
    "ready_for_inspection": 4,
    "corrections_required": 4,
    "completed": 5,
}


class BuildingSewers(RecordsBase):
    # --- § 196-18 building sewer permits ---------------------------------------------------------

    def bsp_step(self, permit: Any, step: str, days_ago: int) -> Any:
        if step == "record_fee_payment":  # made by the payment of the fee invoice
            return pay_permit_fee(self.user("clerk"), permit, self.at(days_ago), self.day(days_ago))
        if step == "approve_plans":
            if permit.reuses_old_sewer:
                permit = self.do(
                    permit,
                    "examine_old_sewer",
                    "superintendent",
                    days_ago + 1,
                    {"result": "meets", "examined_on": self.day(days_ago + 1)},
                )
            return self.do(permit, step, "engineer", days_ago)
        if step == "record_road_opening_permit":
            data = {
                "road_opening_number": f"RO-{permit.pk:04d}",
                "issued_on": self.day(days_ago),
                "insurance_confirmed": True,
                "bond_confirmed": True,
            }
            return self.do(permit, step, "highway", days_ago, data)
        if step == "notify_ready":
            # the owner's property is built with the town, before any permit
            who = "owner" if permit.property_id == self.town.owner_property.pk else "clerk"  # type: ignore[union-attr]
            return self.do(permit, step, who, days_ago, {"ready_on": self.day(days_ago)})
        if step == "complete_connection":
            data = {
                "inspected_on": self.day(days_ago),
                "connected_on": self.day(days_ago),
                "supervised_by": "Sam Ortiz, Superintendent",
            }
            return self.do(permit, step, "superintendent", days_ago, data)
        raise ValueError(step)

    def file_bsp(
        self,
        prop: Any,
        days_ago: int,
        *,
        applicant: Any = None,
        design: dict[str, Any] | None = None,
        reuse: bool = False,
        actor: str = "clerk",
    ) -> Any:
        building = prop.buildings.first()
        return file_building_sewer_permit(
            self.user(actor),
            applicant=applicant or prop.owner,
            prop=prop,
            permit_class=2 if building and building.use == "industrial" else 1,
            # the use the application states: the class is the rule's from it (§ 196-18 B)
            use=building.use if building and building.use in USES else "",
            design=design or GOOD_DESIGN,
            building=building,
            reuses_old_sewer=reuse,
            description="New house: building sewer to the public sewer in the street."
            if not reuse
            else "Replacement house reusing the existing building sewer.",
            at=self.at(days_ago),
        )

    def building_sewers(self) -> None:
        town = self.town
        pool = [
            p
            for key in ("wsttia-phase-1", "district-1", "wsttia-phase-2")
            for p in town.new_construction[key]
        ]
        # the owner's property is built with the town, before any permit
        pool = [p for p in pool if p.pk != town.owner_property.pk]  # type: ignore[union-attr]
        i = 0
        for state, count in BSP_PLAN:
            for n in range(count):
                prop = pool[i]
                i += 1
                open_state = state not in ("completed", "rejected", "withdrawn")
                start = self.rng.randint(20, 120) if open_state else self.rng.randint(150, 700)
                if state == "rejected":
                    permit = self.file_bsp(prop, start, design=BAD_DESIGN)
                    permit = self.bsp_step(permit, "record_fee_payment", start - 3)
                    self.do(
                        permit,
                        "reject",
                        "engineer",
                        start - 10,
                        reason="Design fails § 196-18 F (3-inch pipe, 1/8 in/ft) and § 196-18 H (sump pump connected). Resubmit corrected plans.",
                    )
                    continue
                if state == "withdrawn":
                    permit = self.file_bsp(prop, start)
                    self.do(
                        permit,
                        "withdraw",
                        "clerk",
                        start - 5,
                        reason="Owner's written request: construction postponed.",
                    )
                    continue
                permit = self.file_bsp(prop, start, reuse=(state == "completed" and n % 5 == 0))
                day = start
                for step in BSP_PATH[: BSP_DEPTH[state]]:
                    day -= self.rng.randint(2, max(3, start // 6))
                    permit = self.bsp_step(permit, step, max(day, 1))
                if state == "corrections_required":
                    self.do(
                        permit,
                        "require_corrections",
                        "superintendent",
                        max(day - 2, 0),
                        reason="Trench not bedded per specifications; re-bed and notify again.",
                    )
        # The homeowner's own permit, waiting on them to notify readiness.
        own = self.file_bsp(town.owner_property, 40, applicant=town.owner_person, actor="owner")
        for step, days in zip(BSP_PATH[:3], (36, 25, 12), strict=True):
            own = self.bsp_step(own, step, days)
        # A plating shop declares class 1: the rule gives class 2 (§ 196-18 B(2)) from the wastes
        # it declares; the clerk sees the flag, the fee is the class 2 fee, and the application
        # waits as a draft for its filing fee.
        if i < len(pool):
            file_building_sewer_permit(
                self.user("clerk"),
                applicant=pool[i].owner,
                prop=pool[i],
                permit_class=1,
                use="commercial",
                industrial_wastes="electroplating rinse water (nickel, chromium)",
                design=GOOD_DESIGN,
                building=pool[i].buildings.first(),
                description="Plating shop: building sewer for a new electroplating line.",
                at=self.at(6),
            )
        # § 196-17 E: Phase III-A connected through building sewer permits, then abandoned.
        for k, system in enumerate(self.connection_required[:8]):
            permit = self.file_bsp(system.property, 250 - k * 10, reuse=False)
            day = 250 - k * 10
            for step in BSP_PATH:
                day -= 8
                permit = self.bsp_step(permit, step, day)
            self.do(
                system,
                "record_abandonment",
                "inspector",
                day - 5,
                {"abandoned_on": self.day(day - 5), "filled_with": "clean sand"},
            )
        for system in self.connection_required[8:11]:
            permit = self.file_bsp(system.property, 30)
            self.bsp_step(permit, "record_fee_payment", 26)
