"""Inspection pages: the list, one inspection, scheduling, the checklist, photos, the report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of
from sewer_office.findings.services import findings_of

from . import entry, services
from . import forms as iforms
from .choices import InspectionState
from .filters import InspectionFilter
from .models import Inspection
from .report import report_response

PAGE_SIZE = 25

INSPECTION_COLUMNS = (
    Column("Number", "number"),
    Column("Kind", "get_kind_display"),
    Column("Subject", "subject"),
    Column("Scheduled for", "scheduled_for"),
    Column("Started", "started_at"),
    Column("Ended", "ended_at"),
    Column("Inspector", lambda i: i.inspector.get_full_name() or i.inspector.get_username()),
    Column("State", "get_state_display"),
)


class StateLabels:
    """What the shared timeline template asks of a workflow: the label of a state."""

    @staticmethod
    def label(value: str) -> str:
        return InspectionState(value).label if value in InspectionState.values else value


def base_queryset() -> Any:
    """Inspections with what lists show, latest first (by when done, else when planned)."""
    when = Coalesce("ended_at", "scheduled_for", "created_at")
    return Inspection.objects.select_related(
        "establishment__operator",
        "establishment__building__property",
        "property__owner",
        "inspector",
    ).order_by(when.desc(), "-id")


def _inspection(request: HttpRequest, pk: int) -> Inspection:
    """The inspection if ``request.user`` may see it, else 404 (as if it did not exist)."""
    return get_object_or_404(services.visible_inspections(base_queryset(), request.user), pk=pk)


@office_view()
def inspection_list(request: HttpRequest) -> HttpResponse:
    base = services.visible_inspections(base_queryset(), request.user)
    fs = InspectionFilter(request.GET or None, queryset=base, request=request)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, INSPECTION_COLUMNS, "inspections")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "inspections/list.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "may_perform": services.may_perform(request.user),
        },
    )


def _detail_context(request: HttpRequest, inspection: Inspection, **extra: Any) -> dict[str, Any]:
    may = services.may_perform(request.user)
    scheduled = inspection.state == InspectionState.SCHEDULED
    context = {
        "inspection": inspection,
        "answers": inspection.answers.all(),
        "findings": findings_of(inspection).order_by("id"),
        "photos": inspection.photos(),
        "samples": inspection.samples.all(),
        "addenda": inspection.addenda.select_related("by"),
        "timeline": audit.timeline(inspection),
        "workflow": StateLabels(),
        "may_perform": may,
        "photo_form": iforms.PhotoForm() if may and scheduled else None,
        "cancel_form": iforms.CancelForm() if may and scheduled else None,
        "addendum_form": iforms.AddendumForm()
        if may and inspection.state == InspectionState.COMPLETED
        else None,
        "agency_inspectors": inspection.agency_inspectors.all(),
        "refusals": inspection.refusals.all(),
        "agency_form": iforms.AgencyInspectorForm()
        if may and scheduled and not inspection.on_easement
        else None,
        "refusal_form": iforms.RefusalForm() if may and scheduled else None,
    }
    context.update(extra)
    return context


@office_view()
def inspection_detail(request: HttpRequest, pk: int) -> HttpResponse:
    inspection = _inspection(request, pk)
    return render(request, "inspections/detail.html", _detail_context(request, inspection))


@office_view(*services.PERFORMERS)
def inspection_schedule(request: HttpRequest) -> HttpResponse:
    initial = {"establishment": request.GET.get("establishment"), "inspector": request.user.pk}
    form = iforms.ScheduleForm(request.POST or None, initial=initial)

    def scheduled(inspection: Inspection) -> HttpResponse:
        messages.success(request, f"{inspection.number} scheduled.")
        return redirect(inspection.get_absolute_url())

    return form_action(
        request,
        form,
        lambda d: services.schedule(
            request.user,
            kind=d["kind"],
            establishment=d.get("establishment"),
            property=d.get("property"),
            location=d.get("location") or "",
            on_easement=bool(d.get("on_easement")),
            scheduled_for=d.get("scheduled_for"),
            unscheduled=bool(d.get("unscheduled")),
            inspector=d.get("inspector"),
            notes=d.get("notes") or "",
        ),
        error_status=True,
    ).respond(
        then=scheduled,
        show=lambda status: render(
            request,
            "inspections/form.html",
            {"form": form, "title": "Schedule an inspection"},
            status=status,
        ),
    )


@office_view(*services.PERFORMERS)
def inspection_complete(request: HttpRequest, pk: int) -> HttpResponse:
    inspection = _inspection(request, pk)
    key = request.POST.get("submission_key", "") if request.method == "POST" else ""
    if services.already_completed_by(inspection, key):
        # the tablet sent its draft again (the answer to the first send was lost): done once
        messages.success(request, f"{inspection.number} completed (already recorded).")
        return redirect(inspection.get_absolute_url())
    if inspection.state != InspectionState.SCHEDULED:
        messages.error(request, f"{inspection.number} is {inspection.get_state_display().lower()}.")
        return redirect(inspection.get_absolute_url())
    now = timezone.localtime().replace(second=0, microsecond=0)
    form = iforms.CompleteForm(
        inspection,
        request.POST or None,
        request.FILES or None,
        initial={"started_at": now, "ended_at": now},
    )

    def complete(d: dict[str, Any]) -> None:
        services.complete(
            inspection,
            request.user,
            credentials_presented=bool(d.get("credentials_presented")),
            credential=d.get("credential") or "",
            started_at=d["started_at"],
            ended_at=d.get("ended_at"),
            answers=form.answers(),
            observations=d.get("observations") or "",
            samples=d.get("samples") or (),
            samples_text=d.get("samples_text") or "",
            submission_key=d.get("submission_key") or "",
            photos=d.get("photos") or (),
        )

    def completed(_: None) -> HttpResponse:
        messages.success(request, f"{inspection.number} completed.")
        return redirect(inspection.get_absolute_url())

    return form_action(request, form, complete, prefix="note_", error_status=True).respond(
        then=completed,
        show=lambda status: render(
            request,
            "inspections/complete.html",
            {"form": form, "inspection": inspection},
            status=status,
        ),
    )


#: What an action of the inspection's page does with the inspection and its form's data.
DetailAct = Callable[[Inspection, dict[str, Any]], object]


def _detail_action(
    request: HttpRequest, pk: int, name: str, form: forms.Form, act: DetailAct, done: str
) -> HttpResponse:
    """One of the inspection page's forms (``name`` in its context), POSTed: through
    :func:`form_action`, the refusal keeping its status (a state conflict: 409). The page
    comes back with the refused form where it offers that form; where it no longer does (the
    inspection was completed meanwhile), with the refusal as a message."""
    inspection = _inspection(request, pk)

    def again(status: int) -> HttpResponse:
        context = _detail_context(request, inspection)
        if context.get(name) is not None:
            context[name] = form
        else:
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, str(error))
        return render(request, "inspections/detail.html", context, status=status)

    def acted(_: object) -> HttpResponse:
        messages.success(request, done)
        return redirect(inspection.get_absolute_url())

    outcome = form_action(request, form, lambda d: act(inspection, d), error_status=True)
    return outcome.respond(then=acted, show=again)


@require_POST
@office_view(*services.PERFORMERS)
def inspection_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail_action(
        request,
        pk,
        "cancel_form",
        iforms.CancelForm(request.POST),
        lambda i, d: services.cancel(i, request.user, d["reason"]),
        "Inspection cancelled.",
    )


@require_POST
@office_view(*services.PERFORMERS)
def inspection_photo(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail_action(
        request,
        pk,
        "photo_form",
        iforms.PhotoForm(request.POST, request.FILES),
        lambda i, d: services.add_photo(i, request.user, d["photo"], d["title"]),
        "Photo added.",
    )


@require_POST
@office_view(*services.PERFORMERS)
def inspection_addendum(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail_action(
        request,
        pk,
        "addendum_form",
        iforms.AddendumForm(request.POST),
        lambda i, d: services.add_addendum(i, request.user, d["text"]),
        "Addendum appended.",
    )


@require_POST
@office_view(*services.PERFORMERS)
def inspection_agency(request: HttpRequest, pk: int) -> HttpResponse:
    """Record an EPA, DEC or County Health inspector taking part (§ 196-21 A)."""
    return _detail_action(
        request,
        pk,
        "agency_form",
        iforms.AgencyInspectorForm(request.POST),
        lambda i, d: entry.add_agency_inspector(i, request.user, **d),
        "Agency inspector recorded.",
    )


@require_POST
@office_view(*services.PERFORMERS)
def inspection_refusal(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a refusal of entry: a finding under § 196-21 A (or B), to open a violation from."""
    return _detail_action(
        request,
        pk,
        "refusal_form",
        iforms.RefusalForm(request.POST),
        lambda i, d: entry.record_refusal(i, request.user, **d),
        "Refusal of entry recorded, with its finding (§ 196-21 A).",
    )


@office_view()
def inspection_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable report (PDF), to whoever may see the inspection."""
    inspection = _inspection(request, pk)
    return report_response(inspection, request.user)
