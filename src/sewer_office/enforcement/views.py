"""Enforcement pages: the list by stage, one violation with its timeline and actions, opening
a violation, the notice letter (PDF). Every action calls the services (and through them
``core.services.perform``), so the pages refuse exactly what the API refuses."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.forms import add_input_errors, add_office_error
from sewer_office.core.letters import bytes_response, pdf_response
from sewer_office.core.paging import page_of
from sewer_office.core.panels import violation_context
from sewer_office.core.services import perform
from sewer_office.findings.opinions import (
    OPINION_STATUSES,
    current_opinion,
    may_record_opinion,
    record_opinion,
)
from sewer_office.findings.words import capitalized, describe
from sewer_office.permits.models import IndustrialDischargeApproval

from . import forms as eforms
from . import grounds, letters, money, proposals, rules, schedules, services
from .choices import FINDING_KINDS
from .filters import ScheduleFilter, ViolationFilter
from .models import ComplianceSchedule, Finding, Milestone, Notice, Referral, Violation
from .money_forms import JudgmentForm
from .states import COST_RECORDERS, OPEN_STATES, OPENERS, SCHEDULERS
from .workflow import MILESTONE_WORKFLOW, WORKFLOW

WEEK = 7


def _key(name: str) -> Any:
    return lambda row: row[name]


def _day(iso: str | None) -> date | None:
    """A day of the summary (ISO text, shared with the CLI) as a date, typed in a download."""
    return date.fromisoformat(iso) if iso else None


#: One row per violation (``services.violation_summary``), as ``sewer-use violations``.
VIOLATION_COLUMNS = (
    Column("Id", _key("id")),
    Column("Number", _key("number")),
    Column("Facility or property", _key("facility")),
    Column("Person responsible", _key("person")),
    Column("Section", _key("section")),
    Column("Kind", lambda r: rules.kind_label(r["kind"], date.fromisoformat(r["observed_on"]))),
    Column("Stage", _key("stage")),
    Column("Found", lambda r: _day(r["observed_on"])),
    Column("Notice deadline", lambda r: _day(r["notice_deadline"])),
    Column("Days late", _key("days_late")),
    Column(
        "Fines accrued (USD)", lambda r: Decimal(r["fines_accrued"]) if r["fines_accrued"] else None
    ),
    Column("Fines", _key("fines_status")),
    Column("Would now be refused", _key("would_now_be_refused")),
)
SCHEDULE_COLUMNS = (
    Column("Number", "number"),
    Column("Facility", "establishment.name"),
    Column("Imposed by", "imposed_by_text"),
    Column("Requirement", "requirement"),
    Column("Citation", "citation"),
    Column("Milestones", lambda s: len(s.milestones.all())),
    Column(
        "Next milestone due",
        lambda s: min(
            (m.due_on for m in s.milestones.all() if m.completed_on is None), default=None
        ),
    ),
    Column(
        "Milestones missed",
        lambda s: sum(
            1 for m in s.milestones.all() if (m.completed_on or timezone.localdate()) > m.due_on
        ),
    ),
)


def base_queryset() -> Any:
    return Violation.objects.select_related(
        "person", "establishment__building__property", "property", "finding"
    ).order_by("-observed_on", "-id")


def _violation(request: HttpRequest, pk: int) -> Violation:
    """The violation if ``request.user`` may see it, else 404 (as if it did not exist)."""
    return get_object_or_404(services.visible_violations(base_queryset(), request.user), pk=pk)


def _visible_notices(request: HttpRequest) -> Any:
    return visible(Notice.objects.select_related("violation__person"), request.user)


#: Rows of the list page's cards (deadlines this week, fines accruing); the rest are counted
#: and one click away (the list filtered to their state), so the page stays fast.
CARD_ROWS = 25

#: What the fine of each listed violation reads, fetched with the list (no query per row).
FINE_PREFETCH = ("notices__superseded_by", "corrections")


def deadlines_between(request: HttpRequest, first: date, last: date) -> Any:
    """Served notices in force whose deadline falls in ``first..last`` (violation still served)."""
    return (
        _visible_notices(request)
        .filter(
            deadline__gte=first,
            deadline__lte=last,
            superseded_by__isnull=True,
            violation__state="served",
        )
        .order_by("deadline", "id")
    )


def _summaries(qs: QuerySet[Violation], today: date) -> Iterator[dict[str, Any]]:
    """One row per violation for a download, read only when a download is asked for (a generator
    function: a generator expression would run the query, and its prefetches, at once)."""
    for v in qs.prefetch_related("notices__superseded_by", "corrections"):
        yield services.violation_summary(v, today)


@office_view()
def violation_list(request: HttpRequest) -> HttpResponse:
    base = services.visible_violations(base_queryset(), request.user)
    fs = ViolationFilter(request.GET or None, queryset=base, request=request)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    rows = _summaries(qs, timezone.localdate())
    if (download := export(request, rows, VIOLATION_COLUMNS, "violations")) is not None:
        return download
    page, query = page_of(request, qs)
    # which listed violations the rule of grounds would now refuse (records unchanged)
    listed = [(v, grounds.refusal(v.section, v.finding)) for v in page]
    counts = dict(
        base.filter(state__in=OPEN_STATES)
        .order_by()
        .values("state")
        .annotate(n=Count("id"))
        .values_list("state", "n")
    )
    stages = [(s, WORKFLOW.label(s), counts.get(s, 0)) for s in OPEN_STATES]
    today = timezone.localdate()
    accruing = list(
        base.filter(state="fines_accruing").prefetch_related(*FINE_PREFETCH)[:CARD_ROWS]
    )
    week = deadlines_between(request, today, today + timedelta(days=WEEK))
    this_week = list(week[: CARD_ROWS + 1])
    return render(
        request,
        "enforcement/list.html",
        {
            "filter": fs,
            "page": page,
            "listed": listed,
            "query": query,
            "stages": stages,
            "this_week": this_week[:CARD_ROWS],
            "this_week_total": week.count() if len(this_week) > CARD_ROWS else len(this_week),
            "accruing": [(v, services.fines(v, today)) for v in accruing],
            "accruing_total": counts.get("fines_accruing", 0),
            "may_open": services.may_open(request.user),
        },
    )


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
    verified = services.verified_correction(violation)
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
            out.append(
                Step(
                    n.deadline,
                    "Deadline" + (" passed uncorrected" if missed else ""),
                    f"{n.period_days} days from service",
                    "§ 196-22 A",
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
        actions.append({"t": t, "form": form, "errors": submitted.get(f"{t.name}:errors")})
    may_cost = services.may_record_cost(request.user)
    return {
        **_money_context(request, violation, submitted),
        "violation": violation,
        "kind_label": rules.kind_label(violation.kind, violation.observed_on),
        "steps": steps(violation, today),
        "notices": violation.notices.select_related("issued_by", "served_by"),
        "current": services.current_notice(violation),
        "corrections": violation.corrections.select_related("reported_by", "verified_by"),
        "costs": violation.costs.all(),
        "costs_total": services.costs_total(violation),
        "referrals": violation.referrals.all(),
        "evidence": violation.evidence.all(),
        "fines": services.fines(violation, today),
        "next_step": services.next_step(violation),
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
        "judgments": [(j, money.collected(j)) for j in judgments],
        "judgment_form": judgment_form,
        "may_open_finding": services.may_open(user),
    }


@office_view()
def violation_detail(request: HttpRequest, pk: int) -> HttpResponse:
    violation = _violation(request, pk)
    return render(request, "enforcement/detail.html", detail_context(request, violation))


@require_POST
@office_view()
def violation_action(request: HttpRequest, pk: int, name: str) -> HttpResponse:
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
    violation = _violation(request, pk)
    form = eforms.CostForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            services.record_cost(violation, request.user, **form.cleaned_data)
        except InvalidInput as e:
            add_input_errors(form, e)
        else:
            messages.success(request, "Cost recorded (§ 196-22 C).")
            return redirect(violation.get_absolute_url())
    return render(
        request,
        "enforcement/detail.html",
        detail_context(request, violation, {"cost": form}),
        status=status,
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
    if not form.is_valid():
        return refused(request, violation, form_errors(form), {"judgment": form})
    d = form.cleaned_data
    referral = violation.referrals.filter(pk=d.pop("referral")).first()
    try:
        money.record_judgment(violation, request.user, referral=referral, **d)
    except OfficeError as e:
        add_office_error(form, e)
        return refused(request, violation, e, {"judgment": form})
    messages.success(request, f"{violation.number}: judgment recorded (§ 196-22 B).")
    return redirect(violation.get_absolute_url())


@office_view(*OPENERS)
def violation_open(request: HttpRequest) -> HttpResponse:
    """Open a violation by hand, or from a finding (``?finding=<id>``): the form filled from
    the finding (facility, person responsible, section, nature in plain words), every field
    editable. A POST of the finding alone opens it as the finding shows it."""
    today = timezone.localdate()
    finding = None
    if request.GET.get("finding") or request.POST.get("finding"):
        try:
            fid = int(request.GET.get("finding") or request.POST.get("finding") or "")
        except ValueError:
            raise Http404("no such finding") from None
        finding = get_object_or_404(
            visible(Finding.objects.select_related("establishment__operator"), request.user),
            pk=fid,
        )
    if finding is not None and request.method == "POST" and "opinion" in request.POST:
        return _record_opinion(request, finding)
    if finding is not None and request.method == "POST" and "section" not in request.POST:
        try:
            v = services.open_from_finding(request.user, finding)
        except OfficeError as e:
            messages.error(request, e.message)
            return render(
                request,
                "enforcement/open.html",
                _finding_context(request, finding),
                status=e.status_code,
            )
        messages.success(request, f"{v.number} opened from finding #{finding.pk}.")
        return redirect(v.get_absolute_url())
    context: dict[str, Any] = _finding_context(request, finding) if finding is not None else {}
    if context.get("refusal") or context.get("opened"):
        return render(request, "enforcement/open.html", context)
    form = eforms.OpenForm(
        request.POST or None,
        kinds=rules.kind_choices(today),
        finding_section=services._violated_section(finding) if finding is not None else "",
        initial=_from_finding(finding) if finding is not None else None,
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                v = services.open_violation(request.user, finding=finding, **form.cleaned_data)
            except OfficeError as e:
                add_office_error(form, e)
                if not isinstance(e, InvalidInput):
                    status = e.status_code
            else:
                source = f" from finding #{finding.pk}" if finding is not None else ""
                messages.success(request, f"{v.number} opened{source}.")
                return redirect(v.get_absolute_url())
    return render(request, "enforcement/open.html", {**context, "form": form}, status=status)


def _from_finding(finding: Finding) -> dict[str, Any]:
    """The open form's values from ``finding``: what the service would open by default (the
    guide's kind, the section it shows violated, the facility, its operator as the person
    responsible, the day observed), with the nature in plain words (:mod:`findings.words`)."""
    establishment = finding.establishment
    return {
        "kind": FINDING_KINDS.get(finding.kind, ""),
        "section": services._violated_section(finding),
        "description": describe(finding),
        "person": establishment.operator.current().pk if establishment is not None else None,
        "establishment": establishment.pk if establishment is not None else None,
        "observed_on": timezone.localdate(finding.observed_at),
    }


def _finding_context(request: HttpRequest, finding: Finding) -> dict[str, Any]:
    """The finding in plain words, whether it is a violation to open (and why not), the
    violation already open from it, and its opinion."""
    opened = services.visible_violations(
        Violation.objects.filter(finding=finding, state__in=OPEN_STATES), request.user
    ).first()
    return {
        "finding": finding,
        "plain": capitalized(describe(finding)),
        "refusal": grounds.finding_refusal(finding),
        "opened": opened,
        "opinion": current_opinion(finding),
        "may_record_opinion": finding.status in OPINION_STATUSES
        and may_record_opinion(request.user),
    }


def _record_opinion(request: HttpRequest, finding: Finding) -> HttpResponse:
    """Record the engineer's/Superintendent's § 196-19 D opinion, then back to the finding."""
    choice = request.POST.get("opinion", "")
    try:
        if choice not in ("harm_likely", "harm_not_likely"):
            raise InvalidInput({"opinion": ["Say whether harm appears likely."]})
        record_opinion(
            finding,
            request.user,
            harm_likely=choice == "harm_likely",
            reasons=request.POST.get("reasons", ""),
        )
    except OfficeError as e:
        messages.error(request, e.message)
        return render(
            request,
            "enforcement/open.html",
            _finding_context(request, finding),
            status=e.status_code,
        )
    messages.success(request, f"Opinion recorded on finding #{finding.pk}.")
    return redirect(f"{request.path}?finding={finding.pk}")


@office_view()
def notice_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The notice (or order) as issued: its document of record, the same bytes before and after
    service, to whoever may see it (an order not yet kept: as it stands)."""
    notice = get_object_or_404(_visible_notices(request), pk=pk)
    document, content = letters.notice_document(notice, request.user)
    if document is not None:
        return pdf_response(document)
    return bytes_response(content, letters.kind(letters.kind_of(notice)).filename(notice))


@office_view()
def certificate_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The certificate of service of a notice, kept when service was complete."""
    notice = get_object_or_404(_visible_notices(request), pk=pk)
    document = letters.certificate(notice)
    if document is None:
        raise Http404("No certificate of service: the notice's service is not complete.")
    return pdf_response(document)


@office_view()
def referral_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The referral to the Town Attorney or the police, as made (staff only: it is the Town's
    communication to its attorney or the police)."""
    if services.is_outside(request.user):
        raise Http404("No such referral.")
    referral = get_object_or_404(
        visible(Referral.objects.select_related("violation"), request.user), pk=pk
    )
    return pdf_response(letters.referral_document(referral))


# --- compliance schedules (40 CFR 403.8(f)(1)(iv)) --------------------------------------


def _schedules(request: HttpRequest) -> QuerySet[ComplianceSchedule]:
    return schedules.visible_schedules(
        ComplianceSchedule.objects.select_related(
            "establishment", "approval", "notice"
        ).prefetch_related("milestones"),
        request.user,
    )


def _schedule(request: HttpRequest, pk: int) -> ComplianceSchedule:
    return get_object_or_404(_schedules(request), pk=pk)


@office_view()
def schedule_list(request: HttpRequest) -> HttpResponse:
    """Compliance schedules, per facility (``?establishment=<id>``)."""
    fs = ScheduleFilter(request.GET or None, queryset=_schedules(request), request=request)
    qs = fs.qs if fs.is_bound and fs.is_valid() else _schedules(request)
    if (download := export(request, qs, SCHEDULE_COLUMNS, "compliance-schedules")) is not None:
        return download
    page, query = page_of(request, qs)
    return render(
        request,
        "enforcement/schedules.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "today": timezone.localdate(),
            "may_schedule": schedules.may_schedule(request.user),
        },
    )


def _schedule_data(form: eforms.ScheduleForm) -> dict[str, Any]:
    d = dict(form.cleaned_data)
    approval_id, notice_id = d.pop("approval"), d.pop("notice")
    d.pop("reason", None)
    errors: dict[str, list[str]] = {}
    d["approval"] = d["notice"] = None
    if approval_id:
        d["approval"] = IndustrialDischargeApproval.objects.filter(pk=approval_id).first()
        if d["approval"] is None:
            errors["approval"] = [f"No industrial approval #{approval_id}."]
    if notice_id:
        d["notice"] = Notice.objects.select_related("violation").filter(pk=notice_id).first()
        if d["notice"] is None:
            errors["notice"] = [f"No notice NOV-{notice_id}."]
    if errors:
        raise InvalidInput(errors)
    return d


@office_view(*SCHEDULERS)
def schedule_new(request: HttpRequest) -> HttpResponse:
    initial = {"establishment": request.GET.get("establishment")}
    form = eforms.ScheduleForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                s = schedules.create_schedule(request.user, **_schedule_data(form))
            except OfficeError as e:
                add_office_error(form, e)
                if not isinstance(e, InvalidInput):
                    status = e.status_code
            else:
                messages.success(request, f"{s.number} imposed on {s.establishment.name}.")
                return redirect(s.get_absolute_url())
    return render(
        request, "enforcement/schedule_form.html", {"form": form, "schedule": None}, status=status
    )


@office_view(*SCHEDULERS)
def schedule_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Amend a schedule: requirement, citation, new milestones; a reason is required."""
    schedule = _schedule(request, pk)
    form = eforms.ScheduleForm(
        request.POST or None,
        initial={
            "establishment": schedule.establishment_id,
            "imposed_by": schedule.imposed_by,
            "approval": schedule.approval_id,
            "notice": schedule.notice_id,
            "requirement": schedule.requirement,
            "citation": schedule.citation,
        },
    )
    for name in ("establishment", "imposed_by", "approval", "notice"):
        form.fields[name].disabled = True
    form.fields[
        "milestones"
    ].help_text = (
        "milestones to add, one a line: YYYY-MM-DD description (existing ones never change)"
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            d = form.cleaned_data
            try:
                schedules.amend_schedule(
                    request.user,
                    schedule,
                    reason=d.get("reason") or "",
                    requirement=d["requirement"],
                    citation=d["citation"],
                    milestones=d["milestones"],
                )
            except OfficeError as e:
                add_office_error(form, e)
                if not isinstance(e, InvalidInput):
                    status = e.status_code
            else:
                messages.success(request, f"{schedule.number} amended.")
                return redirect(schedule.get_absolute_url())
    return render(
        request,
        "enforcement/schedule_form.html",
        {"form": form, "schedule": schedule},
        status=status,
    )


def _schedule_context(
    request: HttpRequest, schedule: ComplianceSchedule, failed: dict[int, Any] | None = None
) -> dict[str, Any]:
    failed = failed or {}
    rows = []
    for m in schedule.milestones.all():
        may = MILESTONE_WORKFLOW.available(request.user, m)
        form = failed.get(m.pk) or (eforms.MilestoneCompletionForm() if may else None)
        rows.append({"m": m, "form": form})
    return {
        "schedule": schedule,
        "rows": rows,
        "today": timezone.localdate(),
        "may_schedule": schedules.may_schedule(request.user),
        "timeline": audit.timeline(schedule),
    }


@office_view()
def schedule_detail(request: HttpRequest, pk: int) -> HttpResponse:
    schedule = _schedule(request, pk)
    return render(request, "enforcement/schedule.html", _schedule_context(request, schedule))


@require_POST
@office_view()
def milestone_complete(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a milestone's completion (staff, or the facility itself), through perform."""
    milestone = get_object_or_404(
        visible(Milestone.objects.select_related("schedule"), request.user), pk=pk
    )
    schedule = _schedule(request, milestone.schedule_id)
    try:
        perform(milestone, "complete_milestone", request.user, data=request.POST)
    except InvalidInput as e:
        form = e.form
        if form is None:
            form = eforms.MilestoneCompletionForm(request.POST)
            form.is_valid()
            add_input_errors(form, e)
        messages.error(request, e.message)
        return render(
            request,
            "enforcement/schedule.html",
            _schedule_context(request, schedule, {milestone.pk: form}),
            status=400,
        )
    except OfficeError as e:
        messages.error(request, e.message)
        return render(
            request,
            "enforcement/schedule.html",
            _schedule_context(request, schedule),
            status=e.status_code,
        )
    messages.success(request, f"Milestone “{milestone.description}”: completion recorded.")
    return redirect(schedule.get_absolute_url())
