"""Forms to register persons, properties and establishments (the clerk's intake)."""

from __future__ import annotations

from typing import Any

from django import forms

from sewer_office.accounts.towns import installed, several
from sewer_office.core.forms import DateInput

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
    jurisdiction = forms.ChoiceField(
        required=False,
        label="Town whose law governs the parcel",
        help_text="Its service area's town; without an area, the town chosen here, else the "
        "one you act for.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not several():  # an office of one town: nothing to choose
            del self.fields["jurisdiction"]
        else:
            field = self.fields["jurisdiction"]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [("", "—"), *((j, j) for j in installed())]

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


class JurisdictionForm(forms.Form):
    """The member town whose law governs a parcel from a date, and the act that says so."""

    jurisdiction = forms.ChoiceField(label="Town whose law governs the parcel")
    since = forms.DateField(
        label="From", help_text="The day the act takes effect.", widget=DateInput()
    )
    reason = forms.CharField(
        max_length=300,
        label="Act",
        help_text="What moved the parcel: a boundary change, an intermunicipal agreement "
        "(name and date).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["jurisdiction"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(j, j) for j in installed()]
