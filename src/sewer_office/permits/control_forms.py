"""Forms for staff to record an approval's terms as a control mechanism before it is issued
(40 CFR 403.8(f)(1)(iii)(B)), and its ICIS-NPDES identifier once assigned.

The forms only shape the input; :mod:`.services.control_terms` validates and records. The
non-transferability and penalties fields come filled with the Town's usual words
(:func:`~.control_mechanism.standard_terms`) while none is recorded: staff read, edit or
clear them; what is issued is what they record.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone

from sewer_office.core.town_law import town_of

from . import rules
from .choices import MonitoringFrequency, SampleType
from .control_mechanism import standard_terms, term_label
from .models.industrial import CONTROL_TERMS
from .services.control_terms import TEXT_LIMIT

HELP: dict[str, str] = {
    "non_transferable": "prefilled with the Town's words: edit or clear before recording",
    "effluent_limits": "the numeric limits and Best Management Practices, and what they rest "
    "on: general and categorical pretreatment standards, the article's limits (§ 196-19), "
    "State and local law",
    "reporting": "what the user reports and when, whom it notifies of what (slugs, "
    "violations, changes), which records it keeps and for how long",
    "penalties": "prefilled from § 196-22 and the daily fine in force: edit or clear",
    "compliance_schedule": "only if one applies: the milestones and their dates",
    "slug_control": "the slug control plan or requirements, where the Town found them necessary",
    "slug_not_necessary": "instead of requirements: the Town's determination that slug control "
    "is not necessary, with its reason",
}


class TermsForm(forms.Form):
    """One text per kind of control-mechanism term; each filled one is recorded."""

    def __init__(self, *args: Any, approval: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        recorded: set[str] = set()
        defaults: dict[str, str] = {}  # no approval (the API's schema): no town, no prefill
        if approval is not None:
            recorded = set(approval.conditions.values_list("kind", flat=True))
            # the penalties in force in the approval's town
            defaults = standard_terms(town_of(approval), timezone.localdate())
        for kind in CONTROL_TERMS:
            self.fields[kind] = forms.CharField(
                required=False,
                max_length=TEXT_LIMIT,
                label=term_label(kind),
                help_text=HELP.get(kind, ""),
                initial=None if kind in recorded else defaults.get(kind),
                widget=forms.Textarea(attrs={"rows": 2}),
            )

    def terms(self) -> dict[str, str]:
        return {k: self.cleaned_data.get(k) or "" for k in CONTROL_TERMS}


class SelfMonitoringForm(forms.Form):
    """A pollutant the user samples and reports, where, how and how often."""

    parameter = forms.ChoiceField(label="Pollutant", choices=())
    sampling_point = forms.CharField(
        max_length=80, label="Sampling location", help_text="e.g. the control manhole, CM-1"
    )
    sample_type = forms.ChoiceField(
        choices=SampleType.choices,
        initial=SampleType.COMPOSITE,
        help_text="pH, cyanide, phenols, oil and grease are grab samples (40 CFR 403.12(g)(3))",
    )
    frequency = forms.ChoiceField(choices=MonitoringFrequency.choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["parameter"].choices = rules.analyte_choices()  # type: ignore[attr-defined]


class IcisIdForm(forms.Form):
    icis_permit_id = forms.CharField(
        max_length=40,
        label="ICIS-NPDES permit identifier",
        help_text="nine characters, as EPA or the State assigned it; recorded once",
    )
