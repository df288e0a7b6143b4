"""What the office does with each provision of Article VII: its functions and workflow steps.

Names only (dotted paths): the rules import nothing of the office. tests/office checks that each
named function exists and cites the provision in its docstring, and that each workflow step
(``module.WORKFLOW:transition``) carries the provision as its citation.
"""

from __future__ import annotations

_ENF = "sewer_office.enforcement"
_PERMITS = "sewer_office.permits"
_BUILDING = f"{_PERMITS}.workflows.building_sewer.WORKFLOW"
_INDUSTRIAL = f"{_PERMITS}.services.industrial"

#: What the office does with a provision: the functions (dotted names) that carry it out, or
#: the step of a workflow (``module.WORKFLOW:transition``) that records it. The office's
#: records — approvals, permits, notices served, corrections verified, costs, referrals — are
#: how these provisions are applied; nothing here is claimed beyond what those functions do.
#: A function's docstring cites the provision, a workflow step carries its citation
#: (tests/office/test_sections_office.py checks both).
OFFICE: dict[str, tuple[str, ...]] = {
    "§ 196-16 D": (f"{_PERMITS}.workflows.industrial.WORKFLOW:begin_review",),
    "§ 196-16 E": (
        f"{_INDUSTRIAL}.file_discharge_approval",
        f"{_PERMITS}.workflows.industrial.WORKFLOW:approve",
    ),
    "§ 196-16 F": (f"{_INDUSTRIAL}.file_discharge_approval", f"{_INDUSTRIAL}.declared_source"),
    "§ 196-17 A": (f"{_PERMITS}.services.private_system.file_private_system",),
    "§ 196-17 E": (
        "sewer_office.registry.services.declare_public_sewer_available",
        f"{_PERMITS}.services.private_system.on_public_sewer_declared",
        f"{_PERMITS}.workflows.private_system.WORKFLOW:require_connection",
        f"{_PERMITS}.workflows.private_system.WORKFLOW:record_abandonment",
    ),
    "§ 196-18 A": (f"{_PERMITS}.services.building_sewer.file_building_sewer_permit",),
    "§ 196-18 B": (f"{_PERMITS}.services.building_sewer.file_building_sewer_permit",),
    "§ 196-18 E": (f"{_BUILDING}:examine_old_sewer",),
    "§ 196-18 J": (
        f"{_BUILDING}:notify_ready",
        f"{_BUILDING}:complete_connection",
        "sewer_office.registry.services.set_wastewater_service",
    ),
    "§ 196-18 K": (f"{_BUILDING}:record_road_opening_permit",),
    "§ 196-19 E(1)(d)": ("sewer_office.billing.surcharge_basis.record_decision",),
    "§ 196-19 G": ("sewer_office.grease.services.flag_overdue_pump_outs",),
    "§ 196-19 H": (
        "sewer_office.network.services.override_sampling_point",
        "sewer_office.network.services.property_sampling_points",
    ),
    "§ 196-19 J": ("sewer_office.billing.surcharge_basis.record_agreement",),
    "§ 196-19 L": (
        f"{_PERMITS}.services.minor.file_flushing_notice",
        f"{_PERMITS}.workflows.flushing.WORKFLOW:acknowledge",
        f"{_PERMITS}.workflows.flushing.WORKFLOW:record_flushing",
    ),
    "§ 196-21 A": ("sewer_office.inspections.services.complete",),
    "§ 196-21 B": ("sewer_office.inspections.services.complete",),
    "§ 196-23 A": (f"{_PERMITS}.services.subdivision.file_subdivision",),
    "§ 196-23 B": (f"{_PERMITS}.services.subdivision.file_subdivision",),
    "§ 196-20": (f"{_ENF}.services.open_violation",),
    "§ 196-22 A": (
        f"{_ENF}.services.open_violation",
        f"{_ENF}.notices.effect_issue",
        f"{_ENF}.notices.effect_serve",
        f"{_ENF}.notices.effect_deliver",
        f"{_ENF}.notice_letters.notice_context",
        f"{_ENF}.notice_letters.certificate_context",
        f"{_ENF}.corrections.effect_report",
    ),
    "§ 196-22 B": (
        f"{_ENF}.liability.fines",
        f"{_ENF}.services.advance_clocks",
        f"{_ENF}.corrections.effect_verify",
        f"{_ENF}.referrals.effect_escalate",
        f"{_ENF}.liability.fines_as_referred",
        f"{_ENF}.money.record_judgment",
        f"{_ENF}.money.check_collection",
        "sewer_office.billing.enforcement.record_collection",
    ),
    "§ 196-22 C": (
        f"{_ENF}.services.record_cost",
        f"{_ENF}.liability.costs_total",
        "sewer_office.billing.enforcement.bill_costs",
    ),
    "§ 196-22 D": (f"{_ENF}.referrals.effect_escalate", f"{_ENF}.referrals.effect_refer"),
}
