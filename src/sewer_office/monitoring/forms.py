"""Forms of the monitoring pages (the services validate again; forms give field errors)."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from sewer_office.core.forms import DateInput
from sewer_office.findings.choices import ReviewState
from sewer_office.permits.models import IndustrialDischargeApproval

from .choices import LimitType, SamplingBasis
from .models import SamplingPoint


class LabFileForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,  # refused by the import, with a message naming the file
        label="Laboratory file (CSV)",
        help_text=(
            "Columns of sewer-use check plus facility and sampling_point; optional "
            "collected_by, relinquished_at, relinquished_by, received_at, received_by, laboratory."
        ),
    )
    dry_run = forms.BooleanField(
        required=False, label="Check only (validate and evaluate, store nothing)"
    )


class ManualResultForm(forms.Form):
    facility = forms.CharField(max_length=40, help_text="facility code, e.g. ACME-PLATING")
    sampling_point = forms.CharField(max_length=40, required=False)
    sample_id = forms.CharField(max_length=80)
    sampled_at = forms.CharField(max_length=40, help_text="ISO 8601, town time: 2026-03-02T10:42")
    sample_type = forms.ChoiceField(choices=[("grab", "grab"), ("composite", "24-hour composite")])
    parameter = forms.CharField(max_length=60, help_text="e.g. pH, BOD5, copper")
    value = forms.CharField(max_length=40, help_text="a number, or <x for a non-detect")
    unit = forms.CharField(max_length=20)
    qualifier = forms.CharField(max_length=10, required=False)
    reporting_limit = forms.CharField(max_length=40, required=False)
    analyzed_at = forms.CharField(max_length=40, required=False)
    method = forms.CharField(max_length=80, required=False)
    collected_by = forms.CharField(max_length=120, required=False)
    relinquished_at = forms.CharField(max_length=40, required=False)
    relinquished_by = forms.CharField(max_length=120, required=False)
    received_at = forms.CharField(max_length=40, required=False)
    received_by = forms.CharField(max_length=120, required=False)
    laboratory = forms.CharField(max_length=120, required=False)


class CorrectionForm(forms.Form):
    value = forms.CharField(max_length=40)
    unit = forms.CharField(max_length=20)
    qualifier = forms.CharField(max_length=10, required=False)
    reporting_limit = forms.CharField(max_length=40, required=False)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class ReviewForm(forms.Form):
    review = forms.ChoiceField(
        choices=[(ReviewState.ACKNOWLEDGED, "Acknowledge"), (ReviewState.CLOSED, "Close")]
    )
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class SamplingPointForm(forms.Form):
    code = forms.CharField(max_length=40)
    manhole = forms.CharField(max_length=60, required=False)
    basis = forms.ChoiceField(choices=SamplingBasis.choices)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    sampling_interval_days = forms.IntegerField(required=False, min_value=1)


class DischargeLimitForm(forms.Form):
    parameter = forms.CharField(max_length=60, help_text="e.g. copper, pH, BOD5")
    limit_type = forms.ChoiceField(choices=LimitType.choices)
    value = forms.CharField(max_length=40, help_text="exact, as written in the approval")
    unit = forms.CharField(max_length=20)
    effective_from = forms.DateField(widget=DateInput)
    effective_to = forms.DateField(widget=DateInput, required=False)
    approval = forms.ModelChoiceField(
        queryset=IndustrialDischargeApproval.objects.none(), required=False
    )
    citation = forms.CharField(max_length=40, initial="§ 196-16 E")

    def __init__(self, *args: Any, establishment: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if establishment is not None:
            approval = cast(
                forms.ModelChoiceField[IndustrialDischargeApproval], self.fields["approval"]
            )
            approval.queryset = IndustrialDischargeApproval.objects.filter(
                establishment=establishment
            )


class SamplingEventForm(forms.Form):
    """A sample taken (§ 196-19 I): its results come later with the laboratory's file."""

    sampling_point = forms.ModelChoiceField(queryset=SamplingPoint.objects.none(), required=False)
    sample_id = forms.CharField(
        max_length=80, help_text="the label on the bottle, as the lab will report it"
    )
    sample_type = forms.ChoiceField(choices=[("grab", "grab"), ("composite", "24-hour composite")])
    collected_at = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    collected_by = forms.CharField(max_length=120, required=False)
    relinquished_at = forms.DateTimeField(
        required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    relinquished_by = forms.CharField(max_length=120, required=False)
    received_at = forms.DateTimeField(
        required=False,
        label="Received by the lab at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    received_by = forms.CharField(max_length=120, required=False)
    laboratory = forms.CharField(max_length=120, required=False)

    def __init__(self, *args: Any, establishment: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if establishment is not None:
            point = cast(forms.ModelChoiceField[SamplingPoint], self.fields["sampling_point"])
            point.queryset = SamplingPoint.objects.filter(establishment=establishment, active=True)
