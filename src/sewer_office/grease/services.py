"""Services of the grease app: who may act, pump-outs, voiding, overdue clocks (registering and
removing an installation: :mod:`.installations`).

Each change writes its audit event in the same transaction. Who may act:

- registering or removing an installation: the Superintendent, the engineer, the Building
  Inspector (the office staff who see installations, § 196-19 F);
- recording a pump-out: those staff, and an establishment's own outside user (self-reporting
  of its hauler's pump-out) — only for the interceptors it can see;
- voiding a pump-out: those staff, or the outside user who recorded it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db import models, transaction
from django.db.models import Max, Q
from django.utils import timezone

from sewer_office.accounts.access import can_see
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.jurisdictions import towns_of
from sewer_office.accounts.roles import (
    APPLICANT,
    BUILDING_INSPECTOR,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
)
from sewer_office.accounts.towns import installed, keeps_article, several, values_of
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.town_law import require_article, require_article_for, town_of
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of, record_finding
from sewer_rules.findings import Status

from . import rules
from .models import GreaseInterceptor, PumpOut

STAFF_ROLES = (SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR)
CITATION = rules.CITATION
MAINTENANCE_CITATION = rules.MAINTENANCE_CITATION
#: Days ahead the dashboard lists pump-outs coming due.
DUE_SOON_DAYS = 14


def require_staff(actor: Actor, what: str) -> None:
    if not has_role(actor, *STAFF_ROLES):
        raise Forbidden(
            f"{what} is for the Superintendent, the engineer or the Building Inspector "
            f"({CITATION})."
        )


def may_register(user: Actor) -> bool:
    return has_role(user, *STAFF_ROLES)


def may_record_pump_out(user: Actor, interceptor: GreaseInterceptor) -> bool:
    if has_role(user, *STAFF_ROLES):
        return True
    return has_role(user, APPLICANT) and can_see(user, interceptor)


def may_void(user: Actor, pump_out: PumpOut) -> bool:
    if pump_out.voided:
        return False
    return has_role(user, *STAFF_ROLES) or (
        has_role(user, APPLICANT) and pump_out.recorded_by_id == user.pk
    )


# --- pump-outs ---------------------------------------------------------------------------------


def record_pump_out(
    actor: Actor,
    trap: GreaseInterceptor,
    *,
    pumped_on: date,
    hauler_name: str,
    volume_gal: Decimal,
    hauler_permit: str = "",
    grease_depth_in: Decimal | None = None,
    grease_percent: Decimal | None = None,
    manifest_number: str = "",
    notes: str = "",
    today: date | None = None,
) -> PumpOut:
    """Record a hauler's pump-out: staff, or the establishment's own user (self-reporting)."""
    if not may_record_pump_out(actor, trap):
        raise Forbidden(
            "Pump-outs are recorded by the Superintendent, the engineer, the Building Inspector "
            "or the establishment itself."
        )
    # the pump-out restarts the article's clock: refused for a trap of a town of another law
    require_article_for(trap, rules.CLOCK)
    today = today or timezone.localdate()
    errors: dict[str, list[str]] = {}
    if pumped_on > today:
        errors["pumped_on"] = ["A pump-out cannot be recorded ahead of time."]
    elif trap.installed_on and pumped_on < trap.installed_on:
        errors["pumped_on"] = [f"Before the installation ({trap.installed_on:%Y-%m-%d})."]
    elif trap.removed_on and pumped_on > trap.removed_on:
        errors["pumped_on"] = [f"After the removal ({trap.removed_on:%Y-%m-%d})."]
    if not hauler_name.strip():
        errors["hauler_name"] = ["Name the hauler."]
    if volume_gal is None or volume_gal <= 0:
        errors["volume_gal"] = ["The volume pumped must be more than 0 gallons."]
    if grease_percent is not None and not (0 <= grease_percent <= 100):
        errors["grease_percent"] = ["A percentage is between 0 and 100."]
    if grease_depth_in is not None and grease_depth_in < 0:
        errors["grease_depth_in"] = ["A depth cannot be negative."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        pump = audit.create_recorded(
            PumpOut,
            {
                "interceptor": trap,
                "pumped_on": pumped_on,
                "hauler_name": hauler_name.strip(),
                "hauler_permit": hauler_permit.strip(),
                "volume_gal": volume_gal,
                "grease_depth_in": grease_depth_in,
                "grease_percent": grease_percent,
                "manifest_number": manifest_number.strip(),
                "notes": notes.strip(),
                "recorded_by": actor,
            },
            actor=actor,
            action="record_pump_out",
            citation=trap.citation,
        )
    return pump


def void_pump_out(actor: Actor, pump: PumpOut, reason: str) -> PumpOut:
    """Void a mistaken pump-out record: it stays, marked void, and no longer resets the clock."""
    if not (has_role(actor, *STAFF_ROLES) or pump.recorded_by_id == actor.pk):
        raise Forbidden("A pump-out is voided by office staff or by whoever recorded it.")
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the record is void."]})
    with transaction.atomic():
        locked = PumpOut.objects.select_for_update().get(pk=pump.pk)
        if locked.voided:
            raise Blocked(f"This pump-out was already voided: {locked.void_reason}")
        before = audit.snapshot(locked)
        locked.voided = True
        locked.voided_at = timezone.now()
        locked.voided_by = signed_in(actor)
        locked.void_reason = reason.strip()
        locked.save(update_fields=["voided", "voided_at", "voided_by", "void_reason"])
        audit.record(
            actor=actor,
            action="void_pump_out",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            citation=locked.interceptor.citation,
        )
    return locked


# --- the cleaning clock ------------------------------------------------------------------------


def with_last_pump_out(
    qs: models.QuerySet[GreaseInterceptor], as_of: date
) -> models.QuerySet[GreaseInterceptor]:
    """``qs`` annotated with ``last_pumped``: the last non-void pump-out on or before ``as_of``."""
    return qs.annotate(
        last_pumped=Max(
            "pump_outs__pumped_on",
            filter=Q(pump_outs__voided=False, pump_outs__pumped_on__lte=as_of),
        )
    )


def status_of(trap: GreaseInterceptor, as_of: date) -> rules.CleaningStatus:
    """The cleaning status of ``trap`` on ``as_of`` under its town's interval (uses
    ``last_pumped`` when annotated); none runs for a trap of a town of another law."""
    if hasattr(trap, "last_pumped"):
        last = trap.last_pumped
    else:
        last = (
            trap.pump_outs.filter(voided=False, pumped_on__lte=as_of)
            .aggregate(m=Max("pumped_on"))
            .get("m")
        )
    return rules.clock(
        last,
        as_of,
        town=town_of(trap),
        installed=trap.installed_on,
        interval_days=trap.cleaning_interval_days,
    )


@dataclass(frozen=True)
class Clocked:
    """An interceptor with its cleaning status on a day (for lists and panels)."""

    trap: GreaseInterceptor
    status: rules.CleaningStatus

    @property
    def never_pumped(self) -> bool:
        return self.status.last_pump_out is None


def clocks(qs: models.QuerySet[GreaseInterceptor], as_of: date) -> list[Clocked]:
    """Every active interceptor of ``qs`` with its status on ``as_of``."""
    active = with_last_pump_out(
        qs.filter(active=True).select_related("establishment__building__property"), as_of
    )
    return [Clocked(t, status_of(t, as_of)) for t in active]


def overdue(qs: models.QuerySet[GreaseInterceptor], as_of: date) -> list[Clocked]:
    """Overdue interceptors, most overdue first; then those never pumped with no date at all."""
    rows = [c for c in clocks(qs, as_of) if c.status.status in ("overdue", "no_record")]
    return sorted(rows, key=lambda c: (c.status.status != "overdue", -c.status.days_overdue))


def due_soon(
    qs: models.QuerySet[GreaseInterceptor], as_of: date, days: int = DUE_SOON_DAYS
) -> list[Clocked]:
    """Interceptors whose next pump-out falls within ``days`` of ``as_of``, soonest first."""
    horizon = as_of + timedelta(days=days)
    rows = [
        c
        for c in clocks(qs, as_of)
        if c.status.status == "due" and c.status.next_due and c.status.next_due <= horizon
    ]
    return sorted(rows, key=lambda c: c.status.next_due or as_of)


def sizing_town(user: Actor, given: str = "") -> str:
    """The town whose sizing method a sizing check with no record reads: the one named, else
    the only town ``user`` acts for (never the primary by default); refused for a town whose
    law is its own."""
    town = given.strip()
    if not town:
        mine = towns_of(user)
        if len(mine) != 1:
            raise InvalidInput(
                {"jurisdiction": [f"Name the town whose method applies: {', '.join(installed())}."]}
            )
        town = mine[0]
    elif town not in installed():
        raise InvalidInput(
            {"jurisdiction": [f"'{town}' is not a town of this office: {', '.join(installed())}."]}
        )
    require_article(town, f"A grease interceptor's sizing ({CITATION})")
    return town


def town_clocks(user: Actor, as_of: date) -> list[tuple[str, rules.CleaningStatus]]:
    """Each town ``user`` acts for whose law is the article, by name, with the clock of its own
    interval on ``as_of`` (no interceptor's interval): what the lists say of the towns'
    choices, each town its own."""
    return [
        (values_of(t).name, rules.clock(None, as_of, town=t, installed=None, interval_days=None))
        for t in towns_of(user)
        if keeps_article(t)
    ]


def towns_sentence(clocks: list[tuple[str, rules.CleaningStatus]]) -> str:
    """The towns of ``clocks`` that configure no interval, said as :func:`interval_sentence`
    (each named, in an office of several towns); "" when every one does."""
    unset = [(name, st) for name, st in clocks if not st.interval_days]
    if several():
        return "; ".join(f"{name}: {interval_sentence(st)}" for name, st in unset)
    return "; ".join(interval_sentence(st) for _, st in unset)


def interval_sentence(status: rules.CleaningStatus) -> str:
    """Whose choice the interval is: never a number of the law."""
    if status.status == rules.OTHER_LAW:
        return "the article's pump-out clock does not run: the town's sewer law is its own"
    if status.interval_days is None:
        return f"no pump-out interval is configured; {CITATION} sets no frequency"
    whose = (
        "this establishment's approval"
        if status.parameter is None
        else f"the town ({status.interval_basis})"
    )
    return (
        f"the {status.interval_days}-day interval is the choice of {whose}, not a number of the "
        f"law: {CITATION} requires grease traps to be accessible for cleaning and sets no "
        "frequency"
    )


def flag_overdue_pump_outs(today: date | None = None) -> int:
    """Record a PUMP_OUT_OVERDUE finding for each interceptor overdue on ``today``: the trap
    not kept in effective operation, as § 196-19 G requires of pretreatment (§ 196-19 F(2)
    asks only that it be accessible for cleaning).

    Once per interceptor per overdue period: the period is identified by its first overdue
    day (the due date + 1), stored as the finding's ``observed_at``, so running the command
    again (daily, by cron) adds nothing until a new period starts. Returns how many were
    recorded.
    """
    today = today or timezone.localdate()
    count = 0
    for row in overdue(GreaseInterceptor.objects.all(), today):
        st = row.status
        if st.status != "overdue" or st.next_due is None:
            continue
        observed = timezone.make_aware(datetime.combine(st.next_due + timedelta(days=1), time()))
        with transaction.atomic():
            trap = GreaseInterceptor.objects.select_for_update().get(pk=row.trap.pk)
            if (
                findings_of(trap)
                .filter(kind=FindingKind.PUMP_OUT_OVERDUE, observed_at=observed)
                .exists()
            ):
                continue
            since = "installation" if st.last_pump_out is None else "last pump-out"
            start = st.last_pump_out or trap.installed_on
            message = (
                f"{trap}: {since} {start:%Y-%m-%d} + {st.interval_days} days = due "
                f"{st.next_due:%Y-%m-%d}; on {today:%Y-%m-%d} the pump-out is overdue by "
                f"{st.days_overdue} day{'s' if st.days_overdue != 1 else ''}. "
                f"Note: {interval_sentence(st)}."
            )
            finding = record_finding(
                source=trap,
                establishment=trap.establishment,
                kind=FindingKind.PUMP_OUT_OVERDUE,
                status=Status.REVIEW,
                citation=MAINTENANCE_CITATION,
                message=message,
                observed_at=observed,
                limit=str(st.interval_days),
                limit_unit="day",
                parameter=st.parameter.name if st.parameter else "approval interval",
                effective=st.parameter.effective if st.parameter else None,
                parameters_version=rules.params(town_of(trap)).version,
            )
            audit.record(
                actor=None,
                action="flag_pump_out_overdue",
                obj=trap,
                after={"finding": finding.pk, "days_overdue": st.days_overdue},
                reason=message,
                citation=MAINTENANCE_CITATION,
            )
            count += 1
    return count


def overdue_findings(trap: GreaseInterceptor) -> models.QuerySet[Finding]:
    return findings_of(trap).filter(kind=FindingKind.PUMP_OUT_OVERDUE).order_by("-observed_at")
