"""The forms of the parcels pages: a file to preview, its application, a review's decision."""

from __future__ import annotations

import re

from django import forms
from django.utils import timezone

from sewer_office.core.forms import DateInput

#: What a roll or districts file uploaded may be (the readers take these; a Shapefile zipped).
UPLOAD_SUFFIXES = (".geojson", ".json", ".gpkg", ".zip", ".csv")
CRS_TEXT = re.compile(r"^[A-Za-z]+:[0-9]+$")


def _crs(value: str) -> str:
    value = value.strip()
    if value and not CRS_TEXT.match(value):
        raise forms.ValidationError("An authority and code, e.g. EPSG:2260.")
    return value


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,  # refused with a message naming the file
        label="File",
        help_text="GeoJSON, GeoPackage, a zipped Shapefile, or CSV with a WKT geometry column.",
    )
    crs = forms.CharField(
        required=False,
        max_length=40,
        label="Coordinate system of a CSV file",
        help_text="e.g. EPSG:2260 (New York State Plane East, feet); other files declare theirs.",
    )

    def clean_crs(self) -> str:
        return _crs(self.cleaned_data.get("crs") or "")


class RollUploadForm(UploadForm):
    roll_date = forms.DateField(
        widget=DateInput,
        initial=timezone.localdate,
        label="Roll date",
        help_text="The day the roll's owner changes take effect.",
    )


class ApplyForm(forms.Form):
    """What the preview showed, sent back: the file is found again by its SHA-256 on the
    server and read and classified again; the figures only check that nothing moved."""

    sha256 = forms.RegexField(regex=r"^[0-9a-f]{64}$", widget=forms.HiddenInput)
    name = forms.CharField(max_length=300, widget=forms.HiddenInput)
    suffix = forms.ChoiceField(choices=[(s, s) for s in UPLOAD_SUFFIXES], widget=forms.HiddenInput)
    crs = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
    roll_date = forms.DateField(required=False, widget=forms.HiddenInput)
    seen = forms.CharField(max_length=200, widget=forms.HiddenInput)

    def clean_crs(self) -> str:
        return _crs(self.cleaned_data.get("crs") or "")


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("confirm", "Confirm"), ("reject", "Reject")], widget=forms.HiddenInput
    )
    note = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Note",
    )
