"""Compliance schedules (40 CFR 403.8(f)(1)(iv)): the list and its download, imposing and
amending a schedule, one schedule with its milestones, and recording a milestone's completion
(staff, or the facility itself, through ``core.services.perform``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.forms import add_input_errors
from sewer_office.core.paging import page_of
from sewer_office.core.services import perform
from sewer_office.enforcement import forms as eforms
from sewer_office.enforcement import schedules
from sewer_office.enforcement.filters import ScheduleFilter
from sewer_office.enforcement.models import ComplianceSchedule, Milestone, Notice
from sewer_office.enforcement.states import SCHEDULERS
from sewer_office.enforcement.workflow import MILESTONE_WORKFLOW
from sewer_office.permits.models import IndustrialDischargeApproval

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
    """Impose a compliance schedule on a facility."""
    initial = {"establishment": request.GET.get("establishment")}
    form = eforms.ScheduleForm(request.POST or None, initial=initial)

    def imposed(s: ComplianceSchedule) -> HttpResponse:
        messages.success(request, f"{s.number} imposed on {s.establishment.name}.")
        return redirect(s.get_absolute_url())

    return form_action(
        request, form, lambda _: schedules.create_schedule(request.user, **_schedule_data(form))
    ).respond(
        then=imposed,
        show=lambda status: render(
            request,
            "enforcement/schedule_form.html",
            {"form": form, "schedule": None},
            status=status,
        ),
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

    def amended(_: object) -> HttpResponse:
        messages.success(request, f"{schedule.number} amended.")
        return redirect(schedule.get_absolute_url())

    return form_action(
        request,
        form,
        lambda d: schedules.amend_schedule(
            request.user,
            schedule,
            reason=d.get("reason") or "",
            requirement=d["requirement"],
            citation=d["citation"],
            milestones=d["milestones"],
        ),
    ).respond(
        then=amended,
        show=lambda status: render(
            request,
            "enforcement/schedule_form.html",
            {"form": form, "schedule": schedule},
            status=status,
        ),
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
    """Record a milestone's completion (staff, or the facility itself), through perform. Not
    ``form_action``: the workflow binds and checks the transition's form inside ``perform``
    (as a violation's actions do), and the refused form comes back on the error."""
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
