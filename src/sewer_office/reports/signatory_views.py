"""The signatories' pages: who may sign a facility's reports for it (40 CFR 403.12(l)), recorded
and ended by the office, and their download. Apart from the reports' pages because they are the
office's record of authority, not a facility's report."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of

from . import services
from .forms import EndForm, SignatoryForm
from .models import Signatory
from .views import PAGE_SIZE, fail

#: The signatories' download (``/reports/signatories/?format=csv``).
SIGNATORY_COLUMNS = (
    Column("Facility", "establishment.name"),
    Column("Account", "user.username"),
    Column("Title", "title"),
    Column("Standing", "get_kind_display"),
    Column("From", "valid_from"),
    Column("Ended", "ended_on"),
)


@office_view()
def signatories(request: HttpRequest) -> HttpResponse:
    if not is_staff_member(request.user):
        raise PermissionDenied("The signatories are recorded by the office.")
    form = SignatoryForm(request.POST or None)
    if request.method == "POST" and not services.may_manage(request.user):
        raise PermissionDenied("Signatories are recorded by the Superintendent, engineer or clerk.")

    def recorded(_: object) -> HttpResponse:
        messages.success(request, "The signatory is recorded.")
        return redirect("reports:signatories")

    def show(status: int) -> HttpResponse:
        rows = Signatory.objects.select_related("establishment", "user").order_by(
            "establishment__name", "-valid_from"
        )
        if (download := export(request, rows, SIGNATORY_COLUMNS, "signatories")) is not None:
            return download
        page, query = page_of(request, rows, PAGE_SIZE)
        return render(
            request,
            "reports/signatories.html",
            {"form": form, "page": page, "query": query, "end_form": EndForm()},
            status=status,
        )

    return form_action(
        request,
        form,
        lambda d: services.record_signatory(
            request.user,
            d["establishment"],
            user=d["user"],
            kind=d["kind"],
            title=d["title"],
            authorization=d["authorization"],
            valid_from=d["valid_from"],
        ),
    ).respond(then=recorded, show=show)


@office_view()
@require_POST
def end_signatory(request: HttpRequest, pk: int) -> HttpResponse:
    signatory = get_object_or_404(visible(Signatory.objects.all(), request.user), pk=pk)
    form = EndForm(request.POST)
    if form.is_valid():
        try:
            services.end_signatory(
                request.user, signatory, form.cleaned_data["ended_on"], form.cleaned_data["reason"]
            )
        except OfficeError as e:
            fail(request, e)
        else:
            messages.success(request, "The signatory's authority is ended.")
    else:
        messages.error(request, "Give the day the authority ends and why.")
    return redirect("reports:signatories")
