"""The portal's forms: registering, asking for a link, and staff's decision on it."""

from __future__ import annotations

from typing import Any

from django import forms

from sewer_office.registry.pickers import PersonField

from .choices import DocumentKind, Relation


class RegistrationForm(forms.Form):
    name = forms.CharField(max_length=150, label="Your name (as on your identification)")
    email = forms.EmailField(max_length=254, label="E-mail address")
    username = forms.CharField(max_length=150, label="User name")
    password = forms.CharField(widget=forms.PasswordInput, label="Password")
    password_again = forms.CharField(widget=forms.PasswordInput, label="Password, again")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data


class LinkRequestForm(forms.Form):
    relation = forms.ChoiceField(choices=Relation.choices, label="You are")
    person_name = forms.CharField(
        max_length=200, label="Whom you act for (the owner's or the business's name)"
    )
    place = forms.CharField(
        max_length=300, label="The property (address or parcel id) or the establishment"
    )
    document = forms.FileField(
        label="A document showing your identity and authority (PDF, PNG, JPEG or TIFF)",
        required=False,
        allow_empty_file=True,  # refused by the service, with a message naming the file
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class ConfirmForm(forms.Form):
    person = PersonField(label="Link the account to")
    document_kind = forms.ChoiceField(choices=DocumentKind.choices, label="Document checked")
    document_reference = forms.CharField(max_length=200, label="Its number or description")
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
