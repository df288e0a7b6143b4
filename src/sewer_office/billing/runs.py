"""Billing runs: every facility's surcharge for a period, computed as a draft, reviewed by the
clerk, then issued (one invoice per facility with a charge, all in one transaction) or
discarded with a reason.

Which facilities a run lists and how each line is computed is :mod:`.surcharge_lines`: only
facilities with a § 196-19 E(1)(d) decision or a § 196-19 J agreement in force are billed, and
only for the days it covers; a facility of abnormal strength without one is listed as
"abnormal strength, no surcharge decision" (status ``no_decision``), never invoiced. A line
states the amount, "no excess over normal strength", "cannot be computed" (no flow data, or a
pollutant without a usable result on the days billed) or "rate not configured"; only lines
with an amount > 0 are invoiced.

A run spans the office's towns: each line is computed under its facility's town's values and
records that town; its charge and invoice are that town's (its due date, its books). The run's
own ``jurisdiction`` names the version of its lines' values (or that each line has its own).
A run bills every town it lists at once, so it is seen (:func:`seen_by`), computed, issued
and discarded by an account acting for every town of its lines — in the demo, whose member town
keeps a law of its own (no Article VII surcharge), the demo town's clerk; in an office of two
towns under the article, a clerk of both (a clerk of one town sees its invoices, not the run).

A run is all-or-nothing and idempotent: one run per period that is not discarded (the
database constraint ``billing_one_run_per_period``; a second is refused with a message); a
correction after issue is a credit note plus a new invoice.
"""

from __future__ import annotations

import calendar
import re
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.jurisdictions import acts_for, jurisdictions_of
from sewer_office.accounts.roles import is_staff_member
from sewer_office.accounts.towns import installed, several
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput, TransitionNotAllowed
from sewer_office.core.town_law import town_of
from sewer_rules.billing.facility_surcharge import CHARGED

from .choices import SOURCE_CITATIONS, ChargeSource, RunState
from .invoices import due_date, issue_invoice
from .ledger import create_charge, require_biller
from .models import BillingRun, Charge, RunLine
from .rules import params
from .surcharge_lines import Line as Line
from .surcharge_lines import compute_lines as compute_lines
from .surcharge_lines import compute_lines_per_facility as compute_lines_per_facility

_PERIOD = re.compile(r"^(\d{4})(?:-(Q[1-4]|\d{2}))?$")


def parse_period(text: str) -> tuple[date, date]:
    """``2026-Q1`` (a quarter), ``2026-01`` (a month) or ``2026`` (a year): first and last day."""
    m = _PERIOD.match(text.strip())
    if not m:
        raise InvalidInput(
            {"period": [f"{text!r} is not a period: write 2026-Q1, 2026-01 or 2026."]}
        )
    year, part = int(m.group(1)), m.group(2)
    if part is None:
        return date(year, 1, 1), date(year, 12, 31)
    if part.startswith("Q"):
        q = int(part[1])
        first_month = 3 * q - 2
        last_month = first_month + 2
        return date(year, first_month, 1), date(
            year, last_month, calendar.monthrange(year, last_month)[1]
        )
    month = int(part)
    if not 1 <= month <= 12:
        raise InvalidInput({"period": [f"{text!r}: no month {month}."]})
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


# --- the run's life: draft, issue, discard ---------------------------------------------------


def _refuse_existing(period: str) -> None:
    existing = BillingRun.objects.exclude(state=RunState.DISCARDED).filter(period=period).first()
    if existing is not None:
        raise Blocked(
            f"A billing run for {period} already exists (run {existing.pk}, "
            f"{existing.get_state_display().lower()}): a period is billed once. Discard the "
            "draft to compute it again; after issue, correct with a credit note and a new invoice."
        )


def run_parameters(towns: set[str]) -> str:
    """What a run's lines were computed under, as the run states it: the version of their
    town's values; "each line's town's values" when they are of several towns (each line
    records its own). A run without lines in an office of one town names that town's."""
    if not towns and len(installed()) == 1:
        towns = set(installed())
    if len(towns) == 1:
        return params(next(iter(towns))).version
    return "each line's town's values" if towns else "no line computed"


def line_town(line: RunLine) -> str:
    """The town whose values ``line`` was computed under (recorded with it; a line of a run
    computed before lines recorded it: its facility's town)."""
    return str(line.computation.get("town") or town_of(line.establishment))


def seen_by(runs: models.QuerySet[BillingRun], user: Actor | None) -> models.QuerySet[BillingRun]:
    """The runs ``user`` sees: every one for an account that sees every town; for a staff
    member of some towns, those whose every line is of a town they act for (a run's total and
    lines are theirs alone only then). Runs are the staff's: an outside user sees none."""
    if not is_staff_member(user):
        return runs.none()
    codes = jurisdictions_of(user)
    if codes is None:
        return runs
    foreign = RunLine.objects.exclude(establishment__jurisdiction__in=sorted(codes))
    return runs.exclude(pk__in=foreign.values("run_id"))


def require_every_town(actor: Actor, towns: set[str], what: str) -> None:
    """Refuse a biller who does not act for every town whose facilities a run lists."""
    if not several() or not is_staff_member(actor):
        return
    missing = sorted(t for t in towns if not acts_for(actor, t))
    if missing:
        raise Forbidden(
            f"{what}: the run lists facilities of {', '.join(sorted(towns))}, and you do not "
            f"act for {', '.join(missing)}. A run bills every town it lists at once: it is "
            "made by an account acting for each of them."
        )


def _towns_of_lines(run: BillingRun) -> set[str]:
    """The towns of ``run``'s facilities (the towns its lines bill)."""
    towns = run.lines.order_by().values_list("establishment__jurisdiction", flat=True)
    return set(towns.distinct())


def create_run(period: str, actor: Actor) -> BillingRun:
    """Compute the draft run of ``period`` with its lines (all-or-nothing)."""
    require_biller(actor)
    start, end = parse_period(period)
    _refuse_existing(period)
    lines = compute_lines(start, end)
    require_every_town(actor, {ln.town for ln in lines}, f"Computing the run of {period}")
    total = sum(
        (ln.result.amount or Decimal(0) for ln in lines if ln.result.status == CHARGED), Decimal(0)
    )
    try:
        with transaction.atomic():
            run = BillingRun.objects.create(
                period=period,
                start=start,
                end=end,
                jurisdiction=run_parameters({ln.town for ln in lines}),
                total=total,
                created_by=person_or_none(actor),
            )
            RunLine.objects.bulk_create(
                (
                    RunLine(
                        run=run,
                        establishment_id=ln.establishment_id,
                        person_id=ln.person_id,
                        status=ln.result.status,
                        flow_source=ln.result.flow_source,
                        amount=ln.result.amount,
                        message=ln.result.message,
                        computation=ln.computation(),
                    )
                    for ln in lines
                ),
                batch_size=500,
            )
            audit.record(
                actor=actor,
                action="billing.run_computed",
                obj=run,
                after=audit.snapshot(run),
                citation=SOURCE_CITATIONS[ChargeSource.SURCHARGE],
                state_to=RunState.DRAFT,
            )
    except IntegrityError:
        _refuse_existing(period)
        raise
    return run


def issue_run(run: BillingRun, actor: Actor, issued_on: date | None = None) -> BillingRun:
    """Issue one invoice per facility with a charge > 0, all in one transaction: each charge
    and invoice of the line's town (its values, its due date)."""
    require_biller(actor)
    day = issued_on or timezone.localdate()
    with transaction.atomic():
        locked = BillingRun.objects.select_for_update().get(pk=run.pk)
        if locked.state != RunState.DRAFT:
            raise TransitionNotAllowed(
                f"Run {locked.period} is {locked.get_state_display().lower()}: only a draft is "
                "issued."
            )
        require_every_town(actor, _towns_of_lines(locked), f"Issuing the run of {locked.period}")
        lines = list(
            locked.lines.filter(status=CHARGED, amount__gt=0)
            .select_related("establishment", "person")
            .order_by("establishment__name", "id")
        )
        towns = {ln.pk: line_town(ln) for ln in lines}
        for town in sorted(set(towns.values())):
            due_date(day, town)  # refuse before writing anything when a due date is not set
        for ln in lines:
            assert ln.amount is not None
            charge: Charge = create_charge(
                source=ChargeSource.SURCHARGE,
                source_key=f"surcharge:{ln.establishment_id}:{locked.period}",
                person=ln.person,
                amount=ln.amount,
                description=f"Extra-strength surcharge {locked.period}, {ln.establishment.name} "
                f"({ln.get_flow_source_display().lower()})",
                assessed_on=locked.start,
                parameters=_parameters(ln.computation),
                steps=_steps(ln.computation),
                actor=actor,
                establishment=ln.establishment,
                period=(locked.start, locked.end),
                extra={"line": ln.computation},
                run=locked,
                town=towns[ln.pk],
            )
            issue_invoice(
                ln.person,
                [charge],
                actor,
                day,
                run=locked,
                establishment=ln.establishment,
                check_actor=False,
            )
        before = audit.snapshot(locked)
        locked.state = RunState.ISSUED
        locked.issued_by = person_or_none(actor)
        locked.issued_at = timezone.now()
        locked.save(update_fields=["state", "issued_by", "issued_at", "updated_at"])
        audit.record(
            actor=actor,
            action="billing.run_issued",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            citation=SOURCE_CITATIONS[ChargeSource.SURCHARGE],
            state_from=RunState.DRAFT,
            state_to=RunState.ISSUED,
        )
    return locked


def discard_run(run: BillingRun, actor: Actor, reason: str) -> BillingRun:
    """Discard a draft run, with the reason (the period may then be computed again)."""
    require_biller(actor)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the run is discarded."]})
    with transaction.atomic():
        locked = BillingRun.objects.select_for_update().get(pk=run.pk)
        if locked.state != RunState.DRAFT:
            raise TransitionNotAllowed(
                f"Run {locked.period} is {locked.get_state_display().lower()}: only a draft is "
                "discarded."
            )
        require_every_town(actor, _towns_of_lines(locked), f"Discarding the run of {locked.period}")
        before = audit.snapshot(locked)
        locked.state = RunState.DISCARDED
        locked.discard_reason = reason.strip()
        locked.save(update_fields=["state", "discard_reason", "updated_at"])
        audit.record(
            actor=actor,
            action="billing.run_discarded",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            state_from=RunState.DRAFT,
            state_to=RunState.DISCARDED,
        )
    return locked


def _parameters(computation: dict[str, Any]) -> list[dict[str, Any]]:
    """The dated parameters a line's surcharge used, once each (over all its spans)."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for span in computation.get("spans", []):
        sc = span.get("surcharge") or {}
        for part in sc.get("parts", []):
            seen.setdefault(
                (part["pounds_factor"]["name"], part["pounds_factor"]["effective"]),
                part["pounds_factor"],
            )
            for pol in part["pollutants"]:
                for key in ("normal", "rate"):
                    pv = pol[key]
                    seen.setdefault((pv["name"], pv["effective"], pv.get("authority")), pv)
    return list(seen.values())


def _steps(computation: dict[str, Any]) -> list[str]:
    """A line's computation in words: per span, its basis, flow, strengths, pounds and charge."""
    steps: list[str] = []
    for span in computation.get("spans", []):
        basis = span["basis"]
        steps.append(
            f"{span['first_day']}–{span['last_day']} ({span['days']} d) under "
            f"{basis['label'] or basis['id']}"
        )
        steps.append(f"flow: {span.get('flow_basis', '')}")
        for s in span.get("strength", {}).values():
            steps.append(f"daily-average strength, {s['message']}")
        sc = span.get("surcharge") or {}
        for part in sc.get("parts", []):
            for pol in part["pollutants"]:
                steps.append(
                    f"{part['first_day']}–{part['last_day']} ({part['days']} d, "
                    f"{part['volume_mg']} MG): {pol['pollutant']} excess {pol['excess_mg_l']} "
                    f"mg/l × {part['volume_mg']} MG × {part['pounds_factor']['value']} = "
                    f"{pol['pounds']} lb × USD {pol['rate_usd_per_lb']}/lb = USD "
                    f"{pol['charge_usd']}"
                )
        steps.append(f"span total, rounded to cents half-up once: USD {sc.get('total_usd')}")
    if computation.get("uncovered_days"):
        steps.append(
            f"{computation['uncovered_days']} day(s) of the period covered by no decision or "
            "agreement: not billed"
        )
    steps.append(f"total: USD {computation.get('amount')}")
    return steps
