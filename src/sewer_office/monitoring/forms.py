"""Forms of the monitoring pages (the services validate again; forms give field errors)."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from sewer_io import lab_mapping as layouts
from sewer_office.core.forms import DateInput
from sewer_office.findings.choices import ReviewState
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_rules.evaluation import REQUIRED_COLUMNS

from .choices import LimitType, Sampler, SamplingBasis
from .models import SamplingPoint


class LabFileForm(forms.Form):
    file = forms.FileField(
        allow_empty_file=True,  # refused by the import, with a message naming the file
        label="Laboratory file (CSV)",
        help_text=(
            "Columns of sewer-use check plus facility and sampling_point; optional "
            "collected_by, relinquished_at, relinquished_by, received_at, received_by, laboratory "
            "and sampler (town or user)."
        ),
    )
    sampler = forms.ChoiceField(
        required=False,
        label="Who took these samples",
        choices=[
            ("", "As the file's sampler column says (not recorded where it is empty)"),
            (Sampler.CONTROL_AUTHORITY, "The Town (Control Authority): our own sampling"),
            (Sampler.INDUSTRIAL_USER, "The industrial user (self-monitoring)"),
        ],
        help_text=(
            "For the rows whose sampler column is empty or absent: the Town must sample each "
            "significant industrial user itself once a year (40 CFR 403.8(f)(2)(v)), and a "
            "violation in the user's own sampling calls for a repeat sample (403.12(g)(2))."
        ),
    )
    mapping = forms.ChoiceField(
        required=False,
        label="Mapping",
        help_text=(
            "How the file's columns are read: the project's own layout, or a laboratory's "
            "layout (its EDD) through a preset or a mapping of the office."
        ),
    )
    dry_run = forms.BooleanField(
        required=False, label="Check only (validate and evaluate, store nothing)"
    )

    def __init__(
        self,
        *args: Any,
        mapping_choices: list[tuple[str, str]] | None = None,
        own_samples: bool = False,
        **kwargs: Any,
    ) -> None:
        """``own_samples``: the facility's own upload, whose samples are always the user's
        (no choice of sampler is offered)."""
        super().__init__(*args, **kwargs)
        field = cast(forms.ChoiceField, self.fields["mapping"])
        field.choices = mapping_choices or [("", "The project's layout (sewer-use columns)")]
        if own_samples:
            del self.fields["sampler"]


class ManualResultForm(forms.Form):
    facility = forms.CharField(max_length=40, help_text="facility code, e.g. ACME-PLATING")
    sampling_point = forms.CharField(max_length=40, required=False)
    sample_id = forms.CharField(max_length=80)
    sampled_at = forms.CharField(max_length=40, help_text="ISO 8601, town time: 2026-03-02T10:42")
    sample_type = forms.ChoiceField(choices=[("grab", "grab"), ("composite", "24-hour composite")])
    parameter = forms.CharField(max_length=60, help_text="e.g. pH, BOD5, copper")
    value = forms.CharField(max_length=40, help_text="a number, or <x for a non-detect")
    unit = forms.CharField(max_length=20)
    qualifier = forms.CharField(max_length=10, required=False)
    reporting_limit = forms.CharField(max_length=40, required=False)
    analyzed_at = forms.CharField(max_length=40, required=False)
    method = forms.CharField(max_length=80, required=False)
    collected_by = forms.CharField(max_length=120, required=False)
    relinquished_at = forms.CharField(max_length=40, required=False)
    relinquished_by = forms.CharField(max_length=120, required=False)
    received_at = forms.CharField(max_length=40, required=False)
    received_by = forms.CharField(max_length=120, required=False)
    laboratory = forms.CharField(max_length=120, required=False)


class CorrectionForm(forms.Form):
    value = forms.CharField(max_length=40)
    unit = forms.CharField(max_length=20)
    qualifier = forms.CharField(max_length=10, required=False)
    reporting_limit = forms.CharField(max_length=40, required=False)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class ReviewForm(forms.Form):
    review = forms.ChoiceField(
        choices=[(ReviewState.ACKNOWLEDGED, "Acknowledge"), (ReviewState.CLOSED, "Close")]
    )
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class SamplingPointForm(forms.Form):
    code = forms.CharField(max_length=40)
    manhole = forms.CharField(max_length=60, required=False)
    basis = forms.ChoiceField(choices=SamplingBasis.choices)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    sampling_interval_days = forms.IntegerField(required=False, min_value=1)


class DischargeLimitForm(forms.Form):
    parameter = forms.CharField(max_length=60, help_text="e.g. copper, pH, BOD5")
    limit_type = forms.ChoiceField(choices=LimitType.choices)
    value = forms.CharField(max_length=40, help_text="exact, as written in the approval")
    unit = forms.CharField(max_length=20)
    effective_from = forms.DateField(widget=DateInput)
    effective_to = forms.DateField(widget=DateInput, required=False)
    approval = forms.ModelChoiceField(
        queryset=IndustrialDischargeApproval.objects.none(), required=False
    )
    citation = forms.CharField(max_length=40, initial="§ 196-16 E")

    def __init__(self, *args: Any, establishment: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if establishment is not None:
            approval = cast(
                forms.ModelChoiceField[IndustrialDischargeApproval], self.fields["approval"]
            )
            approval.queryset = IndustrialDischargeApproval.objects.filter(
                establishment=establishment
            )


class SamplingEventForm(forms.Form):
    """A sample taken (§ 196-19 I): its results come later with the laboratory's file."""

    sampling_point = forms.ModelChoiceField(queryset=SamplingPoint.objects.none(), required=False)
    sample_id = forms.CharField(
        max_length=80, help_text="the label on the bottle, as the lab will report it"
    )
    sample_type = forms.ChoiceField(choices=[("grab", "grab"), ("composite", "24-hour composite")])
    collected_at = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    collected_by = forms.CharField(max_length=120, required=False)
    relinquished_at = forms.DateTimeField(
        required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    relinquished_by = forms.CharField(max_length=120, required=False)
    received_at = forms.DateTimeField(
        required=False,
        label="Received by the lab at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    received_by = forms.CharField(max_length=120, required=False)
    laboratory = forms.CharField(max_length=120, required=False)

    def __init__(self, *args: Any, establishment: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if establishment is not None:
            point = cast(forms.ModelChoiceField[SamplingPoint], self.fields["sampling_point"])
            point.queryset = SamplingPoint.objects.filter(establishment=establishment, active=True)


#: What each project column holds, beside its select on the mapping page.
COLUMN_HELP: dict[str, str] = {
    "sample_id": "the sample's identifier (required)",
    "sampled_at": "when the sample was taken (required; a date, and a time column if apart)",
    "sample_type": "grab, composite or continuous (required: a column or a constant)",
    "parameter": "the analyte's name (required, or the CAS number below)",
    "value": "the reported value (required)",
    "unit": "the value's unit (required: a column or a constant)",
    "facility": "the facility code (the office's import needs it: a column or a constant)",
    "qualifier": "the laboratory's qualifier codes (their meanings below)",
    "reporting_limit": "the reporting limit (for a non-detect)",
    "analyzed_at": "when the sample was analysed",
    "method": "the analytical method",
    "source": "the water's declared source (§ 196-15 COOLING WATER)",
    "sampling_point": "the sampling point's code (blank: the facility's only one)",
    "collected_by": "who took the sample",
    "relinquished_at": "when the sampler relinquished it",
    "relinquished_by": "who relinquished it",
    "received_at": "when the laboratory received it",
    "received_by": "who received it",
    "laboratory": "the laboratory",
    layouts.CAS_COLUMN: "CAS numbers, read when the analyte's name is not known",
}
NOT_IN_FILE = "— not in the file —"
MEANING_CHOICES = [("", "— no meaning: its rows are refused —")] + [
    (str(m), layouts.MEANING_HELP[m]) for m in layouts.Meaning
]


def code_field(code: str) -> str:
    """The form field of a qualifier code (any text: named by its bytes)."""
    return "q_" + code.encode("utf-8").hex()


def _pairs(text: str, what: str) -> tuple[dict[str, str], list[str]]:
    """``NAME = VALUE`` lines (blank lines skipped) and the lines that are not."""
    out: dict[str, str] = {}
    wrong = []
    for line in text.splitlines():
        if not line.strip():
            continue
        left, sep, right = line.rpartition("=")
        if not sep or not left.strip() or not right.strip():
            wrong.append(f"'{line.strip()}' is not {what}")
            continue
        out[left.strip()] = right.strip()
    return out, wrong


class LabMappingForm(forms.Form):
    """A laboratory mapping: a select per project column among the sample file's headers, a
    constant for the columns the file lacks, the date format, the meanings of the codes."""

    name = forms.CharField(max_length=layouts.MAX_NAME)
    laboratory = forms.CharField(max_length=120, required=False)
    description = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="what files the mapping reads (optional)",
    )
    sample = forms.FileField(
        required=False,
        allow_empty_file=True,
        label="Sample file from the laboratory (CSV)",
        help_text="Its columns are read and shown; its first rows are checked through the mapping.",
    )
    sample_text = forms.CharField(required=False, widget=forms.HiddenInput)
    date_format = forms.CharField(
        max_length=60,
        required=False,
        initial=layouts.ISO,
        help_text=(
            "iso, or how the laboratory writes dates: %m/%d/%Y %H:%M (month first), "
            "%d/%m/%Y %H:%M (day first), %I:%M %p for 08:00 AM..."
        ),
    )
    timezone = forms.CharField(
        max_length=60,
        initial=layouts.DEFAULT_TIMEZONE,
        help_text="the time zone of the laboratory's times without offset",
    )
    optional = forms.MultipleChoiceField(
        required=False,
        label="Columns the file may lack",
        choices=[(t, t) for t in layouts.TARGETS if t not in REQUIRED_COLUMNS],
        widget=forms.CheckboxSelectMultiple,
        help_text=(
            "a column ticked here is read when the file has it and left empty when it has not; "
            "any other column the mapping names must be in every file"
        ),
    )
    more_qualifiers = forms.CharField(
        required=False,
        label="Other qualifier codes",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="codes not in the sample, one a line: CODE = non-detect, estimated, blank or keep",
    )
    analytes = forms.CharField(
        required=False,
        label="The laboratory's analyte names",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="names the project does not know, one a line: the laboratory's name = parameter",
    )

    def __init__(
        self,
        *args: Any,
        headers: list[str] | None = None,
        codes: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        options = [("", NOT_IN_FILE)] + [(h, h) for h in headers or []]
        self.codes = list(codes or [])
        for target in layouts.TARGETS:
            self.fields[f"col_{target}"] = forms.ChoiceField(
                choices=options, required=False, label=target
            )
            if target in layouts.DATE_COLUMNS:
                self.fields[f"time_{target}"] = forms.ChoiceField(
                    choices=options, required=False, label=f"{target}: time column"
                )
            if target not in layouts.NOT_CONSTANT:
                self.fields[f"const_{target}"] = forms.CharField(
                    max_length=120, required=False, label=f"{target}: constant"
                )
        for code in self.codes:
            self.fields[code_field(code)] = forms.ChoiceField(
                choices=MEANING_CHOICES, required=False, label=f"code {code}"
            )
        self.mapping: layouts.LabMapping | None = None

    def mapping_dict(self) -> dict[str, Any]:
        """The mapping's dictionary from the cleaned fields (validated by :meth:`clean`)."""
        data = self.cleaned_data
        columns: dict[str, Any] = {}
        constants: dict[str, str] = {}
        for target in layouts.TARGETS:
            header = data.get(f"col_{target}") or ""
            time = data.get(f"time_{target}") or ""
            if header:
                columns[target] = [header, time] if time else header
            elif time:
                self.add_error(f"time_{target}", "a time column needs its date column")
            constant = (data.get(f"const_{target}") or "").strip()
            if constant:
                constants[target] = constant
        qualifiers: dict[str, str] = {}
        for code in self.codes:
            if meaning := data.get(code_field(code)):
                qualifiers[code] = meaning
        more, wrong = _pairs(data.get("more_qualifiers") or "", "CODE = meaning")
        for message in wrong:
            self.add_error("more_qualifiers", message)
        qualifiers.update(more)
        analytes, wrong = _pairs(data.get("analytes") or "", "name = parameter")
        for message in wrong:
            self.add_error("analytes", message)
        out: dict[str, Any] = {
            "name": data.get("name", ""),
            "laboratory": data.get("laboratory", ""),
            "description": data.get("description", ""),
            "columns": columns,
            "date_format": (data.get("date_format") or "").strip() or layouts.ISO,
            "timezone": (data.get("timezone") or "").strip() or layouts.DEFAULT_TIMEZONE,
            "qualifiers": qualifiers if "qualifier" in columns else layouts.AS_WRITTEN,
        }
        optional = [t for t in data.get("optional") or [] if t in columns]
        if optional:
            out["optional"] = optional
        if analytes:
            out["analytes"] = analytes
        if constants:
            out["constants"] = constants
        return out

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            self.mapping = layouts.LabMapping.from_dict(self.mapping_dict())
        except layouts.MappingError as e:
            for problem in e.problems:
                self.add_error(self._field_of(problem), problem)
        return cleaned

    def _field_of(self, problem: str) -> str | None:
        """The field a problem of :meth:`LabMapping.from_dict` is about (None: the form's)."""
        head = problem.split(":", 1)[0].strip()
        first, _, rest = head.partition(".")
        if first in ("name", "date_format", "timezone", "analytes"):
            return first
        if first == "qualifiers":
            return "more_qualifiers"
        if first == "columns" and rest and f"col_{rest}" in self.fields:
            return f"col_{rest}"
        if first == "constants" and rest and f"const_{rest}" in self.fields:
            return f"const_{rest}"
        if f"col_{first}" in self.fields:
            return f"col_{first}"
        return None
