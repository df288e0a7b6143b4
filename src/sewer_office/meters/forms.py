"""Forms of the meters pages: a new meter, an upload of readings, a user's report of a slug,
a meter's fixed baseline."""

from __future__ import annotations

from django import forms

from sewer_office.monitoring.models import SamplingPoint

from .choices import ReportChannel


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,  # refused by the upload, with a message naming the file
        label="Readings file (.csv or .parquet)",
        help_text="Columns timestamp and value (meter, parameter, unit optional); "
        "appended after the last stored reading.",
    )


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


class ReportForm(forms.Form):
    slug = forms.IntegerField(widget=forms.HiddenInput)
    reported_at = forms.DateTimeField(
        widget=DateTimeInput, label="Reported at", help_text="when the user reported the slug"
    )
    channel = forms.ChoiceField(choices=ReportChannel.choices)
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class BaselineForm(forms.Form):
    """A fixed baseline of the meter from an instant on (§ 196-15 SLUG): the approval's, or the
    Town's record of a new normal operation (Superintendent or engineer)."""

    value = forms.CharField(
        max_length=61, label="Baseline", help_text="in the meter's unit, as a plain decimal"
    )
    effective_from = forms.DateTimeField(
        widget=DateTimeInput,
        label="From",
        help_text="the first reading it judges (town time); the first day of a meter included",
    )
    authority = forms.CharField(
        max_length=300,
        label="Recorded in",
        help_text="the approval and its condition, or the Superintendent's decision",
    )


class MeterForm(forms.Form):
    """Register a meter at a sampling point (Superintendent or engineer)."""

    sampling_point = forms.ModelChoiceField(
        queryset=SamplingPoint.objects.select_related("establishment").filter(active=True)
    )
    ident = forms.CharField(max_length=60, label="Meter id", help_text="e.g. ACME-FLOW-1")
    parameter = forms.CharField(
        max_length=60, help_text="flow, pH, temperature or a constituent (e.g. copper)"
    )
    unit = forms.CharField(
        max_length=20, required=False, help_text="blank: the parameter's usual unit"
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    max_gap_seconds = forms.IntegerField(
        min_value=1,
        required=False,
        label="Shortest maximum gap (seconds)",
        help_text="an interval between readings longer than three of the meter's usual "
        "intervals, and longer than this, ends a slug or excursion (blank: 5 minutes)",
    )
