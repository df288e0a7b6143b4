"""The reports' forms: signing, reviewing, recording a signatory."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from sewer_office.accounts.roles import APPLICANT
from sewer_office.registry.models import Establishment

from .choices import SignatoryKind


class SignForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label="Your password, again")
    code = forms.CharField(max_length=12, label="The code e-mailed to you")


class ReviewForm(forms.Form):
    decision = forms.ChoiceField(choices=(("accept", "Accept"), ("reject", "Reject")))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class SignatoryForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=Establishment.objects.order_by("name"))
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
