"""The reminders a user chooses (``/mail/preferences/``): one box per optional topic."""

from __future__ import annotations

from typing import Any

from django import forms

from .choices import OPTIONAL, Topic


class PreferencesForm(forms.Form):
    def __init__(self, *args: Any, current: dict[str, bool], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for topic in OPTIONAL:
            self.fields[topic] = forms.BooleanField(
                label=Topic(topic).label, required=False, initial=current.get(topic, True)
            )

    def wanted(self) -> dict[str, bool]:
        return {topic: bool(self.cleaned_data.get(topic)) for topic in OPTIONAL}
