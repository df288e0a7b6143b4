"""The form of a collection on the fine the court imposed (§ 196-22 B): by the court, or by the
Town (then a payment, with its method). It checks only what a form can know; the service
(:func:`.enforcement.record_collection`) checks the rest — the date against the judgment, an
amount beyond the fine — so the page and the API refuse alike."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils import timezone

from sewer_office.core.forms import DateInput
from sewer_office.enforcement.choices import CollectedBy
from sewer_office.enforcement.models import Judgment

from .choices import PaymentMethod


class CollectionForm(forms.Form):
    judgment = forms.TypedChoiceField(coerce=int, choices=())
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0, label="Amount (USD)")
    collected_on = forms.DateField(
        widget=DateInput, initial=timezone.localdate, label="Received on"
    )
    collected_by = forms.ChoiceField(choices=CollectedBy.choices, label="Collected by")
    method = forms.ChoiceField(
        choices=[("", "—"), *PaymentMethod.choices],
        required=False,
        help_text="money received by the Town: how it was paid",
    )
    reference = forms.CharField(
        max_length=80,
        required=False,
        help_text="the court's receipt, or the check number / card or transfer reference",
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args: Any, judgments: list[Judgment], **kw: Any) -> None:
        kw.setdefault("auto_id", "collection-%s")
        super().__init__(*args, **kw)
        field = cast(forms.TypedChoiceField, self.fields["judgment"])
        field.choices = [
            (j.pk, f"{j.court}, docket {j.docket} ({j.judgment_on:%Y-%m-%d})") for j in judgments
        ]
