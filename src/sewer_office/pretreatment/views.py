"""Pretreatment pages: the program's overview (SNC determinations, SIUs, late reports), a
facility's designations, reports and determinations, running SNC, the yearly SNC list and the
annual report with their PDF and CSV. Every change calls the services, so the pages refuse
exactly what the API and the command refuse.

Who sees what: staff see everything; outside users see their own facilities' designations,
report due dates and determinations (the rest is 404), and neither the yearly list nor the
annual report (403: they are the Control Authority's publications of every user).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.accounts.towns import primary, values_of
from sewer_office.core.decorators import office_view, plant_wide_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.monitoring.models import LabResult
from sewer_office.registry.models import Establishment

from . import (
    hazardous,
    program_page,
    report_dues,
    reports,
    services,
    snc,
    snc_list,
    snc_staff,
)
from .filters import SNCFilter
from .forms import DesignateForm, ReceivedForm, RequirementForm, RunForm, StaffCriterionForm
from .models import Designation, ReportDue, ReportRequirement, SNCDetermination
from .services import DECIDERS, RECEIVERS
from .status import attach_status, with_status


def _establishment(request: HttpRequest, pk: int) -> Establishment:
    return get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)


#: The SNC determinations' download (``/pretreatment/?format=csv``), filtered as the page.
SNC_COLUMNS = (
    Column("Facility", "establishment.name"),
    Column("Period", "period_label"),
    Column("From", "period_start"),
    Column("To", "period_end"),
    Column("Rolling", "rolling"),
    Column("SNC", "snc"),
    Column("Criteria", lambda d: "; ".join(str(c) for c in d.citations)),
    Column("Measurements", "measurements"),
    Column("Violation", lambda d: f"VIOL-{d.violation_id}" if d.violation_id else ""),
)


@office_view()
def index(request: HttpRequest) -> HttpResponse:
    base = snc.visible_determinations(request.user)
    fs = SNCFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, SNC_COLUMNS, "snc-determinations")) is not None:
        return download
    return render(request, "pretreatment/index.html", program_page.context(request))


@require_POST
@plant_wide_view(*DECIDERS)
def snc_run(request: HttpRequest) -> HttpResponse:
    form = RunForm(request.POST)

    def determined(run: snc.SNCRun) -> HttpResponse:
        messages.success(
            request,
            f"SNC determined for {len(run.determinations)} facilities over "
            f"{run.period.start}..{run.period.end}: {len(run.in_snc)} in significant "
            f"noncompliance, {run.violations_opened} violation(s) opened "
            "(40 CFR 403.8(f)(2)(viii)).",
        )
        return redirect("pretreatment:index")

    return form_action(
        request,
        form,
        lambda d: snc.compute_snc(request.user, d["period"], rolling=d["rolling"] or None),
    ).respond(
        then=determined,
        show=lambda status: render(
            request, "pretreatment/index.html", program_page.context(request, form), status=status
        ),
    )


def _snc_detail_context(
    request: HttpRequest, det: SNCDetermination, form: StaffCriterionForm | None = None
) -> dict[str, Any]:
    history = list(
        visible(
            SNCDetermination.objects.filter(
                establishment=det.establishment,
                period_start=det.period_start,
                period_end=det.period_end,
            ).order_by("-computed_at", "-id"),
            request.user,
        )
    )
    ids = {r for d in det.determinations for c in d["counted"] for r in c[0]}
    values = {
        pk: (timezone.localdate(when), f"{text} {unit}")
        for pk, when, text, unit in LabResult.objects.filter(pk__in=ids).values_list(
            "id", "sampled_at", "value_text", "unit"
        )
    }
    series = [
        (
            d,
            [
                (values.get(r, (None, f"result #{r}")), exceeds, trc)
                for ids_, exceeds, trc in d["counted"]
                for r in ids_[:1]
            ],
        )
        for d in det.determinations
    ]
    may_record = services.may_decide(request.user) and det.current
    return {
        "det": det,
        "history": history,
        "series": series,
        "may_record": may_record,
        "staff_form": (form or StaffCriterionForm()) if may_record else None,
    }


def _determination(request: HttpRequest, pk: int) -> SNCDetermination:
    return get_object_or_404(
        visible(
            SNCDetermination.objects.select_related("establishment", "violation"), request.user
        ),
        pk=pk,
    )


@office_view()
def snc_detail(request: HttpRequest, pk: int) -> HttpResponse:
    det = _determination(request, pk)
    return render(request, "pretreatment/snc_detail.html", _snc_detail_context(request, det))


@require_POST
@office_view(*DECIDERS)
def staff_criterion(request: HttpRequest, pk: int) -> HttpResponse:
    det = _determination(request, pk)
    form = StaffCriterionForm(request.POST)

    def recorded(new: SNCDetermination) -> HttpResponse:
        messages.success(
            request,
            f"Criterion ({form.cleaned_data['criterion']}) recorded: "
            f"{new.establishment.name} is in significant noncompliance over "
            f"{new.period_label} (40 CFR 403.8(f)(2)(viii)).",
        )
        return redirect("pretreatment:snc-detail", pk=new.pk)

    return form_action(
        request,
        form,
        lambda d: snc_staff.record_staff_criterion(
            det, d["criterion"], d["facts"], d["on"], request.user
        ),
    ).respond(
        then=recorded,
        show=lambda status: render(
            request,
            "pretreatment/snc_detail.html",
            _snc_detail_context(request, det, form),
            status=status,
        ),
    )


def _facility_context(request: HttpRequest, est: Establishment, **forms: Any) -> dict[str, Any]:
    today = timezone.localdate()
    return {
        "est": est,
        "designations": Designation.objects.filter(establishment=est).select_related("decided_by"),
        "evaluation": services.evaluate_siu(est, today)
        if services.is_staff(request.user)
        else None,
        "requirements": ReportRequirement.objects.filter(establishment=est),
        "dues": attach_status(
            with_status(ReportDue.objects.filter(establishment=est)).order_by("-due_on")[:40],
            today,
        ),
        "determinations": SNCDetermination.objects.filter(
            establishment=est, superseded_by__isnull=True
        ),
        "may_decide": services.may_decide(request.user),
        "may_receive": services.may_receive(request.user),
        "hazardous_notices": hazardous.notifications_of(est),
        "may_notify": hazardous.may_record(request.user, est),
        "designate_form": forms.get("designate") or DesignateForm(),
        "require_form": forms.get("require") or RequirementForm(),
        "received_form": forms.get("received") or ReceivedForm(initial={"received_on": today}),
        "today": today,
    }


@office_view()
def facility(request: HttpRequest, pk: int) -> HttpResponse:
    est = _establishment(request, pk)
    return render(request, "pretreatment/facility.html", _facility_context(request, est))


@require_POST
@office_view(*DECIDERS)
def designate(request: HttpRequest, pk: int) -> HttpResponse:
    est = _establishment(request, pk)
    form = DesignateForm(request.POST)

    def designated(d: Designation) -> HttpResponse:
        messages.success(request, f"{d.get_status_display()} ({d.citation}).")
        return redirect("pretreatment:facility", pk=est.pk)

    return form_action(
        request,
        form,
        lambda d: services.designate(
            request.user, est, basis=d["basis"], reason=d["reason"], on=d["on"]
        ),
    ).respond(
        then=designated, show=lambda status: _facility_page(request, est, status, designate=form)
    )


@require_POST
@office_view(*DECIDERS)
def require_report(request: HttpRequest, pk: int) -> HttpResponse:
    est = _establishment(request, pk)
    form = RequirementForm(request.POST)

    def required(req: ReportRequirement) -> HttpResponse:
        messages.success(request, f"Required: {req} ({req.citation}).")
        return redirect("pretreatment:facility", pk=est.pk)

    return form_action(
        request, form, lambda d: report_dues.add_requirement(request.user, est, **d)
    ).respond(then=required, show=lambda status: _facility_page(request, est, status, require=form))


@require_POST
@office_view(*RECEIVERS)
def report_received(request: HttpRequest, pk: int) -> HttpResponse:
    due = get_object_or_404(visible(ReportDue.objects.all(), request.user), pk=pk)
    est = due.establishment
    form = ReceivedForm(request.POST)

    def received(_: ReportDue) -> HttpResponse:
        messages.success(request, f"{due} recorded as received.")
        return redirect("pretreatment:facility", pk=est.pk)

    return form_action(
        request,
        form,
        lambda d: report_dues.record_received(request.user, due, d["received_on"], d["note"]),
    ).respond(
        then=received, show=lambda status: _facility_page(request, est, status, received=form)
    )


def _facility_page(
    request: HttpRequest, est: Establishment, status: int, **forms: Any
) -> HttpResponse:
    """The facility's page again, with the form refused (``forms``) and its errors."""
    return render(
        request,
        "pretreatment/facility.html",
        _facility_context(request, est, **forms),
        status=status,
    )


def file_response(data: bytes, content_type: str, name: str, inline: bool = False) -> HttpResponse:
    """``data`` as a download named ``name`` (or shown in the browser: ``inline``)."""
    r = HttpResponse(data, content_type=content_type)
    r["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{name}"'
    return r


@plant_wide_view(*STAFF_ROLES)
def snc_list_page(request: HttpRequest, year: int) -> HttpResponse:
    listed = snc_list.snc_list(year)
    town = values_of(primary()).name  # the plant's list, as reports.snc_context names it
    return render(
        request,
        "pretreatment/snc_list.html",
        {"year": year, "listed": listed, "text": snc_list.newspaper_text(year, listed, town)},
    )


@plant_wide_view(*STAFF_ROLES)
def snc_list_pdf(request: HttpRequest, year: int) -> HttpResponse:
    return file_response(
        reports.snc_list_pdf(year), "application/pdf", f"snc-list-{year}.pdf", True
    )


@plant_wide_view(*STAFF_ROLES)
def snc_list_csv(request: HttpRequest, year: int) -> HttpResponse:
    return file_response(
        reports.snc_list_csv(year), "text/csv; charset=utf-8", f"snc-list-{year}.csv"
    )
