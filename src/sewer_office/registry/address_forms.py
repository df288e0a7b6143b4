"""The fields of a postal address on the registry's forms: a person's mailing address and a
property's postal town, state and ZIP code, each checked with a message naming the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms

from .postal import normalize_state, normalize_zip, validate_state, validate_zip


def _checked(form: forms.Form, key: str, normalize: Callable[[str], str], check: Any) -> str:
    value = normalize(form.cleaned_data.get(key) or "")
    check(value)  # its ValidationError names the field ("State: …", "ZIP code: …")
    return value


class MailingFields(forms.Form):
    """Where a person's mail goes when not to its premises (all blank: to the premises)."""

    mail_street = forms.CharField(
        label="Mailing street",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Only if mail goes elsewhere than the premises (an absentee owner, a "
        "corporate office): street or PO box, a care-of line first if any.",
    )
    mail_city = forms.CharField(label="Mailing town", max_length=80, required=False)
    mail_state = forms.CharField(label="Mailing state", max_length=2, required=False)
    mail_zip = forms.CharField(label="Mailing ZIP code", max_length=10, required=False)

    def clean_mail_state(self) -> str:
        return _checked(self, "mail_state", normalize_state, validate_state)

    def clean_mail_zip(self) -> str:
        return _checked(self, "mail_zip", normalize_zip, validate_zip)

    def clean(self) -> dict[str, Any]:
        """A mailing address is all there or not at all: a carrier cannot deliver half of one."""
        data = super().clean() or {}
        keys = {
            "mail_street": "Mailing street",
            "mail_city": "Mailing town",
            "mail_state": "Mailing state",
            "mail_zip": "Mailing ZIP code",
        }
        if any(data.get(k) for k in keys):
            for key, label in keys.items():
                if not data.get(key) and key not in self.errors:
                    self.add_error(key, f"{label}: required to complete the mailing address.")
        return data


class PostalFields(forms.Form):
    """A property's postal locality (the post office's town, not necessarily the Town's)."""

    city = forms.CharField(
        label="Town (postal)",
        max_length=80,
        required=False,
        help_text="The post office's name: Wappingers Falls, Hopewell Junction…",
    )
    state = forms.CharField(max_length=2, required=False, initial="NY")
    zip = forms.CharField(label="ZIP code", max_length=10, required=False)

    def clean_state(self) -> str:
        return _checked(self, "state", normalize_state, validate_state)

    def clean_zip(self) -> str:
        return _checked(self, "zip", normalize_zip, validate_zip)


class MailingAddressForm(MailingFields):
    """Edit a person's mailing address."""


class PostalAddressForm(PostalFields):
    """Edit a property's street line and postal locality."""

    address = forms.CharField(label="Street address", max_length=200)
    field_order = ("address", "city", "state", "zip")
