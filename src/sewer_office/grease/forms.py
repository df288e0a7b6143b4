"""Forms of the grease app: register an installation (with its sizing inputs), record a
pump-out, void a pump-out, record a removal (the list's filterset is in filters.py)."""

from __future__ import annotations

from django import forms

from sewer_office.core.forms import DateInput
from sewer_office.permits.models import InterceptorRequirement
from sewer_office.registry.pickers import EstablishmentField

from .choices import InterceptorKind
from .rules import PDI_DRAIN_MINUTES


class InterceptorForm(forms.Form):
    establishment = EstablishmentField(label="Facility")
    requirement = forms.ModelChoiceField(
        queryset=InterceptorRequirement.objects.all(),
        required=False,
        help_text="The requirement (INT-…) this installation answers, if one was recorded.",
    )
    kind = forms.ChoiceField(choices=InterceptorKind.choices)
    make_model = forms.CharField(max_length=120, required=False, label="Make and model")
    rated_gpm = forms.DecimalField(
        max_digits=7, decimal_places=1, required=False, label="Rated flow (gpm)"
    )
    grease_capacity_lb = forms.DecimalField(
        max_digits=7, decimal_places=1, required=False, label="Grease capacity (lb)"
    )
    capacity_gal = forms.DecimalField(
        max_digits=9, decimal_places=1, required=False, label="Capacity (gallons)"
    )
    location = forms.CharField(max_length=200)
    accessible = forms.BooleanField(
        required=False,
        label="Readily and easily accessible for cleaning and inspection",
        help_text="§ 196-19 F(2), last sentence.",
    )
    access_note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    installed_on = forms.DateField(widget=DateInput, required=False)
    cleaning_interval_days = forms.IntegerField(
        min_value=1,
        required=False,
        label="Cleaning interval (days)",
        help_text="Only if this establishment's approval sets one; blank = the town's interval.",
    )
    fixture_volume_in3 = forms.DecimalField(
        max_digits=12,
        decimal_places=2,
        required=False,
        min_value=0,
        label="Sizing: fixture volume (in³)",
        help_text="PDI G-101 (hydromechanical): the fixtures' total volume, e.g. 13824.",
    )
    drain_minutes = forms.TypedChoiceField(
        choices=[(m, f"{m} min") for m in PDI_DRAIN_MINUTES],
        coerce=int,
        initial=1,
        required=False,
        label="Sizing: drain time",
    )
    dfu = forms.IntegerField(
        min_value=0,
        required=False,
        label="Sizing: drainage fixture units",
        help_text="UPC table (gravity). Leave sizing blank for an installation already on file.",
    )


class PumpOutForm(forms.Form):
    pumped_on = forms.DateField(widget=DateInput)
    hauler_name = forms.CharField(max_length=120, label="Hauler")
    hauler_permit = forms.CharField(max_length=60, required=False, label="Hauler permit/licence")
    volume_gal = forms.DecimalField(max_digits=9, decimal_places=1, label="Volume (gallons)")
    grease_depth_in = forms.DecimalField(
        max_digits=6, decimal_places=2, required=False, label="Grease/solids depth (in)"
    )
    grease_percent = forms.DecimalField(
        max_digits=5, decimal_places=1, required=False, label="Grease/solids (%)"
    )
    manifest_number = forms.CharField(max_length=60, required=False)
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class RemovalForm(ReasonForm):
    removed_on = forms.DateField(widget=DateInput)
