"""Forms of the pretreatment pages (the API validates the same fields through the services)."""

from __future__ import annotations

from django import forms

from .choices import DesignationBasis, ReportKind


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
