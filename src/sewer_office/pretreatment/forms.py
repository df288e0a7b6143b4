"""Forms of the pretreatment pages (the API validates the same fields through the services)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from sewer_rules.federal.cfr403_baseline import Element

from .choices import BaselineAnswer, DesignationBasis, DischargeType, ReportKind


class RunForm(forms.Form):
    period = forms.CharField(
        max_length=40, help_text="2026H1, 2026, or 2026-01..2026-06 (whole calendar halves)"
    )
    rolling = forms.BooleanField(
        required=False, help_text="rolling six months judged at each quarter's end"
    )


class DesignateForm(forms.Form):
    basis = forms.ChoiceField(choices=DesignationBasis.choices)
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="required to designate (403.3(v)(1)(ii)) or to find not significant (403.3(v)(2))",
    )
    on = forms.DateField(required=False, help_text="day of the decision (default today)")


class RequirementForm(forms.Form):
    kind = forms.ChoiceField(choices=ReportKind.choices)
    every_months = forms.TypedChoiceField(
        coerce=int,
        choices=(
            (6, "every 6 months"),
            (12, "every 12 months"),
            (3, "every 3 months"),
            (1, "every month"),
            (0, "once"),
        ),
        initial=6,
    )
    first_due = forms.DateField()
    ends_on = forms.DateField(required=False)


class ReceivedForm(forms.Form):
    received_on = forms.DateField()
    note = forms.CharField(max_length=200, required=False)


class StaffCriterionForm(forms.Form):
    criterion = forms.ChoiceField(
        choices=(
            ("C", "(C) interference or pass through, endangering POTW personnel or the public"),
            ("D", "(D) imminent endangerment, or the emergency authority exercised"),
            ("G", "(G) failure to accurately report noncompliance"),
            ("H", "(H) other violation adversely affecting the pretreatment program"),
        )
    )
    facts = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="what happened and how the Control Authority determined it",
    )
    on = forms.DateField(help_text="day of the violation, within the period")


class BaselineReceivedForm(forms.Form):
    """A paper baseline report received: the day, and for each element of 40 CFR 403.12(b)
    whether the report gives it (and where), explains why not, or lacks it."""

    received_on = forms.DateField()
    note = forms.CharField(max_length=200, required=False)
    scan = forms.FileField(
        required=False,
        label="The paper report (PDF or image), if the office keeps a scan",
        help_text="an element marked given with no text of its own refers to this file",
    )

    def __init__(self, *args: Any, elements: Sequence[Element], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.elements = tuple(elements)
        for e in self.elements:
            self.fields[f"answer_{e.code}"] = forms.ChoiceField(
                choices=BaselineAnswer.choices, label=e.label, help_text=e.asks
            )
            self.fields[f"text_{e.code}"] = forms.CharField(
                widget=forms.Textarea(attrs={"rows": 2}),
                required=False,
                label=f"{e.title}: where the report gives it, or why it does not apply",
            )

    def rows(self) -> list[tuple[Element, Any, Any]]:
        """Each element with its two fields, for the page's table."""
        return [(e, self[f"answer_{e.code}"], self[f"text_{e.code}"]) for e in self.elements]

    def entries(self) -> dict[str, dict[str, str]]:
        d = self.cleaned_data
        return {
            e.code: {"answer": d[f"answer_{e.code}"], "text": d[f"text_{e.code}"]}
            for e in self.elements
        }


class HazardousNotificationForm(forms.Form):
    """A hazardous-waste notification (40 CFR 403.12(p)); every field's need is checked by the
    service, which names what is missing."""

    waste_name = forms.CharField(
        max_length=200, required=False, label="Name of the hazardous waste (as in 40 CFR 261)"
    )
    waste_number = forms.CharField(
        max_length=8, required=False, label="EPA hazardous waste number", help_text="e.g. F006"
    )
    discharge_type = forms.ChoiceField(
        choices=[("", "—"), *DischargeType.choices], required=False, label="Type of discharge"
    )
    discharge_detail = forms.CharField(
        max_length=200, required=False, label="If other: what the discharge is"
    )
    monthly_kg = forms.DecimalField(
        max_digits=12, decimal_places=3, required=False, min_value=0,
        label="Mass of the waste discharged in a calendar month (kg)",
    )  # fmt: skip
    constituents = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False,
        label="Above 100 kg a month: the hazardous constituents",
    )  # fmt: skip
    month_estimate = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False,
        label="Above 100 kg a month: mass and concentration of the constituents that month",
    )  # fmt: skip
    year_estimate = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False,
        label="Above 100 kg a month: mass of the constituents expected in the next 12 months",
    )  # fmt: skip
    not_known = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False,
        label="What of the estimates is not known or readily available, and why",
    )  # fmt: skip
    minimization_certified = forms.BooleanField(
        required=False,
        label="The user certifies a program to reduce the volume and toxicity of its hazardous "
        "wastes, to the degree it found economically practical (403.12(p)(4))",
    )
    discharge_began_on = forms.DateField(required=False, label="Day the discharge began")
    notified_on = forms.DateField(required=False, label="Day of the written notice")
    epa_notified_on = forms.DateField(
        required=False, label="Day sent to the EPA Regional Waste Management Division Director"
    )
    state_notified_on = forms.DateField(
        required=False, label="Day sent to the State hazardous waste authorities"
    )
    document = forms.FileField(required=False, label="The notice (PDF or image), if kept")

    def __init__(self, *args: Any, paper: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not paper:  # sent through the site: dated the day it arrives
            del self.fields["notified_on"]
