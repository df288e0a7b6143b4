"""Forms to register persons, properties and establishments (the clerk's intake)."""

from __future__ import annotations

from django import forms

from .address_forms import MailingFields, PostalFields
from .choices import BuildingUse, EstablishmentKind, PersonKind
from .models import Property, ServiceArea
from .pickers import BuildingField, PersonField


class PersonForm(MailingFields):
    kind = forms.ChoiceField(choices=PersonKind.choices, help_text="§ 196-15 PERSON")
    name = forms.CharField(max_length=200)
    email = forms.EmailField(required=False)
    phone = forms.CharField(max_length=40, required=False)
    field_order = ("kind", "name", "email", "phone")


class PropertyForm(PostalFields):
    parcel_id = forms.CharField(max_length=40, label="Tax parcel id")
    address = forms.CharField(max_length=200)
    field_order = ("parcel_id", "address", "city", "state", "zip")
    owner = PersonField(help_text="The owner: type a name, an address or a parcel.")
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
    operator = PersonField()
    building = BuildingField(help_text="The building: type its property's address or parcel.")
