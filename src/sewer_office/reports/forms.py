"""The reports' forms: signing, reviewing, recording a signatory, the baseline statement and
the files sent with a report."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from sewer_office.accounts.roles import APPLICANT
from sewer_office.registry.pickers import EstablishmentField

from .baseline import ATTACHMENT_KINDS, ITEMS
from .choices import SignatoryKind


class SignForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label="Your password, again")
    code = forms.CharField(max_length=12, label="The code e-mailed to you")


class ReviewForm(forms.Form):
    decision = forms.ChoiceField(choices=(("accept", "Accept"), ("reject", "Reject")))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class SignatoryForm(forms.Form):
    establishment = EstablishmentField(label="Facility")
    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.filter(groups__name=APPLICANT).order_by("username"),
        label="Account",
    )
    kind = forms.ChoiceField(choices=SignatoryKind.choices)
    title = forms.CharField(max_length=120)
    authorization = forms.CharField(max_length=200, required=False)
    valid_from = forms.DateField()


class EndForm(forms.Form):
    ended_on = forms.DateField()
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class StandardsSelect(forms.NullBooleanSelect):
    """Yes / no / not stated, in the words of 403.12(b)(6)."""

    def __init__(self, attrs: dict[str, str] | None = None) -> None:
        super().__init__(attrs)
        self.choices = [
            ("unknown", "— not stated —"),
            ("true", "Yes: the standards are met on a consistent basis"),
            ("false", "No: more is needed to meet them"),
        ]


class StatementForm(forms.Form):
    """The facility's statement for its baseline report (40 CFR 403.12(b)(2)-(7))."""

    permits_held = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="Environmental control permits held (403.12(b)(2))",
        help_text="besides the Town's approvals; write “none” if none",
    )
    operations = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Description of the operations (403.12(b)(3))",
    )
    sic_codes = forms.CharField(max_length=120, required=False, label="SIC or NAICS codes")
    production_rate = forms.CharField(
        max_length=200, required=False, label="Average rate of production"
    )
    standards_applicable = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="Categorical standards applicable to each regulated process (403.12(b)(5))",
    )
    average_flow_gpd = forms.DecimalField(
        min_value=0, max_digits=12, decimal_places=2, required=False,
        label="Average daily flow, gallons per day (403.12(b)(4))",
    )  # fmt: skip
    maximum_flow_gpd = forms.DecimalField(
        min_value=0, max_digits=12, decimal_places=2, required=False,
        label="Maximum daily flow, gallons per day",
    )  # fmt: skip
    meets_standards = forms.NullBooleanField(
        widget=StandardsSelect,
        required=False,
        label="Are the pretreatment standards met? (403.12(b)(6))",
    )
    additional_measures = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="If not: the additional operation and maintenance or pretreatment needed",
    )
    compliance_schedule = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="If not: the compliance schedule (403.12(b)(7))",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """One more field per element: why it does not apply or is not given."""
        super().__init__(*args, **kwargs)
        for item in ITEMS:
            self.fields[f"explain_{item.code}"] = forms.CharField(
                widget=forms.Textarea(attrs={"rows": 1}),
                required=False,
                label=f"{item.title} ({item.citation}): if not given, why",
                help_text="why it does not apply or is not given (leave empty when given)",
            )


class AttachForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k, k) for k in ATTACHMENT_KINDS], label="What the file is")
    document = forms.FileField(label="File (PDF, PNG, JPEG or TIFF)")
