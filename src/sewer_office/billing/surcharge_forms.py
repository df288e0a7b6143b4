"""Forms of the surcharge records (§ 196-19 E(1)(d) decisions, § 196-19 J agreements, their
endings). The services validate the same fields for the API (:mod:`.surcharge_basis`); the
forms only give the pages their fields."""

from __future__ import annotations

from django import forms

from sewer_office.core.forms import DateInput
from sewer_office.core.record_choice import RecordChoiceField

from .basis_models import SurchargeAgreement, SurchargeDecision
from .choices import DecisionBasis

_TEXT = forms.Textarea(attrs={"rows": 3})


class DecisionForm(forms.Form):
    basis = forms.ChoiceField(choices=DecisionBasis.choices, label="Payment")
    decided_on = forms.DateField(widget=DateInput, label="Date of the decision")
    first_day = forms.DateField(widget=DateInput, label="Payment required from")
    last_day = forms.DateField(
        widget=DateInput, required=False, label="Until (inclusive)", help_text="blank: until ended"
    )
    reasons = forms.CharField(widget=_TEXT, help_text="the wastes and the added cost")
    reference = forms.CharField(max_length=120, required=False, label="Letter or file reference")
    supersedes = RecordChoiceField(
        SurchargeDecision.objects.order_by("-decided_on", "-id"),
        required=False,
        label="Replaces the decision",
        help_text="the decision it replaces, if any",
    )
    supersede_reason = forms.CharField(widget=_TEXT, required=False)


class AgreementForm(forms.Form):
    parties = forms.CharField(widget=_TEXT, help_text="the Town and the industrial concern")
    terms = forms.CharField(widget=_TEXT, help_text="the waste accepted and the payment agreed")
    signed_on = forms.DateField(widget=DateInput)
    signed_by = forms.CharField(max_length=200, help_text="who signed, for each party")
    board_approval = forms.CharField(max_length=200, help_text="resolution number and date")
    first_day = forms.DateField(widget=DateInput, label="In force from")
    last_day = forms.DateField(widget=DateInput, required=False, label="Until (inclusive)")
    rate_bod = forms.DecimalField(
        required=False, label="Agreed BOD rate, USD/lb", help_text="blank: the Board's rate"
    )
    rate_suspended_solids = forms.DecimalField(required=False, label="Agreed SS rate, USD/lb")
    rate_grease_oil = forms.DecimalField(required=False, label="Agreed grease rate, USD/lb")
    supersedes = RecordChoiceField(
        SurchargeAgreement.objects.order_by("-signed_on", "-id"),
        required=False,
        label="Replaces the agreement",
        help_text="the agreement it replaces, if any",
    )
    supersede_reason = forms.CharField(widget=_TEXT, required=False)


class EndingForm(forms.Form):
    last_day = forms.DateField(widget=DateInput, label="Last day in force")
    reason = forms.CharField(widget=_TEXT)
