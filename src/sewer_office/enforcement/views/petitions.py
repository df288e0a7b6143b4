"""Recording a petition against an order of a town's own ladder, and its decision, from the
violation's page (:mod:`..petitions` does and refuses; these pages only bind the forms)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.core.decorators import office_view
from sewer_office.core.form_actions import form_action
from sewer_office.enforcement import petitions
from sewer_office.enforcement.models import Petition
from sewer_office.enforcement.petition_forms import PetitionDecisionForm, PetitionForm

from .violation import _violation, detail_context


@require_POST
@office_view(*petitions.RECORDERS)
def petition_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a petition received against the violation's order."""
    violation = _violation(request, pk)
    form = PetitionForm(request.POST)

    def recorded(p: Petition) -> HttpResponse:
        late = "" if p.timely else f" — received after its window (last day {p.due_on})"
        messages.success(request, f"Petition recorded ({p.citation}){late}.")
        return redirect(violation.get_absolute_url() + "#petitions")

    return form_action(
        request, form, lambda d: petitions.record_petition(violation, request.user, **d)
    ).respond(
        then=recorded,
        show=lambda status: render(
            request,
            "enforcement/detail.html",
            detail_context(request, violation, {"petition": form}),
            status=status,
        ),
    )


@require_POST
@office_view(*petitions.DECIDERS)
def petition_decide(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the official's decision on a petition."""
    petition = get_object_or_404(Petition, pk=pk)
    violation = _violation(request, petition.violation_id)  # the viewer's towns only
    form = PetitionDecisionForm(request.POST)

    def decided(p: Petition) -> HttpResponse:
        messages.success(request, f"Decision recorded: {p.get_decision_display()}.")
        return redirect(violation.get_absolute_url() + "#petitions")

    return form_action(
        request, form, lambda d: petitions.decide_petition(petition, request.user, **d)
    ).respond(
        then=decided,
        show=lambda status: render(
            request,
            "enforcement/detail.html",
            detail_context(request, violation, {"decision": form}),
            status=status,
        ),
    )
