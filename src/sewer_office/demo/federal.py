"""The demo town's last step: what EPA's annual report (ICIS-NPDES XML) needs and the other steps
leave unrecorded, recorded through the services as staff would.

Every significant industrial user EPA's report lists is keyed in ICIS-NPDES by the
nine-character identifier of its control mechanism. The approvals step gives the granted
approvals theirs; here each other user that was ever an SIU gets an EXAMPLE one
(``NYP0001nn``, not EPA's) on its latest application that may carry one (the permits service
refuses a rejected or withdrawn application). Such a user whose applications were all rejected
or withdrawn applies again first — the clerk files it for the operator with the figures
declared before — so that the demo's export of any year refuses nothing.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.services.control_terms import may_record_icis_id, record_icis_permit_id
from sewer_office.permits.services.industrial import file_discharge_approval
from sewer_office.pretreatment.models import Designation
from sewer_office.registry.models import Establishment

from .town import Town

FIRST_EXAMPLE_ID = 101


def load_demo_federal(town: Town) -> None:
    clerk = town.users["clerk"]
    designated = Designation.objects.filter(status="siu").values_list("establishment_id", flat=True)
    users = Establishment.objects.filter(pk__in=designated).order_by("name")
    number = FIRST_EXAMPLE_ID
    for k, est in enumerate(users):
        approvals = list(
            IndustrialDischargeApproval.objects.filter(establishment=est).order_by("id")
        )
        if any(a.icis_permit_id for a in approvals):
            continue
        open_ = [a for a in approvals if may_record_icis_id(clerk, a)]
        if open_:
            target = open_[-1]
        else:
            before = approvals[-1] if approvals else None
            target = file_discharge_approval(
                clerk,
                applicant=est.operator,
                establishment=est,
                discharge_kind=before.discharge_kind if before else "new",
                concentrations=dict(before.concentrations) if before else {},
                flow_gpd=Decimal(before.flow_gpd) if before and before.flow_gpd else None,
                process_flow_gpd=(
                    Decimal(before.process_flow_gpd)
                    if before and before.flow_gpd and before.process_flow_gpd is not None
                    else None
                ),
                description="Application filed again (demo).",
                filed_on=town.anchor - timedelta(days=12),
                at=town.moment(12, 30 + k),
            )
        record_icis_permit_id(clerk, target, f"NYP{number:06d}", at=town.moment(10, 30 + k))
        number += 1
