"""The demo town's permits and approvals, in every state, made through the services."""

from __future__ import annotations

from .approvals import Approvals
from .building_sewers import BuildingSewers
from .minor_permits import MinorPermits
from .private_systems import PrivateSystems


class Records(BuildingSewers, PrivateSystems, Approvals, MinorPermits):
    """Every record of the demo town (private systems first: § 196-17 E feeds the permits)."""

    def build(self) -> None:
        self.private_systems()
        self.building_sewers()
        self.industrial()
        self.subdivisions()
        self.grinders()
        self.interceptors()
        self.flushing()
