"""One violation's page: its story (finding, notices, service, deadlines, corrections,
referrals) as a timeline, the actions open to the person looking, and the forms that record a
cost and the court's judgment. Every action goes through ``core.services.perform`` or the
enforcement services, so the page refuses exactly what the API refuses.

:func:`refused` and :func:`form_errors` are also how billing, above enforcement, shows its own
refusals on this page (a collection on a judgment)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.roles import is_staff_member
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError
from sewer_office.core.form_actions import form_action
from sewer_office.core.panels import violation_context
from sewer_office.core.services import perform
from sewer_office.enforcement import forms as eforms
from sewer_office.enforcement import (
    liability,
    money,
    notices,
    petitions,
    proposals,
    referrals,
    rules,
    services,
    town_ladder,
)
from sewer_office.enforcement.models import Judgment, Violation
from sewer_office.enforcement.money_forms import JudgmentForm
from sewer_office.enforcement.petition_forms import PetitionDecisionForm, PetitionForm
from sewer_office.enforcement.queries import violations
from sewer_office.enforcement.states import COST_RECORDERS
from sewer_office.enforcement.workflow import WORKFLOW


def _violation(request: HttpRequest, pk: int) -> Violation:
    """The violation if ``request.user`` may see it, else 404 (as if it did not exist)."""
    return get_object_or_404(services.visible_violations(violations(), request.user), pk=pk)


@dataclass(frozen=True)
class Step:
    """One step of the violation's story, for its timeline."""

    day: date
    label: str
    detail: str = ""
    citation: str = ""
    late: bool = False


def steps(violation: Violation, today: date) -> list[Step]:
    """finding → notice → service → deadline → correction → verification or escalation."""
    out: list[Step] = []
    f = violation.finding
    if f is not None:
        out.append(Step(timezone.localdate(f.observed_at), "Finding", f.message, f.citation))
    out.append(
        Step(
            timezone.localdate(violation.opened_at),
            "Violation opened",
            violation.description,
            violation.section,
        )
    )
    verified = liability.verified_correction(violation)
    # the day the violation ceased, as its verification found it (§ 196-22 B)
    ceased = None if verified is None else verified.ceased_day
    for n in violation.notices.all():
        sup = (
            f" (supersedes {n.supersedes.number}: {n.supersede_reason})"
            if n.supersedes is not None
            else ""
        )
        out.append(
            Step(n.issued_on, f"{n.response_label} issued, {n.number}", n.nature + sup, n.citation)
        )
        if n.mailed_on:
            out.append(Step(n.mailed_on, "Mailed by certified mail", n.service_text, n.citation))
        if n.served_on:
            out.append(Step(n.served_on, "Served", n.service_text, n.citation))
        if n.deadline and not hasattr(n, "superseded_by"):
            missed = n.deadline < today and (ceased is None or ceased > n.deadline)
            basis = n.deadline_basis or {}
            own = "step" in basis  # the town's own clock (:mod:`..town_ladder`), or § 196-22 A's
            text = (
                f"{basis['days']} {basis['count']} days from {basis['counted_from']}"
                if own
                else f"{n.period_days} days from service"
            )
            passed = " passed unanswered" if own else " passed uncorrected"
            out.append(
                Step(
                    n.deadline,
                    "Deadline" + (passed if missed else ""),
                    text,
                    str(basis["citation"]) if own else "§ 196-22 A",
                    late=missed,
                )
            )
    for c in violation.corrections.all():
        out.append(Step(c.reported_on, "Correction reported", c.description, "§ 196-22 A"))
        if c.verified_on:
            out.append(
                Step(
                    c.verified_on,
                    "Correction verified",
                    f"The violation ceased on {c.ceased_day:%Y-%m-%d}, as found; verified "
                    f"{c.gap_days} day(s) after the report. {c.decision_note}".strip(),
                    "§ 196-22 B",
                )
            )
        if c.rejected_on:
            out.append(Step(c.rejected_on, "Correction rejected", c.decision_note, "§ 196-22 B"))
    for r in violation.referrals.all():
        out.append(
            Step(
                r.referred_on,
                f"Referred: {r.get_kind_display()}",
                (r.referred_to + " " + r.note).strip(),
                r.citation,
            )
        )
    return sorted(out, key=lambda s: s.day)


def detail_context(
    request: HttpRequest, violation: Violation, submitted: dict[str, Any] | None = None
) -> dict[str, Any]:
    submitted = submitted or {}
    today = timezone.localdate()
    actions = []
    for t in WORKFLOW.available(request.user, violation):
        form = submitted.get(t.name) or (t.form() if t.form else None)
        town_ladder.fit_form(violation, form, t.name)
        actions.append(
            {
                "t": t,
                "form": form,
                "errors": submitted.get(f"{t.name}:errors"),
                # the town's own law for a town whose law is its own (not § 196-22's)
                "citation": WORKFLOW.citation_on(violation, t),
                "label": WORKFLOW.label_on(violation, t),
            }
        )
    may_cost = services.may_record_cost(request.user)
    return {
        **_money_context(request, violation, submitted),
        "violation": violation,
        "kind_label": rules.kind_label(violation.kind, violation.observed_on),
        "steps": steps(violation, today),
        "notices": violation.notices.select_related("issued_by", "served_by"),
        "current": notices.current_notice(violation),
        "corrections": violation.corrections.select_related("reported_by", "verified_by"),
        "costs": violation.costs.all(),
        "costs_total": liability.costs_total(violation),
        "referrals": violation.referrals.all(),
        "evidence": violation.evidence.all(),
        "fines": liability.fines(violation, today),
        # the violation's town's law when it is its own: the article's costs (§ 196-22 C) and
        # fine (§ 196-22 B) are not its law
        "town_law": own[1] if (own := town_ladder.own_law_of(violation)) is not None else None,
        "next_step": referrals.next_step(violation),
        # the response the plan proposes, naming the plan and its adoption (staff only: the
        # office's deliberation, not the person's notice)
        "proposal": proposals.proposal_for(violation, today)
        if is_staff_member(request.user)
        else None,
        "actions": actions,
        "cost_form": submitted.get("cost") or (eforms.CostForm() if may_cost else None),
        "timeline": audit.timeline(violation),
        "workflow": WORKFLOW,
    }


def _money_context(
    request: HttpRequest, violation: Violation, submitted: dict[str, Any]
) -> dict[str, Any]:
    """What the violation has cost and yielded: the court's judgments and what was collected on
    them, and the judgment form (§ 196-22 B), with what the apps above contribute through the
    ``violation_context`` hook (:mod:`core.panels`; billing: the invoices of its costs and fine,
    "Bill the Town's costs", "Record a collection")."""
    user = request.user
    judgments = list(
        violation.judgments.select_related("referral").prefetch_related("collections__payment")
    )
    may_judge = money.may_record_judgment(user)
    open_referrals = money.judgeable_referrals(violation) if may_judge else []
    judgment_form = submitted.get("judgment") or (
        JudgmentForm(referrals=open_referrals) if open_referrals else None
    )
    return {
        **violation_context(request, violation),
        **_petition_context(request, violation, submitted),
        "judgments": [(j, money.collected(j)) for j in judgments],
        "judgment_form": judgment_form,
        "may_open_finding": services.may_open(user),
    }


def _petition_context(
    request: HttpRequest, violation: Violation, submitted: dict[str, Any]
) -> dict[str, Any]:
    """The petitions against an order of the town's own ladder, the open order's window, and
    the forms to record a petition and decide one (:mod:`..petitions`)."""
    user = request.user
    window = petitions.window(violation)
    recorded = list(violation.petitions.select_related("order"))
    open_order = window is not None and not any(p.order_id == window.order.pk for p in recorded)
    return {
        "petitions": recorded,
        "petition_window": window,
        "petition_form": submitted.get("petition")
        or (PetitionForm() if open_order and petitions.may_record(user) else None),
        "decision_form": submitted.get("decision")
        or (PetitionDecisionForm() if petitions.may_decide(user) else None),
    }


@office_view()
def violation_detail(request: HttpRequest, pk: int) -> HttpResponse:
    violation = _violation(request, pk)
    return render(request, "enforcement/detail.html", detail_context(request, violation))


@require_POST
@office_view()
def violation_action(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """Make the workflow's transition ``name`` with the POST as its facts.

    Not :func:`~sewer_office.core.form_actions.form_action`: the transition's form (or none) is
    bound and validated by :func:`~sewer_office.core.services.perform` itself, the one place
    a workflow's facts are cleaned, so the page has no form of its own to validate first."""
    violation = _violation(request, pk)
    try:
        violation = perform(
            violation, name, request.user, data=request.POST, reason=request.POST.get("reason", "")
        )
    except InvalidInput as e:
        forms: dict[str, Any] = {f"{name}:errors": e.errors}
        if e.form is not None:
            forms[name] = e.form
        messages.error(request, e.message)
        return render(
            request,
            "enforcement/detail.html",
            detail_context(request, violation, forms),
            status=400,
        )
    except OfficeError as e:
        messages.error(request, e.message)
        return render(
            request,
            "enforcement/detail.html",
            detail_context(request, violation),
            status=e.status_code,
        )
    messages.success(request, f"{violation.number}: {WORKFLOW.get(name).label} — recorded.")
    return redirect(violation.get_absolute_url())


@require_POST
@office_view(*COST_RECORDERS)
def violation_cost(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a cost the Town bore because of the violation (§ 196-22 C)."""
    violation = _violation(request, pk)
    form = eforms.CostForm(request.POST)

    def recorded(_: object) -> HttpResponse:
        messages.success(request, "Cost recorded (§ 196-22 C).")
        return redirect(violation.get_absolute_url())

    return form_action(
        request, form, lambda d: services.record_cost(violation, request.user, **d)
    ).respond(
        then=recorded,
        show=lambda status: render(
            request,
            "enforcement/detail.html",
            detail_context(request, violation, {"cost": form}),
            status=status,
        ),
    )


def form_errors(form: Any) -> InvalidInput:
    """A form's own refusals as the services' bad input (one message per field)."""
    return InvalidInput({k: [str(m) for m in v] for k, v in form.errors.items()})


def refused(
    request: HttpRequest,
    violation: Violation,
    error: OfficeError,
    forms: dict[str, Any],
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """The violation page again, with the refusal (above the page, and on the form's fields).
    ``context`` replaces parts of the page's context: an app above enforcement refusing one of
    its own forms on this page (billing: a collection) gives its form back with its errors."""
    messages.error(request, error.message)
    return render(
        request,
        "enforcement/detail.html",
        {**detail_context(request, violation, forms), **(context or {})},
        status=400 if isinstance(error, InvalidInput) else error.status_code,
    )


@require_POST
@office_view()
def violation_judgment(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the court's judgment on the referral for prosecution (§ 196-22 B)."""
    violation = _violation(request, pk)
    form = JudgmentForm(request.POST, referrals=money.judgeable_referrals(violation))

    def record(d: dict[str, Any]) -> Judgment:
        referral = violation.referrals.filter(pk=d.pop("referral")).first()
        return money.record_judgment(violation, request.user, referral=referral, **d)

    def recorded(_: Judgment) -> HttpResponse:
        messages.success(request, f"{violation.number}: judgment recorded (§ 196-22 B).")
        return redirect(violation.get_absolute_url())

    # a second judgment on a referral is a conflict (409), not bad input
    return form_action(request, form, record, error_status=True).respond(
        then=recorded,
        show=lambda status: render(
            request,
            "enforcement/detail.html",
            detail_context(request, violation, {"judgment": form}),
            status=status,
        ),
    )
