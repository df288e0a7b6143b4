"""Services of the pretreatment program: who decides, and the designation of significant
industrial users (40 CFR 403.3(v)).

Every service checks who may act, validates, and writes its records and their audit events in
one transaction. The program's other services stand in modules of their own, one concept each:
the required reports and their due dates (:mod:`.report_dues`), what is read for significant
noncompliance (:mod:`.snc_reading`), its computation (:mod:`.snc`), the criteria staff decide
(:mod:`.snc_staff`), the violation a facility in SNC gets (:mod:`.snc_violations`) and the
yearly list (:mod:`.snc_list`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from sewer_engines.monitoring.daily import DayTotal
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import (
    CLERK,
    COORDINATOR,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
    is_staff_member,
)
from sewer_office.accounts.towns import primary
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.meters import days
from sewer_office.meters.models import Meter
from sewer_office.monitoring.in_force import params_in_force
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment
from sewer_rules.federal import cfr403_siu
from sewer_rules.parameters import ParameterError
from sewer_rules.units import convert

from .choices import BASIS_CITATIONS, DesignationBasis, DesignationStatus
from .models import Designation

#: The Control Authority's decisions (designation, report requirements, SNC runs).
#: The plant's pretreatment coordinator decides for the Control Authority as well.
DECIDERS = frozenset({SUPERINTENDENT, ENGINEER, COORDINATOR})
#: Who records that a report was received.
RECEIVERS = frozenset({SUPERINTENDENT, ENGINEER, CLERK})
SNC_KIND = "significant_noncompliance"
#: Section of the article a facility's SNC violates when no limit's authority is at hand:
#: the numeric limits and reports are conditions of its industrial discharge approval.
APPROVAL_SECTION = "§ 196-16 E"
FLOW_DAYS = 365
DUE_HORIZON_DAYS = 400


def may_decide(user: Actor) -> bool:
    return has_role(user, *DECIDERS)


def is_staff(user: Actor) -> bool:
    return is_staff_member(user)


def may_receive(user: Actor) -> bool:
    return has_role(user, *RECEIVERS)


def _require(actor: Actor, roles: frozenset[str], what: str, citation: str) -> None:
    if not has_role(actor, *roles):
        names = " and ".join(sorted(r.replace("_", " ") for r in roles))
        raise Forbidden(f"{what}: reserved to the {names} ({citation}).")


def _today(at: datetime | None = None) -> date:
    return timezone.localdate(at) if at is not None else timezone.localdate()


# --- SIU designation (40 CFR 403.3(v)) -------------------------------------------------------


def current_designation(establishment: Establishment) -> Designation | None:
    return (
        Designation.objects.filter(establishment=establishment, superseded_by__isnull=True)
        .order_by("-id")
        .first()
    )


def current_designations() -> QuerySet[Designation]:
    return Designation.objects.filter(superseded_by__isnull=True).select_related(
        "establishment__operator", "establishment__building__property"
    )


def _latest_approval(establishment: Establishment) -> IndustrialDischargeApproval | None:
    return (
        IndustrialDischargeApproval.objects.filter(establishment=establishment)
        .order_by("-id")
        .first()
    )


def mean_gpd(flow: DayTotal, unit: str) -> Decimal:
    """The mean of a flow meter's readings (their exact sum over their count), in gpd to the
    cent: the flow the designation and the annual report both state."""
    exact = Fraction(convert(Fraction(flow.total) / flow.count, unit, "gpd"))
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal("0.01"))


def process_flow(establishment: Establishment, on: date) -> tuple[Decimal | None, str]:
    """Average flow in gpd: the stored flow-meter readings of the year before ``on`` (their
    mean, exactly, in gpd), else the flow declared in the latest industrial approval."""
    first = on - timedelta(days=FLOW_DAYS - 1)
    for meter in Meter.objects.filter(
        sampling_point__establishment=establishment, parameter="flow"
    ).order_by("ident"):
        # the meter's daily volumes (kept by the readings upload), not its minute readings
        flow = days.period_totals([meter.pk], first, on).get(meter.pk)
        if flow is not None and flow.count:
            return (
                mean_gpd(flow, meter.unit),
                f"mean of {flow.count} readings of meter {meter.ident}, {first:%Y-%m-%d}..{on}",
            )
    approval = _latest_approval(establishment)
    if approval is not None and approval.flow_gpd is not None:
        return Decimal(approval.flow_gpd), f"declared in {approval}"
    return None, ""


def evaluate_siu(establishment: Establishment, on: date) -> cfr403_siu.SIUEvaluation:
    approval = _latest_approval(establishment)
    flow, source = process_flow(establishment, on)
    return cfr403_siu.evaluate(
        # the plant's program designates every member town's users by the plant's figures
        # (its flow and capacity, 40 CFR 403.3(v)): the installation's, the primary town's
        params_in_force(primary()),
        on,
        categorical_category=approval.categorical_category if approval else "",
        flow_gpd=flow,
        flow_source=source,
    )


def _record_designation(
    actor: Actor,
    establishment: Establishment,
    status: str,
    basis: str,
    ev: cfr403_siu.SIUEvaluation,
    reason: str,
    at: datetime | None,
) -> Designation:
    with transaction.atomic():
        previous = (
            # of=self: the reverse one-to-one is an outer join, which PostgreSQL cannot lock
            Designation.objects.select_for_update(of=("self",))
            .filter(establishment=establishment, superseded_by__isnull=True)
            .first()
        )
        citation = BASIS_CITATIONS[basis]
        d = Designation.objects.create(
            establishment=establishment,
            status=status,
            basis=basis,
            citation=citation,
            evaluation=ev.as_dict(),
            categorical_category=next(
                (c.text for c in ev.criteria if c.code == "categorical" and c.met), ""
            ),
            flow_gpd=ev.flow_gpd,
            flow_source=ev.flow_source[:120],
            reason=reason.strip(),
            decided_on=ev.on,
            decided_by=signed_in(actor),
            decided_at=at or timezone.now(),
            supersedes=previous,
        )
        audit.record(
            actor=actor,
            action=f"siu_{basis}",
            obj=d,
            before=audit.snapshot(previous) if previous else None,
            after=audit.snapshot(d),
            reason=reason.strip(),
            citation=citation,
            state_from=previous.status if previous else "",
            state_to=status,
            at=at,
        )
    return d


def designate(
    actor: Actor,
    establishment: Establishment,
    *,
    basis: str = DesignationBasis.EVALUATED,
    reason: str = "",
    on: date | None = None,
    at: datetime | None = None,
) -> Designation:
    """Record whether ``establishment`` is an SIU: evaluated on 403.3(v)(1), designated by the
    Control Authority with a reason, or found not significant under 403.3(v)(2) with the
    finding. A new designation supersedes the one in force (never edited)."""
    _require(actor, DECIDERS, "Designating significant industrial users", "40 CFR 403.3(v)")
    day = on or _today(at)
    if day > _today(at):
        raise InvalidInput({"on": ["A designation cannot be dated in the future."]})
    try:
        ev = evaluate_siu(establishment, day)
    except ParameterError as e:
        raise Blocked(str(e)) from None
    if basis == DesignationBasis.EVALUATED:
        status = DesignationStatus.SIU if ev.significant else DesignationStatus.NOT_SIU
    elif basis == DesignationBasis.DESIGNATED:
        if not reason.strip():
            raise InvalidInput(
                {"reason": ["State the reasonable potential for adverse effect (403.3(v)(1)(ii))."]}
            )
        status = DesignationStatus.SIU
    elif basis == DesignationBasis.DE_DESIGNATED:
        if not reason.strip():
            raise InvalidInput(
                {"reason": ["State the finding of no reasonable potential (403.3(v)(2))."]}
            )
        if any(c.code == "categorical" and c.met for c in ev.criteria):
            raise Blocked(
                "A categorical industrial user stays significant: 40 CFR 403.3(v)(2) lets the "
                "Control Authority set aside only the flow and capacity tests of (v)(1)(ii)."
            )
        status = DesignationStatus.NOT_SIU
    else:
        raise InvalidInput({"basis": [f"unknown basis {basis!r}"]})
    return _record_designation(actor, establishment, status, basis, ev, reason, at)
