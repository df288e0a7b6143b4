"""Demo private wastewater disposal systems (§ 196-17) and the Town's act of availability."""

from __future__ import annotations

from typing import Any

from sewer_office.permits.models import PrivateDisposalSystem
from sewer_office.permits.services.private_system import file_private_system
from sewer_office.registry.services import declare_public_sewer_available

from .base import RecordsBase


class PrivateSystems(RecordsBase):
    # --- § 196-17 private systems ----------------------------------------------------------------

    def private_system(self, prop: Any, start: int, depth: int, co: bool = False) -> Any:
        system = file_private_system(
            self.user("clerk"),
            applicant=prop.owner,
            prop=prop,
            system_type="septic",
            design_flow_gpd=440,
            at=self.at(start),
        )
        if depth >= 1:
            system = self.do(
                system,
                "record_health_approval",
                "clerk",
                start - 20,
                {
                    "health_approval_ref": f"DCHD-{system.pk:05d}",
                    "health_approved_on": self.day(start - 21),
                },
            )
        if depth >= 2:
            data = {
                "completion_ref": f"DCHD-C-{system.pk:05d}",
                "completed_on": self.day(start - 90),
                "forms_filed_on": self.day(start - 88),
            }
            system = self.do(system, "record_completion", "inspector", start - 88, data)
        if co:
            system = self.do(
                system,
                "note_certificate_of_occupancy",
                "inspector",
                start - 95,
                {"co_number": f"CO-{system.pk:05d}", "co_issued_on": self.day(start - 95)},
            )
        return system

    def private_systems(self) -> None:
        town = self.town
        # Phase III-A: private systems since the 2010s; the Town declares sewer available later.
        for k, prop in enumerate(town.properties["wsttia-phase-3a"]):
            self.private_system(prop, 3600 - k * 60, 2, co=(k % 2 == 0))
        declare_public_sewer_available(
            town.areas["wsttia-phase-3a"],
            self.day(300),
            "EXAMPLE Town Board resolution 2025-77 (demo)",
            self.user("clerk"),
            at=self.at(300),
        )

        self.connection_required = list(
            PrivateDisposalSystem.objects.filter(state="connection_required")
            .select_related("property")
            .order_by("id")
        )
        # Phase III-B: still on private systems; a few new ones in progress.
        props = town.properties["wsttia-phase-3b"]
        for k, prop in enumerate(props):
            if k < 28:
                self.private_system(prop, 4000 - k * 90, 2, co=(k % 3 != 0))
            elif k < 31:
                self.private_system(prop, 15 + k, 0)
            elif k < 34:
                self.private_system(prop, 60 + k, 1)
            else:
                system = self.private_system(prop, 200 + k, 0)
                self.do(system, "withdraw", "clerk", 150, reason="Sale of the lot fell through.")
