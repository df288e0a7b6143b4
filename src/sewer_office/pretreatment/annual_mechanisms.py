"""The annual pretreatment report's figures of each user's control mechanism and flow
(40 CFR 403.12(i)): the industrial approval in force in the period, its ICIS-NPDES identifier,
its process flow and the self-monitoring samples it required; and the average daily flow, from
a flow meter's readings or else as declared. Apart from :mod:`.annual` (which gathers the
report and calls these) because they read the permits and the meters, not the program's own
records; each fills the report's lines in a handful of queries over every user at once.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.models.industrial import SelfMonitoringRequirement
from sewer_rules.icis_report import Mechanism, Sampling, required_samples

from .services import mean_gpd

if TYPE_CHECKING:
    from .annual import FacilityLine

#: The states of an approval granted (with or without conditions).
APPROVED = ("approved", "approved_with_conditions")


def _in_force(a: IndustrialDischargeApproval, first: date, last: date) -> bool:
    return (
        a.state in APPROVED
        and a.decided_on is not None
        and a.decided_on <= last
        and (a.expires_on is None or a.expires_on >= first)
    )


def mechanisms(lines: dict[int, FacilityLine], ids: list[int], first: date, last: date) -> None:
    """Each user's control mechanism: the approval in force in the period (the latest decided),
    else the latest approved before the period's end; its process flow; the self-monitoring
    samples the approvals in force required in the period. The ICIS-NPDES identifier is the
    mechanism's, else the one recorded on the user's latest application that has one (EPA
    keys the industrial user's record by it, whether the application was granted yet or the
    mechanism reissued)."""
    approvals: dict[int, list[IndustrialDischargeApproval]] = defaultdict(list)
    recorded: dict[int, str] = {}
    for a in IndustrialDischargeApproval.objects.filter(
        establishment_id__in=ids, filed_on__lte=last
    ).order_by("id"):
        if a.icis_permit_id:
            recorded[a.establishment_id] = a.icis_permit_id
        if a.state in APPROVED and a.decided_on is not None and a.decided_on <= last:
            approvals[a.establishment_id].append(a)
    for group in approvals.values():
        group.sort(key=lambda a: (a.decided_on or first, a.pk))
    in_force = {a.pk: a for group in approvals.values() for a in group if _in_force(a, first, last)}
    rows: dict[int, list[Sampling]] = defaultdict(list)
    for r in SelfMonitoringRequirement.objects.filter(approval_id__in=list(in_force)):
        rows[r.approval_id].append(Sampling(r.sampling_point, r.sample_type, r.events_per_year))
    for est, line in lines.items():
        group = approvals.get(est, [])
        current = [a for a in group if a.pk in in_force]
        if group:
            line.approval = (current or group)[-1]
            line.process_flow_gpd = line.approval.process_flow_gpd
        line.icis_permit_id = (
            line.approval.icis_permit_id if line.approval is not None else ""
        ) or recorded.get(est, "")
        line.self_monitoring_required = required_samples(
            [
                Mechanism(a.decided_on, a.expires_on, tuple(rows[a.pk]))
                for a in current
                if a.decided_on is not None
            ],
            first,
            last,
        )


def flows(lines: dict[int, FacilityLine], ids: list[int], first: date, last: date) -> None:
    """The average daily flow of the period: the mean of the readings of the user's first flow
    meter (by identifier) with readings in the period (:func:`.services.mean_gpd`, as the
    designation reads it), else the flow declared in its approval (the latest, whatever its
    state, as the designation does), the basis said."""
    meters = list(
        Meter.objects.filter(sampling_point__establishment_id__in=ids, parameter="flow")
        .select_related("sampling_point")
        .order_by("ident", "id")
    )
    totals = days.period_totals([m.pk for m in meters], first, last)
    for m in meters:
        line = lines[m.sampling_point.establishment_id]
        flow = totals.get(m.pk)
        if line.flow_gpd is None and flow is not None and flow.count:
            line.flow_gpd = mean_gpd(flow, m.unit)
            line.flow_basis = f"mean of {flow.count} readings of meter {m.ident}"
    declared: dict[int, IndustrialDischargeApproval] = {}
    for a in IndustrialDischargeApproval.objects.filter(
        establishment_id__in=[i for i in ids if lines[i].flow_gpd is None]
    ).order_by("id"):
        declared[a.establishment_id] = a
    for est, a in declared.items():
        if a.flow_gpd is not None:
            lines[est].flow_gpd = Decimal(a.flow_gpd)
            lines[est].flow_basis = f"declared in {a}"
