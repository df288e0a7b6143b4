"""A facility's monitoring, added from its page: sampling points, discharge limits, samples
taken, and the per-parameter chart of its results."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from sewer_office.accounts.access import visible
from sewer_office.core.decorators import office_view
from sewer_office.core.form_actions import form_action
from sewer_office.monitoring import forms as mforms
from sewer_office.monitoring import queries, sampling, services
from sewer_office.monitoring.views import OFFICERS
from sewer_office.registry.models import Establishment


def _facility(request: HttpRequest, pk: int) -> Establishment:
    return get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)


@office_view()
def chart(request: HttpRequest, pk: int, parameter: str) -> HttpResponse:
    est = _facility(request, pk)
    if parameter not in queries.parameters_of(est):
        raise Http404("No results of this parameter.")
    response = HttpResponse(queries.chart(est, parameter), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=60"
    return response


def _facility_form(
    request: HttpRequest,
    est: Establishment,
    form: forms.Form,
    save: Callable[..., object],
    done: str,
    context: dict[str, object],
) -> HttpResponse:
    """A form that adds something to a facility through a service; back to the facility page."""

    def added(_: object) -> HttpResponse:
        messages.success(request, done)
        return redirect("registry:establishment", est.pk)

    return form_action(request, form, lambda d: save(request.user, est, **d)).respond(
        then=added,
        show=lambda status: render(
            request,
            "monitoring/point_form.html",
            {"form": form, "est": est, **context},
            status=status,
        ),
    )


@office_view(*OFFICERS)
def point_create(request: HttpRequest, pk: int) -> HttpResponse:
    est = _facility(request, pk)
    return _facility_form(
        request,
        est,
        mforms.SamplingPointForm(request.POST or None),
        sampling.add_sampling_point,
        "Sampling point added.",
        {"title": f"Sampling point of {est.name}"},
    )


@office_view(*OFFICERS)
def limit_create(request: HttpRequest, pk: int) -> HttpResponse:
    est = _facility(request, pk)
    return _facility_form(
        request,
        est,
        mforms.DischargeLimitForm(request.POST or None, establishment=est),
        sampling.add_discharge_limit,
        "Discharge limit recorded.",
        {"title": f"Discharge limit of {est.name}", "limit": True},
    )


@office_view(*services.SAMPLERS)
def event_create(request: HttpRequest, pk: int) -> HttpResponse:
    est = _facility(request, pk)
    return _facility_form(
        request,
        est,
        mforms.SamplingEventForm(request.POST or None, establishment=est),
        sampling.record_sampling_event,
        "Sample recorded: its results will be attached when the laboratory's file is imported.",
        {"title": f"Record a sample taken at {est.name}", "sample": True},
    )
