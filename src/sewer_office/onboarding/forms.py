"""The forms of the onboarding pages: the upload, the column mapping (a select per field listing
the file's columns, and a select per word of its kind column), the review queue's decisions."""

from __future__ import annotations

from typing import Any

from django import forms

from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.pickers import PropertyField

from .importing import KIND_WORDS, TARGETS, column_key, word_key
from .models import ColumnMapping

REFUSE = ""


class UploadForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,  # refused by the reader, with a message naming the file
        label="Spreadsheet (Excel .xlsx or CSV)",
        help_text="Row 1 holds the column names; one facility a row.",
    )
    sheet = forms.CharField(
        max_length=120,
        required=False,
        label="Sheet",
        help_text="The workbook's sheet to read (blank: the first). Not for a CSV file.",
    )


class ChooseMappingForm(forms.Form):
    mapping = forms.ModelChoiceField(
        queryset=ColumnMapping.objects.order_by("name"),
        label="Use a saved mapping",
        empty_label="— choose —",
    )


def _kind_choices() -> list[tuple[str, str]]:
    return [(REFUSE, "— not a kind: refuse rows with it —"), *EstablishmentKind.choices]


class MappingForm(forms.Form):
    """The mapping's name, the column of each field (from ``header``), and the kind of each
    word of the kind column (``words``: the file's distinct values there, or the mapping's)."""

    name = forms.CharField(
        max_length=80,
        label="Save the mapping as",
        help_text="Kept for the next file: one with the same columns finds it.",
    )

    def __init__(
        self,
        *args: Any,
        header: list[str],
        words: list[str],
        extra_words: int = 0,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.header = header
        self.words = words
        self.extra_words = extra_words
        columns = [(REFUSE, "— not in this file —"), *((h, h) for h in header)]
        for target in TARGETS:
            self.fields[f"col_{target.name}"] = forms.ChoiceField(
                choices=columns,
                required=target.required,
                label=f"{target.label}{' (required)' if target.required else ''}",
                help_text=target.help,
            )
        for i, word in enumerate(words):
            self.fields[f"word_{i}"] = forms.ChoiceField(
                choices=_kind_choices(), required=False, label=f"“{word}”"
            )
        for i in range(extra_words):
            self.fields[f"new_word_{i}"] = forms.CharField(
                max_length=80, required=False, label=f"Another word ({i + 1})"
            )
            self.fields[f"new_kind_{i}"] = forms.ChoiceField(
                choices=_kind_choices(), required=False, label="means"
            )

    def column_fields(self) -> list[Any]:
        return [self[f"col_{t.name}"] for t in TARGETS]

    def word_fields(self) -> list[Any]:
        return [self[f"word_{i}"] for i in range(len(self.words))]

    def extra_fields(self) -> list[tuple[Any, Any]]:
        return [(self[f"new_word_{i}"], self[f"new_kind_{i}"]) for i in range(self.extra_words)]

    def columns(self) -> dict[str, str]:
        data = self.cleaned_data
        return {t.name: data[f"col_{t.name}"] for t in TARGETS if data.get(f"col_{t.name}")}

    def kind_values(self) -> dict[str, str]:
        data = self.cleaned_data
        out = {word: data.get(f"word_{i}") or "" for i, word in enumerate(self.words)}
        for i in range(self.extra_words):
            word = (data.get(f"new_word_{i}") or "").strip()
            if word and data.get(f"new_kind_{i}"):
                out[word] = data[f"new_kind_{i}"]
        return out


def initial_for(
    header: list[str], words: list[str], mapping: ColumnMapping | None
) -> dict[str, Any]:
    """The form's first values: the saved mapping's choices, else a column named as its field
    usually is (its label, its name, :attr:`~.importing.Target.aliases`), and a word that is a
    kind's own code or label — proposals the clerk confirms by saving."""
    initial: dict[str, Any] = {}
    lowered = {column_key(h): h for h in header}
    if mapping is not None:
        initial["name"] = mapping.name
        for target, column in mapping.columns.items():
            if column in header:
                initial[f"col_{target}"] = column
    else:
        taken: set[str] = set()
        for target in TARGETS:
            for guess in (target.label, target.name, *target.aliases):
                column = lowered.get(column_key(guess))
                if column is not None and column not in taken:
                    initial[f"col_{target.name}"] = column
                    taken.add(column)
                    break
    known = {word_key(k): v for k, v in (mapping.kind_values if mapping else {}).items()}
    for i, word in enumerate(words):
        kind = known.get(word_key(word)) or KIND_WORDS.get(word_key(word))
        if kind:
            initial[f"word_{i}"] = kind
    return initial


class ResolveForm(forms.Form):
    property = PropertyField(
        label="Parcel",
        help_text="Type its address, parcel number or owner; the facility is created there.",
    )


class DismissForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        label="Reason",
        help_text="Why this row is set aside (closed, outside the Town, entered twice…).",
    )
