"""Pages of what a surcharge rests on: the Superintendent's § 196-19 E(1)(d) decisions and the
Town's § 196-19 J agreements — the list of all, one facility's with the forms to record a
decision (the Superintendent), an agreement (the Superintendent or the clerk) or an ending.
Every change calls :mod:`sewer_office.billing.surcharge_basis`, so the pages refuse exactly
what the API refuses. Staff see them; the forms are offered to who may use them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.billing import exports
from sewer_office.billing import surcharge_basis as basis
from sewer_office.billing.models import SurchargeAgreement, SurchargeDecision
from sewer_office.billing.surcharge_forms import AgreementForm, DecisionForm, EndingForm
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of
from sewer_office.registry.models import Establishment

PAGE_SIZE = 50


@office_view(*STAFF_ROLES)
def surcharge_list(request: HttpRequest) -> HttpResponse:
    decisions = visible(SurchargeDecision.objects.all(), request.user)
    decisions = decisions.select_related("establishment").prefetch_related("endings", "successors")
    agreements = visible(SurchargeAgreement.objects.all(), request.user)
    agreements = agreements.select_related("establishment").prefetch_related(
        "endings", "successors"
    )
    download = export(
        request, [*decisions, *agreements], exports.SURCHARGE_COLUMNS, "surcharge-decisions"
    )
    if download is not None:
        return download
    page, query = page_of(request, decisions, PAGE_SIZE)
    return render(
        request,
        "billing/surcharge_list.html",
        {"page": page, "query": query, "agreements": agreements},
    )


def _facility_page(
    request: HttpRequest, est: Establishment, forms_: dict[str, forms.Form] | None = None
) -> HttpResponse:
    given = forms_ or {}
    return render(
        request,
        "billing/surcharge_facility.html",
        {
            "establishment": est,
            "records": basis.records_of(est),
            "may_decide": basis.may_decide(request.user),
            "may_agree": basis.may_record_agreement(request.user),
            "decision_form": given.get("decision") or DecisionForm(),
            "agreement_form": given.get("agreement") or AgreementForm(),
            "ending_form": EndingForm(),
        },
        status=400 if given else 200,
    )


@office_view(*STAFF_ROLES)
def surcharge_facility(request: HttpRequest, pk: int) -> HttpResponse:
    return _facility_page(
        request, get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)
    )


def _superseded(model: Any, value: Any) -> Any:
    return None if value in (None, "") else model.objects.filter(pk=value).first()


@require_POST
@office_view(*basis.DECISION_ROLES)
def decision_new(request: HttpRequest, pk: int) -> HttpResponse:
    est = get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)
    form = DecisionForm(request.POST)

    def record(d: dict[str, Any]) -> SurchargeDecision:
        return basis.record_decision(
            est,
            request.user,
            basis=d["basis"],
            first_day=d["first_day"],
            last_day=d["last_day"],
            decided_on=d["decided_on"],
            reasons=d["reasons"],
            reference=d["reference"],
            supersedes=_superseded(SurchargeDecision, d["supersedes"]),
            supersede_reason=d["supersede_reason"],
        )

    return form_action(request, form, record).respond(
        then=lambda rec: _recorded(request, rec, pk),
        show=lambda status: _facility_page(request, est, {"decision": form}),
    )


def _recorded(request: HttpRequest, rec: basis.SurchargeRecord, pk: int) -> HttpResponse:
    messages.success(request, f"{rec} recorded.")
    return redirect("billing:surcharge-facility", pk=pk)


@require_POST
@office_view(*basis.AGREEMENT_ROLES)
def agreement_new(request: HttpRequest, pk: int) -> HttpResponse:
    est = get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)
    form = AgreementForm(request.POST)

    def record(d: dict[str, Any]) -> SurchargeAgreement:
        return basis.record_agreement(
            est,
            request.user,
            parties=d["parties"],
            terms=d["terms"],
            first_day=d["first_day"],
            last_day=d["last_day"],
            signed_on=d["signed_on"],
            signed_by=d["signed_by"],
            board_approval=d["board_approval"],
            rates={
                "bod": d["rate_bod"],
                "suspended_solids": d["rate_suspended_solids"],
                "grease_oil": d["rate_grease_oil"],
            },
            supersedes=_superseded(SurchargeAgreement, d["supersedes"]),
            supersede_reason=d["supersede_reason"],
        )

    return form_action(request, form, record).respond(
        then=lambda rec: _recorded(request, rec, pk),
        show=lambda status: _facility_page(request, est, {"agreement": form}),
    )


def _end(request: HttpRequest, record: basis.SurchargeRecord) -> HttpResponse:
    form = EndingForm(request.POST)
    if form.is_valid():
        try:
            basis.end_record(
                record,
                request.user,
                last_day=form.cleaned_data["last_day"],
                reason=form.cleaned_data["reason"],
            )
        except OfficeError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, f"{record} ends on {form.cleaned_data['last_day']}.")
    else:
        messages.error(request, "Give the last day in force and the reason.")
    return redirect("billing:surcharge-facility", pk=record.establishment_id)


@require_POST
@office_view(*basis.DECISION_ROLES)
def decision_end(request: HttpRequest, pk: int) -> HttpResponse:
    return _end(
        request, get_object_or_404(visible(SurchargeDecision.objects.all(), request.user), pk=pk)
    )


@require_POST
@office_view(*basis.AGREEMENT_ROLES)
def agreement_end(request: HttpRequest, pk: int) -> HttpResponse:
    return _end(
        request, get_object_or_404(visible(SurchargeAgreement.objects.all(), request.user), pk=pk)
    )
