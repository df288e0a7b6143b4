"""Forms to register persons, properties and establishments (the clerk's intake)."""

from __future__ import annotations

from django import forms

from .choices import BuildingUse, EstablishmentKind, PersonKind
from .models import Building, Person, Property, ServiceArea


class PersonForm(forms.Form):
    kind = forms.ChoiceField(choices=PersonKind.choices, help_text="§ 196-15 PERSON")
    name = forms.CharField(max_length=200)
    email = forms.EmailField(required=False)
    phone = forms.CharField(max_length=40, required=False)
    mailing_address = forms.CharField(max_length=300, required=False)


class PropertyForm(forms.Form):
    parcel_id = forms.CharField(max_length=40, label="Tax parcel id")
    address = forms.CharField(max_length=200)
    owner = forms.ModelChoiceField(
        queryset=Person.objects.all(),
        widget=forms.NumberInput(attrs={"placeholder": "person id"}),
        help_text="The owner's id (Registry → Persons).",
    )
    service_area = forms.ModelChoiceField(queryset=ServiceArea.objects.all(), required=False)
    acreage = forms.DecimalField(max_digits=9, decimal_places=3, required=False, min_value=0)
    building_use = forms.ChoiceField(
        choices=[("", "no building yet"), *BuildingUse.choices],
        required=False,
        label="Building use",
    )
    dwelling_units = forms.IntegerField(min_value=0, required=False, initial=1)

    def clean_parcel_id(self) -> str:
        parcel: str = self.cleaned_data["parcel_id"].strip()
        if Property.objects.filter(parcel_id=parcel).exists():
            raise forms.ValidationError("A property with this tax parcel id is already registered.")
        return parcel


class EstablishmentForm(forms.Form):
    name = forms.CharField(max_length=200)
    code = forms.CharField(
        max_length=40,
        required=False,
        label="Facility code",
        help_text="The code laboratory files and meters use for this facility (e.g. ACME-PLATING).",
    )
    kind = forms.ChoiceField(choices=EstablishmentKind.choices)
    operator = forms.ModelChoiceField(
        queryset=Person.objects.all(), widget=forms.NumberInput(attrs={"placeholder": "person id"})
    )
    building = forms.ModelChoiceField(
        queryset=Building.objects.all(),
        widget=forms.NumberInput(attrs={"placeholder": "building id"}),
        help_text="The building's id, shown as #id on its property page.",
    )
