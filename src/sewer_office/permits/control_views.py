"""The forms of the approval page's control mechanism (40 CFR 403.8(f)(1)(iii)(B)): staff
record the terms, the self-monitoring requirements and the ICIS-NPDES identifier. Views parse
and call the services of :mod:`.services.control_terms`; a refusal shows the page again with
the form's errors (what the page shows: :mod:`.control_page`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from sewer_office.core.decorators import office_view
from sewer_office.core.form_actions import form_action

from .control_forms import IcisIdForm, SelfMonitoringForm, TermsForm
from .control_page import control_context
from .kinds import KINDS
from .services.control_terms import add_self_monitoring, record_icis_permit_id, record_terms
from .views import _detail_context, _record


def _submit(
    request: HttpRequest,
    pk: int,
    name: str,
    make_form: Callable[[Any], forms.Form],
    act: Callable[[Any, forms.Form], object],
    done: str,
) -> HttpResponse:
    """One of the control mechanism's forms through :func:`form_action`: bad input is
    refused on the form (400); a conflict (decided meanwhile, already recorded: 409) keeps
    its status and is said above the page, where the form may no longer be offered."""
    record = _record(request, KINDS["industrial"], pk)
    form = make_form(record)

    def recorded(_: object) -> HttpResponse:
        messages.success(request, f"{record.number}: {done}")
        return redirect(record.get_absolute_url())

    def again(status: int) -> HttpResponse:
        # the forms show their fields' errors; a refusal of the whole is said above the page
        for error in form.non_field_errors() or ["Please correct the errors below."]:
            messages.error(request, str(error))
        context = _detail_context(request, record)
        context.update(control_context(request.user, record, {name: form}))
        return render(request, "permits/detail.html", context, status=status)

    outcome = form_action(request, form, lambda d: act(record, form), error_status=True)
    return outcome.respond(then=recorded, show=again)


@require_POST
@office_view()
def terms(request: HttpRequest, pk: int) -> HttpResponse:
    """Record conditions of the control-mechanism kinds (before the decision)."""
    return _submit(
        request,
        pk,
        "terms",
        lambda record: TermsForm(request.POST, approval=record),
        lambda record, form: record_terms(request.user, record, cast(TermsForm, form).terms()),
        "terms recorded.",
    )


@require_POST
@office_view()
def self_monitoring(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a self-monitoring requirement (before the decision)."""
    return _submit(
        request,
        pk,
        "monitoring",
        lambda record: SelfMonitoringForm(request.POST),
        lambda record, form: add_self_monitoring(request.user, record, **form.cleaned_data),
        "self-monitoring requirement recorded.",
    )


@require_POST
@office_view()
def icis_permit_id(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the ICIS-NPDES identifier, once."""
    return _submit(
        request,
        pk,
        "icis",
        lambda record: IcisIdForm(request.POST),
        lambda record, form: record_icis_permit_id(
            request.user, record, form.cleaned_data["icis_permit_id"]
        ),
        "ICIS-NPDES identifier recorded.",
    )
