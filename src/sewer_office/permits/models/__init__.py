"""Models of the permits app (one module per permit, each driven by its workflow)."""

from .building_sewer import BuildingSewerPermit, PermitClass
from .industrial import ApprovalCondition, DischargeKind, IndustrialDischargeApproval
from .minor import FlushingNotice, GrinderApproval, InterceptorKind, InterceptorRequirement
from .private_system import PrivateDisposalSystem, SystemType
from .subdivision import Provision, SubdivisionSewer

__all__ = [
    "ApprovalCondition",
    "BuildingSewerPermit",
    "DischargeKind",
    "FlushingNotice",
    "GrinderApproval",
    "IndustrialDischargeApproval",
    "InterceptorKind",
    "InterceptorRequirement",
    "PermitClass",
    "PrivateDisposalSystem",
    "Provision",
    "SubdivisionSewer",
    "SystemType",
]
