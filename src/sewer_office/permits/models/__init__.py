"""Models of the permits app (one module per permit, each driven by its workflow)."""

from sewer_office.permits.choices import (
    DischargeKind,
    InterceptorKind,
    MonitoringFrequency,
    PermitClass,
    Provision,
    SystemType,
)

from .building_sewer import BuildingSewerPermit
from .industrial import (
    ApprovalCondition,
    IndustrialDischargeApproval,
    SelfMonitoringRequirement,
)
from .minor import FlushingNotice, GrinderApproval, InterceptorRequirement
from .private_system import PrivateDisposalSystem
from .subdivision import SubdivisionSewer

__all__ = [
    "ApprovalCondition",
    "BuildingSewerPermit",
    "DischargeKind",
    "FlushingNotice",
    "GrinderApproval",
    "IndustrialDischargeApproval",
    "InterceptorKind",
    "InterceptorRequirement",
    "MonitoringFrequency",
    "PermitClass",
    "PrivateDisposalSystem",
    "Provision",
    "SelfMonitoringRequirement",
    "SubdivisionSewer",
    "SystemType",
]
