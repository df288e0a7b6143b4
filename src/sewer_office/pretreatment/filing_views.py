"""Pages of what a user files with the office: a paper baseline report recorded received with
its checklist of 40 CFR 403.12(b), and a hazardous-waste notification (40 CFR 403.12(p)).

Both call the services, so the pages refuse what the services refuse. The checklist is the
office's (the Superintendent, the engineer or the clerk); a notification is recorded by the
office from paper or sent by the facility's own account (another's facility: 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.forms import add_office_error
from sewer_office.registry.models import Establishment

from . import baseline, hazardous, services
from .choices import ReportKind
from .forms import BaselineReceivedForm, HazardousNotificationForm
from .models import ReportDue
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
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        filing = baseline.Filing(form.entries(), scan=d["scan"])
        try:
            services.record_received(
                request.user, due, d["received_on"], d["note"], checklist=filing
            )
        except OfficeError as e:
            add_office_error(form, e)
        else:
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
    status = 400 if request.method == "POST" else 200
    return render(
        request, "pretreatment/baseline_received.html", {"due": due, "form": form}, status=status
    )


@office_view()
def hazardous_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Record (office) or send (the facility) a hazardous-waste notification."""
    est = get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)
    if not hazardous.may_record(request.user, est):
        raise PermissionDenied("Hazardous-waste notifications are recorded by the office.")
    paper = has_role(request.user, *hazardous.RECORDERS)
    form = HazardousNotificationForm(request.POST or None, request.FILES or None, paper=paper)
    if request.method == "POST" and form.is_valid():
        d = dict(form.cleaned_data)
        document = d.pop("document", None)
        try:
            made = hazardous.record_notification(request.user, est, d, document=document)
        except OfficeError as e:
            add_office_error(form, e)
        else:
            messages.success(request, f"Notification recorded: {made} ({hazardous.CITATION}).")
            return redirect("pretreatment:facility", pk=est.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "pretreatment/hazardous_form.html",
        {"est": est, "form": form, "paper": paper, "notices": hazardous.notifications_of(est)},
        status=status,
    )
