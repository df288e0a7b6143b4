"""The form of the court's judgment on a referral for prosecution (§ 196-22 B). It checks only
what a form can know; the service (:func:`.money.record_judgment`) checks the rest — the date
against the referral — so the page and the API refuse alike. The collections on the fine are
billing's (``billing.enforcement_forms``): money the Town receives is a payment."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from .forms import DATE, _today
from .models import Referral


class JudgmentForm(forms.Form):
    referral = forms.TypedChoiceField(
        coerce=int, choices=(), help_text="the referral for prosecution the court decided"
    )
    court = forms.CharField(max_length=200, help_text="e.g. Town of Wappinger Justice Court")
    docket = forms.CharField(max_length=80, label="Docket or index number")
    judgment_on = forms.DateField(widget=DATE, initial=_today, label="Date of judgment")
    fine_amount = forms.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=0,
        label="Fine imposed (USD)",
        help_text="as the judgment states it (0 for a conviction without a fine)",
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args: Any, referrals: list[Referral], **kw: Any) -> None:
        kw.setdefault("auto_id", "judgment-%s")  # the page holds other forms' fields too
        super().__init__(*args, **kw)
        field = cast(forms.TypedChoiceField, self.fields["referral"])
        field.choices = [
            (r.pk, f"{r.referred_on:%Y-%m-%d} {r.get_kind_display()} {r.referred_to}".strip())
            for r in referrals
        ]
