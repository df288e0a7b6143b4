"""Demo approvals: industrial and cooling water discharges, subdivisions, grinders, grease
traps and interceptors, flushing notices — each in every state of its workflow.

Acme Plating's approval is the demo's model control mechanism: every element of 40 CFR
403.8(f)(1)(iii)(B) is recorded before it is issued (its terms and self-monitoring
requirements), although Acme is designated a Significant Industrial User only later in the
build (``load_demo_pretreatment``). Every approval states its process wastewater flow, and the
granted ones carry an example ICIS-NPDES identifier (``NYP0000nn``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sewer_office.permits.control_mechanism import NON_TRANSFERABLE, penalties_statement
from sewer_office.permits.services.control_terms import (
    add_self_monitoring,
    record_icis_permit_id,
    record_terms,
)
from sewer_office.permits.services.industrial import file_discharge_approval
from sewer_office.permits.services.minor import (
    file_flushing_notice,
    file_grinder,
    require_interceptor,
)
from sewer_office.permits.services.subdivision import file_subdivision
from sewer_office.registry.choices import EstablishmentKind

from .base import RecordsBase
from .billing import pay_permit_fee
from .monitoring import ACME_LIMITS

#: Acme's self-monitoring: (pollutant, sample type, frequency) at its control manhole CM-1.
ACME_SELF_MONITORING = (
    ("copper", "composite", "monthly"),
    ("chromium", "composite", "monthly"),
    ("zinc", "composite", "monthly"),
    ("bod5", "composite", "monthly"),
    ("tss", "composite", "monthly"),
    ("ph", "grab", "weekly"),
)
POLLUTANTS = {"copper": "copper", "zinc": "zinc", "chromium": "chromium", "ph": "pH"}
LIMIT_WORDS = {
    "daily_maximum": "daily maximum",
    "monthly_average": "monthly average",
    "instantaneous_minimum": "at least",
    "instantaneous_maximum": "at most",
}


def acme_terms() -> dict[str, str]:
    """Acme's terms as a control mechanism, its limits those the monitoring judges it by."""
    limits = "; ".join(
        f"{POLLUTANTS[parameter]} {LIMIT_WORDS[kind]} {value} {unit}"
        for parameter, kind, value, unit in ACME_LIMITS
    )
    return {
        "non_transferable": NON_TRANSFERABLE,
        "effluent_limits": (
            f"At the control manhole CM-1: {limits}; the prohibitions and limits of § 196-19 C "
            "and D at all times. Best Management Practices: rinse-water counterflow on the "
            "plating line, drag-out tanks, no discharge of spent baths (hauled as hazardous "
            "waste), spill kits at the chemical store."
        ),
        "reporting": (
            "Report the self-monitoring results twice a year, by January 31 and July 31, "
            "signed and certified. Notify the Town within 24 hours of learning of a result "
            "over a limit, and sample again and report within 30 days; notify at once of any "
            "slug or spill, and 30 days before any substantial change of the discharge. Keep "
            "every sampling and analysis record for at least three years."
        ),
        "slug_control": (
            "Keep the slug discharge control plan on file and up to date: chemical storage "
            "bunded at 110 % of the largest tank, floor drains of the plating room plugged, "
            "staff trained yearly; a slug is reported to the Superintendent by telephone at "
            "once and in writing within five days."
        ),
    }


#: Example ICIS-NPDES identifiers of the granted demo approvals (nine characters each).
ICIS_IDS = {
    "Acme Plating Corporation": "NYP000001",
    "Dutchess Precision Machining": "NYP000002",
    "Hudson Creamery": "NYP000003",
}


class Approvals(RecordsBase):
    # --- § 196-16 D–F industrial and cooling water approvals ----------------------------------

    def discharge(
        self,
        est: Any,
        start: int,
        kind: str,
        conc: dict[str, str],
        flow: str,
        temp: str,
        actor: str = "clerk",
        process: str | None = None,
    ) -> Any:
        return file_discharge_approval(
            self.user(actor),
            applicant=est.operator,
            establishment=est,
            discharge_kind=kind,
            concentrations=conc,
            flow_gpd=Decimal(flow),
            process_flow_gpd=Decimal(process) if process is not None else None,
            temperature_f=Decimal(temp),
            description=f"{est.name}: {kind.replace('_', ' ')}.",
            at=self.at(start),
        )

    def industrial(self) -> None:
        est = {e.name: e for group in self.town.establishments.values() for e in group}
        acme = est["Acme Plating Corporation"]
        a = self.discharge(
            acme,
            700,
            "new",
            {
                "copper": "0.8",
                "chromium": "0.3",
                "zinc": "1.2",
                "ph": "6.8",
                "bod5": "350",
                "tss": "280",
            },
            "18000",
            "78",
            process="15000",
        )
        a = self.do(a, "begin_review", "engineer", 690)
        self.control_mechanism(a, 685)
        conditions = {
            "pretreatment": "Maintain the ion-exchange metals recovery unit in continuous operation (§ 196-19 G).",
            "control_manhole": "Install a control manhole with a flow meter on the process building sewer within 90 days.",
            "sampling": "Monthly 24-hour composite for metals, BOD and TSS; weekly pH grabs at the control manhole.",
            "surcharge": "BOD above normal strength (240 mg/l) is charged at the surcharge rate in force.",
        }
        self.do(
            a,
            "approve_with_conditions",
            "engineer",
            670,
            conditions,
            reason="Metals within the Superintendent's limits with pretreatment.",
        )
        self.icis_id(a, 600)
        change = self.discharge(
            acme,
            21,
            "change_character",
            {"copper": "1.3", "chromium": "0.4", "zinc": "1.6", "ph": "6.5"},
            "22000",
            "80",
            actor="acme",
            process="19000",
        )
        self.do(change, "begin_review", "engineer", 14)
        d = self.discharge(
            est["Dutchess Precision Machining"],
            520,
            "new",
            {"oil_grease": "45", "ph": "7.4", "tss": "120"},
            "3500",
            "70",
            process="3000",
        )
        d = self.do(d, "begin_review", "engineer", 510)
        self.icis_id(self.do(d, "approve", "engineer", 500), 450)
        self.discharge(
            est["Riverbend Printing"],
            9,
            "new",
            {"bod5": "180", "tss": "90", "ph": "7.9"},
            "1200",
            "72",
            process="800",
        )
        h = self.discharge(
            est["Hudson Circuit Boards Inc."],
            300,
            "new",
            {"cyanide_total": "3.5", "copper": "2.4", "ph": "5.1"},
            "9000",
            "75",
            process="8500",
        )
        h = self.do(h, "begin_review", "engineer", 290)
        self.do(
            h,
            "reject",
            "engineer",
            280,
            reason="Cyanide above 2 mg/l and pH below 5.5 are absolute prohibitions (§ 196-19 C(2), C(3)); no pretreatment proposed.",
        )
        t = self.discharge(
            est["Tri-County Laundry Services"],
            160,
            "change_quantity",
            {"bod5": "260", "tss": "150", "ph": "9.1"},
            "30000",
            "95",
            process="27000",
        )
        self.do(t, "withdraw", "clerk", 150, reason="Expansion deferred by the company.")
        c = self.discharge(
            est["Hudson Creamery"],
            400,
            "cooling_water",
            {"bod5": "4", "tss": "3", "oil_grease": "<5"},
            "15000",
            "85",
            process="0",  # non-contact cooling water is no process wastewater
        )
        c = self.do(c, "begin_review", "engineer", 395)
        self.icis_id(self.do(c, "approve", "engineer", 390), 350)
        v = self.discharge(
            est["Valley Apple Cider Mill"],
            35,
            "new",
            {"bod5": "2200", "tss": "400", "ph": "4.9"},
            "2500",
            "65",
            process="2300",
        )
        self.do(v, "begin_review", "engineer", 28)

    def control_mechanism(self, approval: Any, days_ago: int) -> None:
        """Every element of 40 CFR 403.8(f)(1)(iii)(B) recorded on ``approval`` (Acme's),
        before its decision: its terms, the penalties in force that day, its self-monitoring."""
        engineer = self.user("engineer")
        terms = acme_terms() | {"penalties": penalties_statement(self.day(days_ago))}
        record_terms(engineer, approval, terms, at=self.at(days_ago))
        for parameter, sample_type, frequency in ACME_SELF_MONITORING:
            add_self_monitoring(
                engineer,
                approval,
                parameter=parameter,
                sampling_point="CM-1",
                sample_type=sample_type,
                frequency=frequency,
                at=self.at(days_ago),
            )

    def icis_id(self, approval: Any, days_ago: int) -> None:
        """The example ICIS-NPDES identifier of a granted approval, recorded once assigned."""
        value = ICIS_IDS[approval.establishment.name]
        record_icis_permit_id(self.user("clerk"), approval, value, at=self.at(days_ago))

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
