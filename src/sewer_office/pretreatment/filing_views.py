"""Pages of what a user files with the office: a paper baseline report recorded received with
its checklist of 40 CFR 403.12(b), and a hazardous-waste notification (40 CFR 403.12(p)).

Both call the services, so the pages refuse what the services refuse. The checklist is the
office's (the Superintendent, the engineer or the clerk); a notification is recorded by the
office from paper or sent by the facility's own account (another's facility: 404).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.core.decorators import office_view
from sewer_office.core.form_actions import form_action
from sewer_office.registry.models import Establishment

from . import baseline, hazardous, report_dues
from .choices import ReportKind
from .forms import BaselineReceivedForm, HazardousNotificationForm
from .models import HazardousWasteNotification, ReportDue
from .services import RECEIVERS


@office_view(*RECEIVERS)
def baseline_received(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a paper baseline report received, with what it gives of each element."""
    due = get_object_or_404(
        visible(ReportDue.objects.select_related("establishment"), request.user),
        pk=pk,
        kind=ReportKind.BASELINE,
    )
    if due.received_on is not None:
        messages.error(request, f"{due} was already recorded as received on {due.received_on}.")
        return redirect("pretreatment:facility", pk=due.establishment_id)
    form = BaselineReceivedForm(
        request.POST or None,
        request.FILES or None,
        elements=baseline.elements_for(due),
        initial={"received_on": timezone.localdate()},
    )

    def record(d: dict[str, Any]) -> None:
        filing = baseline.Filing(form.entries(), scan=d["scan"])
        report_dues.record_received(
            request.user, due, d["received_on"], d["note"], checklist=filing
        )

    def recorded(_: None) -> HttpResponse:
        checklist = baseline.checklist_of(due)
        if checklist is not None and checklist.missing:
            messages.warning(
                request,
                f"{due} recorded as received; it is not complete: a finding names the "
                "elements missing (40 CFR 403.12(b)).",
            )
        else:
            messages.success(request, f"{due} recorded as received, every element answered.")
        return redirect("pretreatment:facility", pk=due.establishment_id)

    return form_action(request, form, record).respond(
        then=recorded,
        show=lambda status: render(
            request,
            "pretreatment/baseline_received.html",
            {"due": due, "form": form},
            status=status,
        ),
    )


@office_view()
def hazardous_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Record (office) or send (the facility) a hazardous-waste notification."""
    est = get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)
    if not hazardous.may_record(request.user, est):
        raise PermissionDenied("Hazardous-waste notifications are recorded by the office.")
    paper = has_role(request.user, *hazardous.RECORDERS)
    form = HazardousNotificationForm(request.POST or None, request.FILES or None, paper=paper)

    def record(d: dict[str, Any]) -> HazardousWasteNotification:
        values = hazardous.NotificationValues(
            waste_name=d["waste_name"],
            waste_number=d["waste_number"],
            discharge_type=d["discharge_type"],
            discharge_detail=d["discharge_detail"],
            monthly_kg=d["monthly_kg"],
            constituents=d["constituents"],
            month_estimate=d["month_estimate"],
            year_estimate=d["year_estimate"],
            not_known=d["not_known"],
            minimization_certified=d["minimization_certified"],
            discharge_began_on=d["discharge_began_on"],
            epa_notified_on=d["epa_notified_on"],
            state_notified_on=d["state_notified_on"],
        )
        if "notified_on" in d:  # the paper form's field only
            values["notified_on"] = d["notified_on"]
        return hazardous.record_notification(request.user, est, values, document=d.get("document"))

    def recorded(made: HazardousWasteNotification) -> HttpResponse:
        messages.success(request, f"Notification recorded: {made} ({hazardous.CITATION}).")
        return redirect("pretreatment:facility", pk=est.pk)

    return form_action(request, form, record).respond(
        then=recorded,
        show=lambda status: render(
            request,
            "pretreatment/hazardous_form.html",
            {"est": est, "form": form, "paper": paper, "notices": hazardous.notifications_of(est)},
            status=status,
        ),
    )
