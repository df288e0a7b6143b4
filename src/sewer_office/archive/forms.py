"""The forms of the archive's pages: the upload of an import, and its application."""

from __future__ import annotations

from django import forms


class UploadForm(forms.Form):
    """The ZIP of records of the past, and where the paper is kept."""

    file = forms.FileField(
        allow_empty_file=True,  # refused by the import, with a message naming the file
        label="Records of the past (ZIP)",
        help_text=(
            "A ZIP holding permits.csv, approvals.csv, approval_conditions.csv, "
            "approval_limits.csv, inspections.csv and/or violations.csv, and the scanned "
            "papers in documents/ (docs/past-records.md)."
        ),
    )
    source = forms.CharField(
        required=False,
        max_length=500,
        label="Where the paper records are kept",
        help_text="For the rows that do not say, e.g. “file cabinet B, folders 1990–1999”.",
    )


class ApplyForm(forms.Form):
    """The import previewed, applied: named by its SHA-256 (the file is kept at the server
    between the two steps)."""

    sha256 = forms.RegexField(regex=r"^[0-9a-f]{64}$", widget=forms.HiddenInput)
    source = forms.CharField(required=False, max_length=500, widget=forms.HiddenInput)
    name = forms.CharField(required=False, max_length=300, widget=forms.HiddenInput)
