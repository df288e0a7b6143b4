"""The reports' pages: the facility's dues and reports, a report's preview with its signing,
its PDF and data, the office's review, the verification page, and the signatories."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import Forbidden, OfficeError
from sewer_office.core.forms import add_office_error
from sewer_office.core.paging import page_of
from sewer_office.pretreatment.models import ReportDue

from . import services
from .choices import CERTIFICATION, CERTIFICATION_CITATION
from .filters import ReportFilter
from .forms import EndForm, ReviewForm, SignatoryForm, SignForm
from .models import Report, Signatory

PAGE_SIZE = 25


def _fail(request: HttpRequest, e: OfficeError) -> None:
    if isinstance(e, Forbidden):
        raise PermissionDenied(str(e))
    messages.error(request, e.message)


def _reports(request: HttpRequest) -> Any:
    return visible(
        Report.objects.select_related("establishment", "due", "signature", "review").defer(
            "pdf", "data"
        ),
        request.user,
    )


@office_view()
def report_list(request: HttpRequest) -> HttpResponse:
    base = _reports(request)
    fs = ReportFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    page, query = page_of(request, qs, PAGE_SIZE)
    dues = (
        visible(ReportDue.objects.filter(received_on__isnull=True), request.user)
        .select_related("establishment")
        .order_by("due_on")[:50]
    )
    return render(
        request,
        "reports/list.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "dues": dues,
            "staff": is_staff_member(request.user),
        },
    )


@office_view()
@require_POST
def assemble(request: HttpRequest, pk: int) -> HttpResponse:
    due = get_object_or_404(visible(ReportDue.objects.all(), request.user), pk=pk)
    try:
        report = services.assemble(request.user, due)
    except OfficeError as e:
        _fail(request, e)
        return redirect("reports:list")
    messages.success(request, f"{report} assembled: check it, then sign it.")
    return redirect("reports:detail", report.pk)


def _report(request: HttpRequest, pk: int) -> Report:
    found: Report = get_object_or_404(_reports(request), pk=pk)
    return found


@office_view()
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    signed = getattr(report, "signature", None)
    signer = services.signatory_of(request.user, report.establishment, timezone.localdate())
    latest = (
        Report.objects.filter(due=report.due).order_by("-version").values_list("pk", flat=True)[0]
    )
    return render(
        request,
        "reports/detail.html",
        {
            "report": report,
            "data": json.loads(Report.objects.values_list("data", flat=True).get(pk=report.pk)),
            "signature": signed,
            "review": getattr(report, "review", None),
            "may_sign": signer is not None and signed is None and latest == report.pk,
            "superseded": latest != report.pk,
            "may_review": services.may_manage(request.user)
            and signed is not None
            and not hasattr(report, "review"),
            "certification": CERTIFICATION,
            "certification_citation": CERTIFICATION_CITATION,
            "sign_form": SignForm(),
            "review_form": ReviewForm(),
        },
    )


@office_view()
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    body = bytes(Report.objects.values_list("pdf", flat=True).get(pk=report.pk))
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="RPT-{report.pk}-v{report.version}.pdf"'
    return response


@office_view()
def report_json(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    body = Report.objects.values_list("data", flat=True).get(pk=report.pk)
    return HttpResponse(body.encode(), content_type="application/json")


@office_view()
@require_POST
def send_code(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    try:
        services.send_code(request.user, report)
    except OfficeError as e:
        _fail(request, e)
    else:
        messages.success(request, f"A code was e-mailed to {getattr(request.user, 'email', '')}.")
    return redirect("reports:detail", report.pk)


@office_view()
@require_POST
def sign(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    form = SignForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give your password and the code.")
        return redirect("reports:detail", report.pk)
    try:
        services.sign(
            request.user,
            report,
            password=form.cleaned_data["password"],
            code=form.cleaned_data["code"],
        )
    except OfficeError as e:
        _fail(request, e)
    else:
        messages.success(request, f"{report} is signed; an acknowledgment was e-mailed to you.")
    return redirect("reports:detail", report.pk)


@office_view()
@require_POST
def review(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    form = ReviewForm(request.POST)
    if form.is_valid():
        try:
            services.review(
                request.user,
                report,
                accept=form.cleaned_data["decision"] == "accept",
                reason=form.cleaned_data["reason"],
            )
        except OfficeError as e:
            _fail(request, e)
        else:
            messages.success(request, "The review is recorded.")
    return redirect("reports:detail", report.pk)


@office_view()
def verify(request: HttpRequest, pk: int) -> HttpResponse:
    report = _report(request, pk)
    return render(
        request,
        "reports/verify.html",
        {
            "report": report,
            "signature": getattr(report, "signature", None),
            "check": services.check_bytes(report),
        },
    )


@office_view()
def signatories(request: HttpRequest) -> HttpResponse:
    if not is_staff_member(request.user):
        raise PermissionDenied("The signatories are recorded by the office.")
    form = SignatoryForm(request.POST or None)
    if request.method == "POST":
        if not services.may_manage(request.user):
            raise PermissionDenied(
                "Signatories are recorded by the Superintendent, engineer or clerk."
            )
        if form.is_valid():
            d = form.cleaned_data
            try:
                services.record_signatory(
                    request.user,
                    d["establishment"],
                    user=d["user"],
                    kind=d["kind"],
                    title=d["title"],
                    authorization=d["authorization"],
                    valid_from=d["valid_from"],
                )
            except OfficeError as e:
                add_office_error(form, e)
            else:
                messages.success(request, "The signatory is recorded.")
                return redirect("reports:signatories")
    rows = Signatory.objects.select_related("establishment", "user").order_by(
        "establishment__name", "-valid_from"
    )
    page, query = page_of(request, rows, PAGE_SIZE)
    return render(
        request,
        "reports/signatories.html",
        {"form": form, "page": page, "query": query, "end_form": EndForm()},
    )


@office_view()
@require_POST
def end_signatory(request: HttpRequest, pk: int) -> HttpResponse:
    signatory = get_object_or_404(Signatory, pk=pk)
    form = EndForm(request.POST)
    if form.is_valid():
        try:
            services.end_signatory(
                request.user, signatory, form.cleaned_data["ended_on"], form.cleaned_data["reason"]
            )
        except OfficeError as e:
            _fail(request, e)
        else:
            messages.success(request, "The signatory's authority is ended.")
    else:
        messages.error(request, "Give the day the authority ends and why.")
    return redirect("reports:signatories")
