"""Inspection pages: the list, one inspection, scheduling, the checklist, photos, the report."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import InvalidInput, OfficeError
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


def _post_action(request: HttpRequest, pk: int, run: Any, done: str) -> HttpResponse:
    """Run a POSTed action on a visible inspection; errors return to its page with a message."""
    inspection = _inspection(request, pk)
    try:
        run(inspection)
    except OfficeError as e:
        messages.error(request, e.message)
        return render(
            request,
            "inspections/detail.html",
            _detail_context(request, inspection),
            status=e.status_code,
        )
    messages.success(request, done)
    return redirect(inspection.get_absolute_url())


@require_POST
@office_view(*services.PERFORMERS)
def inspection_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _post_action(
        request,
        pk,
        lambda i: services.cancel(i, request.user, request.POST.get("reason", "")),
        "Inspection cancelled.",
    )


@require_POST
@office_view(*services.PERFORMERS)
def inspection_photo(request: HttpRequest, pk: int) -> HttpResponse:
    def run(i: Inspection) -> None:
        upload = request.FILES.get("photo")
        if upload is None:
            raise InvalidInput({"photo": ["Choose a photo to upload."]})
        services.add_photo(i, request.user, upload, request.POST.get("title", ""))

    return _post_action(request, pk, run, "Photo added.")


@require_POST
@office_view(*services.PERFORMERS)
def inspection_addendum(request: HttpRequest, pk: int) -> HttpResponse:
    return _post_action(
        request,
        pk,
        lambda i: services.add_addendum(i, request.user, request.POST.get("text", "")),
        "Addendum appended.",
    )


def _form_action(
    request: HttpRequest, pk: int, form_class: Any, run: Any, done: str
) -> HttpResponse:
    """A POSTed form on a visible inspection: its fields checked, then the service run."""

    def checked(inspection: Inspection) -> None:
        form = form_class(request.POST)
        if not form.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in form.errors.items()})
        run(inspection, form.cleaned_data)

    return _post_action(request, pk, checked, done)


@require_POST
@office_view(*services.PERFORMERS)
def inspection_agency(request: HttpRequest, pk: int) -> HttpResponse:
    """Record an EPA, DEC or County Health inspector taking part (§ 196-21 A)."""
    return _form_action(
        request,
        pk,
        iforms.AgencyInspectorForm,
        lambda i, d: entry.add_agency_inspector(i, request.user, **d),
        "Agency inspector recorded.",
    )


@require_POST
@office_view(*services.PERFORMERS)
def inspection_refusal(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a refusal of entry: a finding under § 196-21 A (or B), to open a violation from."""
    return _form_action(
        request,
        pk,
        iforms.RefusalForm,
        lambda i, d: entry.record_refusal(i, request.user, **d),
        "Refusal of entry recorded, with its finding (§ 196-21 A).",
    )


@office_view()
def inspection_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable report (PDF), to whoever may see the inspection."""
    inspection = _inspection(request, pk)
    return report_response(inspection, request.user)
