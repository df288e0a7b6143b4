"""Forms of the enforcement actions (each transition's facts) and of opening a violation.

The forms check only what a form can know (required fields, a receipt number for certified
mail, e-mail only with the person's agreement); what depends on the record — a served day not
before the issue, a verification not before the report, the 10-day minimum of § 196-22 A — is
checked by the services, so the page and the API refuse alike.
"""

from __future__ import annotations

from datetime import date
from typing import Any, cast

from django import forms
from django.utils import timezone

from sewer_office.core.record_choice import RecordChoiceField
from sewer_office.inspections.models import Inspection
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.pickers import EstablishmentField, PersonField, PropertyField
from sewer_rules.duties import FEDERAL, duty_of
from sewer_rules.sections import REGISTRY

from .choices import CostCategory, DeliveryProof, ImposedBy, ReferralKind, ServiceMethod
from .models import Notice

DATE = forms.DateInput(attrs={"type": "date"})


def _today() -> Any:
    return timezone.localdate()


class IssueForm(forms.Form):
    nature = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text="the nature of the violation as the notice states it (default: the description)",
    )
    period_days = forms.IntegerField(
        required=False,
        min_value=0,
        help_text="correction period stated in the notice, at least 10 days (§ 196-22 A)",
    )


class SupersedeForm(IssueForm):
    """A superseding notice: the same facts as a notice, and the reason (required, also
    written on the audit event), which the new notice keeps."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class ServeForm(forms.Form):
    """Service: personal or e-mail complete on the day given; certified mail is mailed on the
    day given and complete on the delivery recorded later (:class:`DeliveryForm`)."""

    served_on = forms.DateField(
        widget=DATE,
        initial=_today,
        label="Day delivered in person or e-mailed, or day mailed (certified mail)",
    )
    service_method = forms.ChoiceField(choices=ServiceMethod.choices)
    receipt_number = forms.CharField(max_length=60, required=False)
    email_address = forms.CharField(max_length=200, required=False)
    email_consent = forms.BooleanField(
        required=False, label="The person agreed in writing to service by e-mail"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        method = data.get("service_method")
        if (
            method == ServiceMethod.CERTIFIED_MAIL
            and not (data.get("receipt_number") or "").strip()
        ):
            self.add_error("receipt_number", "Certified mail: give the receipt number.")
        if method == ServiceMethod.EMAIL:
            if not data.get("email_consent"):
                self.add_error(
                    "email_consent",
                    "Service by e-mail only where the person agreed to it: record the agreement "
                    "or serve personally or by certified mail.",
                )
            if not (data.get("email_address") or "").strip():
                self.add_error("email_address", "Give the address the notice was sent to.")
        return data


class DeliveryForm(forms.Form):
    """The day a mailed notice was delivered, and what shows it (§ 196-22 A)."""

    delivered_on = forms.DateField(widget=DATE, initial=_today)
    delivery_proof = forms.ChoiceField(choices=DeliveryProof.choices)


class CorrectionForm(forms.Form):
    reported_on = forms.DateField(widget=DATE, initial=_today)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))


class InspectionChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A completed inspection by its number, kind, subject and day (in town time)."""

    def label_from_instance(self, obj: Any) -> str:
        when = timezone.localtime(obj.ended_at).date() if obj.ended_at else None
        return f"{obj} ({when:%Y-%m-%d})" if when else str(obj)


class VerifyForm(forms.Form):
    verified_on = forms.DateField(widget=DATE, initial=_today)
    ceased_on = forms.DateField(
        widget=DATE,
        required=False,
        label="Day the violation ceased",
        help_text="as the verification found it: the reported day (the default) when borne "
        "out, or the day found on inspection; never after the verification (§ 196-22 B)",
    )
    inspection = InspectionChoice(
        queryset=Inspection.objects.filter(state="completed")
        .select_related("establishment")
        .order_by("-ended_at", "-id"),
        required=False,
        label="Follow-up inspection",
        help_text="the completed inspection of the facility the verification rests on, if any",
    )
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def clean_inspection(self) -> int | None:
        """The service takes the inspection's number in the record (and checks its facility)."""
        found = self.cleaned_data.get("inspection")
        return found.pk if found is not None else None


class RejectForm(forms.Form):
    rejected_on = forms.DateField(widget=DATE, initial=_today)


class EscalateForm(forms.Form):
    nature = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    period_days = forms.IntegerField(required=False, min_value=0)
    referred_to = forms.CharField(max_length=200, required=False)


class ReferForm(forms.Form):
    kind = forms.ChoiceField(choices=ReferralKind.choices)
    referred_to = forms.CharField(max_length=200, required=False)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class ReferFineForm(forms.Form):
    """A late-corrected violation's fine for the days late, sent for prosecution: always to the
    Town Attorney (§ 196-22 B), so no kind is asked."""

    referred_to = forms.CharField(max_length=200, required=False)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class CostForm(forms.Form):
    category = forms.ChoiceField(choices=CostCategory.choices)
    description = forms.CharField(max_length=200)
    hours = forms.DecimalField(max_digits=8, decimal_places=2, required=False, min_value=0)
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    incurred_on = forms.DateField(widget=DATE, initial=_today)


def section_choices(extra: str = "") -> list[tuple[str, str]]:
    """The provisions a person can violate, each with its heading: the article's sections and
    subsections that impose a duty or a prohibition (the sections registry judged by
    :mod:`sewer_rules.duties`, in the article's order), then the federal requirements the Town
    enforces on a user. ``extra`` (a finding's own citation, e.g. a compound one) comes first
    when it is not among them."""
    article = [
        (str(c), f"{c} — {s.heading}") for c, s in REGISTRY.items() if duty_of(str(c)).imposes
    ]
    federal = [(cite, f"{cite} — {why}") for cite, why in FEDERAL.items()]
    choices = article + federal
    if extra and extra not in {c for c, _ in choices}:
        choices.insert(0, (extra, f"{extra} — as the finding cites it"))
    return choices


class SectionField(forms.ChoiceField):
    """The provision violated, chosen from :func:`section_choices`; one outside them is
    refused saying why nothing can violate it (a definition, a fee, a penalty section...)."""

    def validate(self, value: Any) -> None:
        if value and not self.valid_value(value):
            duty = duty_of(str(value))
            raise forms.ValidationError(
                duty.refusal
                if not duty.imposes
                else f"{value}: choose the provision violated from the list",
                code="invalid_choice",
            )
        super().validate(value)


class OpenForm(forms.Form):
    """Opening a violation by hand (a discharge seen on inspection, a § 196-20 act...), or
    from a finding, filled from it (``finding_section``: its citation, kept as a choice)."""

    kind = forms.ChoiceField(choices=())
    section = SectionField(choices=(), help_text="the provision violated")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Nature of the violation",
        help_text="as the notice will state it to the person responsible, in plain words",
    )
    person = PersonField(help_text="the person responsible (§ 196-15 PERSON)")
    establishment = EstablishmentField(required=False, label="Facility")
    property = PropertyField(required=False)
    observed_on = forms.DateField(widget=DATE, initial=_today)

    def __init__(
        self,
        *args: Any,
        kinds: list[tuple[str, str]] | None = None,
        finding_section: str = "",
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        cast(forms.ChoiceField, self.fields["kind"]).choices = kinds or []
        section = cast(forms.ChoiceField, self.fields["section"])
        section.choices = [
            ("", "— choose the provision violated —"),
            *section_choices(finding_section),
        ]


class MilestoneCompletionForm(forms.Form):
    completed_on = forms.DateField(widget=DATE, initial=_today)
    completion_report = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="the report of completion (40 CFR 403.12(c)): what was done, by whom",
    )


class ScheduleForm(forms.Form):
    """A compliance schedule: who, what imposes it, the requirement, and its milestones (one per
    line, ``YYYY-MM-DD description``)."""

    establishment = EstablishmentField(label="Facility")
    imposed_by = forms.ChoiceField(choices=ImposedBy.choices)
    approval = RecordChoiceField(
        IndustrialDischargeApproval.objects.exclude(number="")
        .select_related("establishment")
        .order_by("-id"),
        describe=lambda a: f"{a.number} ({a.establishment.name})",
        required=False,
        label="Industrial approval",
        help_text="for a condition of an approval",
    )
    notice = RecordChoiceField(
        Notice.objects.select_related("violation__establishment").order_by("-id"),
        describe=lambda n: f"NOV-{n.pk} ({n.violation.establishment.name})",
        required=False,
        label="Notice of violation",
        help_text="for an administrative order",
    )
    requirement = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    citation = forms.CharField(max_length=80, initial="§ 196-19 E(1)")
    milestones = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        help_text="one milestone a line: YYYY-MM-DD description",
    )
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="required when changing a schedule (written on its audit event)",
    )

    def clean_milestones(self) -> list[tuple[Any, str]]:
        out: list[tuple[Any, str]] = []
        for n, line in enumerate((self.cleaned_data.get("milestones") or "").splitlines(), 1):
            line = line.strip()
            if not line:
                continue
            day, _, text = line.partition(" ")
            try:
                due = date.fromisoformat(day)
            except ValueError:
                raise forms.ValidationError(
                    f"line {n}: {day!r} is not a date (write YYYY-MM-DD description)"
                ) from None
            if not text.strip():
                raise forms.ValidationError(f"line {n}: describe the milestone after its date")
            out.append((due, text.strip()))
        return out
