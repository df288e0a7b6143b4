"""Demo approvals: industrial and cooling water discharges, each in every state of its
workflow (subdivisions, grinders, interceptors and flushing notices: :mod:`.minor_permits`).

Acme Plating's approval is the demo's model control mechanism: every element of 40 CFR
403.8(f)(1)(iii)(B) is recorded before it is issued (its terms and self-monitoring
requirements), although Acme is designated a Significant Industrial User only later in the
build (``load_demo_pretreatment``). Every approval states its process wastewater flow, and the
granted ones carry an example ICIS-NPDES identifier (``NYP0000nn``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sewer_office.core.town_law import town_of
from sewer_office.permits.control_mechanism import NON_TRANSFERABLE, penalties_statement
from sewer_office.permits.services.control_terms import (
    add_self_monitoring,
    record_icis_permit_id,
    record_terms,
)
from sewer_office.permits.services.industrial import file_discharge_approval

from .base import RecordsBase
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
    """The industrial and cooling water discharge approvals (§ 196-16 D–F) of the demo town."""

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
        terms = acme_terms() | {
            "penalties": penalties_statement(town_of(approval), self.day(days_ago))
        }
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
