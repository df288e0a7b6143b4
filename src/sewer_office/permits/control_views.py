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
from sewer_office.core.errors import InvalidInput, OfficeError
from sewer_office.core.forms import add_office_error

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
    record = _record(request, KINDS["industrial"], pk)
    form = make_form(record)
    status = 400
    message = "Please correct the errors below."
    if form.is_valid():
        try:
            act(record, form)
        except InvalidInput as e:
            add_office_error(form, e)
        except OfficeError as e:  # decided meanwhile, already recorded: said above the page
            message, status = e.message, e.status_code
        else:
            messages.success(request, f"{record.number}: {done}")
            return redirect(record.get_absolute_url())
    messages.error(request, message)
    context = _detail_context(request, record)
    context.update(control_context(request.user, record, {name: form}))
    return render(request, "permits/detail.html", context, status=status)


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
