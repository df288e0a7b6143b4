"""The forms of a petition against an order of a town's own ladder and of its decision. They
check only what a form can know; the services (:mod:`.petitions`) check the dates against the
order and the window, so the page and a direct call refuse alike."""

from __future__ import annotations

from typing import Any

from django import forms

from .choices import PetitionAsks, PetitionDecision
from .forms import DATE, _today


class PetitionForm(forms.Form):
    asks = forms.ChoiceField(choices=PetitionAsks.choices, label="The petition asks to")
    grounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), help_text="what it asks and why, in short"
    )
    received_on = forms.DateField(
        widget=DATE, initial=_today, help_text="the day the written petition was received"
    )

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw.setdefault("auto_id", "petition-%s")  # the page holds other forms' fields too
        super().__init__(*args, **kw)


class PetitionDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=PetitionDecision.choices)
    decided_on = forms.DateField(widget=DATE, initial=_today)
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), label="Reasons", help_text="as decided"
    )

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw.setdefault("auto_id", "decision-%s")
        super().__init__(*args, **kw)
