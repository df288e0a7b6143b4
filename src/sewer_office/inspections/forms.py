"""Forms of the inspection pages: scheduling, performing (the checklist), photos, addenda."""

from __future__ import annotations

import secrets
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from sewer_office.monitoring.models import SamplingEvent
from sewer_office.registry.pickers import EstablishmentField, PropertyField

from .checklists import items
from .choices import Agency, Answer, InspectionKind
from .models import Inspection
from .services import PERFORMERS

#: Samples offered on the checklist form: the facility's most recent ones.
RECENT_SAMPLES = 50


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def performers() -> Any:
    return (
        get_user_model()
        .objects.filter(groups__name__in=PERFORMERS, is_active=True)
        .distinct()
        .order_by("last_name", "username")
    )


class InspectorChoice(forms.ModelChoiceField[User]):
    def label_from_instance(self, obj: User) -> str:
        return obj.get_full_name() or obj.get_username()


class ScheduleForm(forms.Form):
    kind = forms.ChoiceField(choices=InspectionKind.choices)
    unscheduled = forms.BooleanField(
        required=False, help_text="An unannounced visit, not planned on the calendar."
    )
    scheduled_for = forms.DateTimeField(required=False, widget=DateTimeInput())
    establishment = EstablishmentField(
        required=False,
        label="Facility",
        help_text="For industrial users and food services.",
    )
    property = PropertyField(
        required=False, help_text="For building sewers, private systems and easements."
    )
    on_easement = forms.BooleanField(
        required=False, label="Works on a Town easement", help_text="§ 196-21 B"
    )
    location = forms.CharField(max_length=200, required=False)
    inspector = InspectorChoice(queryset=performers(), required=False)
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(InspectorChoice, self.fields["inspector"]).queryset = performers()


class CameraInput(forms.ClearableFileInput):
    """Several photos at once, the tablet's camera offered first (``capture``)."""

    allow_multiple_selected = True

    def __init__(self) -> None:
        super().__init__(attrs={"accept": "image/*", "capture": "environment", "multiple": True})


class PhotosField(forms.FileField):
    """Zero or more uploaded photos (a list; each is checked by the service)."""

    widget = CameraInput

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_empty_file", True)  # refused by the service, naming the file
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        files = data if isinstance(data, list | tuple) else ([data] if data else [])
        return [super(PhotosField, self).clean(f, initial) for f in files]


#: The answers as the tablet shows them: the checklist items are statements of what should be
#: so — "yes" it is (pass), "no" it is not (fail), or not applicable.
ANSWER_WORDS = {Answer.PASS: "Yes", Answer.FAIL: "No", Answer.NOT_APPLICABLE: "Not applicable"}


class CompleteForm(forms.Form):
    """The checklist of the inspection's kind, one yes/no/n.a. choice and note per item."""

    submission_key = forms.CharField(
        max_length=64,
        required=False,
        widget=forms.HiddenInput,
        help_text="Given with the form: the same form sent twice completes the inspection once.",
    )
    photos = PhotosField(
        required=False,
        label="Photos taken on the visit",
        help_text="Take them with the tablet's camera or choose files: JPEG, PNG, GIF or WebP.",
    )

    credentials_presented = forms.BooleanField(
        required=False,
        label="Credentials and identification presented",
        help_text="§ 196-21 A: only inspectors bearing proper credentials may enter.",
    )
    credential = forms.CharField(
        max_length=120, required=False, label="Credential or ID number shown"
    )
    started_at = forms.DateTimeField(widget=DateTimeInput())
    ended_at = forms.DateTimeField(widget=DateTimeInput(), required=False)
    observations = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False)
    samples = forms.ModelMultipleChoiceField(
        queryset=SamplingEvent.objects.none(), required=False, help_text="Samples of the facility"
    )
    samples_text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        label="Other samples taken",
        help_text="One per line.",
    )

    def __init__(self, inspection: Inspection, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inspection = inspection
        self.fields["submission_key"].initial = secrets.token_hex(16)
        if inspection.establishment_id:
            recent = SamplingEvent.objects.filter(
                establishment_id=inspection.establishment_id
            ).order_by("-collected_at")
            ids = list(recent.values_list("pk", flat=True)[:RECENT_SAMPLES])
            others = cast(forms.ModelMultipleChoiceField[SamplingEvent], self.fields["samples"])
            others.queryset = recent.filter(pk__in=ids)
        else:
            del self.fields["samples"]
        for item in items(inspection.kind):
            self.fields[f"item_{item.key}"] = forms.ChoiceField(
                choices=[(a.value, ANSWER_WORDS[a]) for a in Answer],
                widget=forms.RadioSelect,
                label=f"{item.question} ({item.citation})",
            )
            self.fields[f"note_{item.key}"] = forms.CharField(
                max_length=500, required=False, label="Note"
            )

    def item_rows(self) -> list[tuple[Any, Any, Any]]:
        """(item, choice field, note field) for the template."""
        return [
            (item, self[f"item_{item.key}"], self[f"note_{item.key}"])
            for item in items(self.inspection.kind)
        ]

    def answers(self) -> dict[str, dict[str, str]]:
        d = self.cleaned_data
        return {
            item.key: {"result": d[f"item_{item.key}"], "note": d.get(f"note_{item.key}", "")}
            for item in items(self.inspection.kind)
        }


class PhotoForm(forms.Form):
    photo = forms.FileField(allow_empty_file=True, help_text="JPEG, PNG, GIF or WebP.")
    title = forms.CharField(max_length=200, required=False)


class AddendumForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label="Addendum")


class CancelForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class AgencyInspectorForm(forms.Form):
    """An EPA, DEC or County Health inspector taking part (§ 196-21 A)."""

    agency = forms.ChoiceField(choices=Agency.choices)
    name = forms.CharField(max_length=120)
    credential = forms.CharField(
        max_length=120, help_text="the credential and identification shown (kind and number)"
    )


class RefusalForm(forms.Form):
    """A refusal of entry (§ 196-21 A): who, when, what was asked, the credentials shown."""

    refused_by = forms.CharField(max_length=160, help_text="name and capacity of who refused")
    refused_at = forms.DateTimeField(widget=DateTimeInput())
    asked = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="what was asked: entry to what, for inspection, measurement or sampling",
    )
    credentials_shown = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="the credentials and identification shown",
    )
