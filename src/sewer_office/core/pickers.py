"""Choosing a record by searching for it: a form field and its widget.

A select of three hundred names, some of them entered twice, sends the notice, the money or an
outside account's records to the wrong person. A picker is a search box instead: type a name,
an address, a parcel or a number; a short list of matches shows enough to tell them apart
(the registry's kinds say what: address, parcel, what a person owns or operates); choosing one
fills the hidden value the form submits.

Without JavaScript the same box works: the number typed is the record's id, a text typed is
searched when the form is sent (one match: chosen; several: listed under the box to choose
from, the form shown again with a message naming the field).

The kinds (what is searched and how a match is described) are declared by the app that owns
the records (:mod:`sewer_office.registry.pickers`), which also serves the search endpoint the
widget asks as one types; this module names no model.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.db import models
from django.forms.utils import pretty_name
from django.urls import reverse

#: How many matches a search lists (more: type more of the name or address).
MATCHES = 10

_ID = re.compile(r"#?(\d{1,12})")


@dataclass(frozen=True)
class Match:
    """One record found: its id, the words that name it, the words that tell it apart."""

    pk: int
    label: str
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {"id": self.pk, "label": self.label, "detail": self.detail}


@dataclass(frozen=True)
class PickKind:
    """A kind of record one may pick: ``search`` narrows a queryset to the records a text
    names; ``describe`` says who or what a record is (label, details) — a queryset passed
    through ``prepare`` first, so that describing ten matches reads a few rows, not ten
    times as many."""

    name: str
    noun: str
    search: Callable[[models.QuerySet[Any], str], models.QuerySet[Any]]
    describe: Callable[[Any], tuple[str, str]]
    prepare: Callable[[models.QuerySet[Any]], models.QuerySet[Any]]
    #: the URL name of the search endpoint, reversed with ``name`` as its one argument
    url_name: str

    def url(self) -> str:
        return reverse(self.url_name, args=[self.name])

    def matches(self, qs: models.QuerySet[Any], text: str, limit: int = MATCHES) -> list[Match]:
        """The records of ``qs`` that ``text`` names (an id first), described."""
        found = self.prepare(self.search(qs, text))[:limit]
        return [self.match(obj) for obj in found]

    def match(self, obj: Any) -> Match:
        label, detail = self.describe(obj)
        return Match(obj.pk, label, detail)


class PickWidget(forms.Widget):
    """The search box (a text input), the chosen record's words, and — after a search that
    named several — the matches to choose from as radio buttons (``<name>__pick``)."""

    template_name = "core/widgets/picker.html"

    def __init__(self, kind: PickKind, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs)
        self.kind = kind
        #: set by the field when a search named several records
        self.found: list[Match] = []
        #: the choices of the field's queryset (ModelChoiceField sets it); only ever asked
        #: for one record, never listed
        self.choices: Any = ()

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        picked = data.get(f"{name}__pick")
        return picked if picked else data.get(name)

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data and f"{name}__pick" not in data

    def format_value(self, value: Any) -> str:
        return "" if value is None else str(value)

    def _chosen(self, value: Any) -> Match | None:
        text = self.format_value(value).strip()
        m = _ID.fullmatch(text)
        queryset = getattr(self.choices, "queryset", None)
        if not m or queryset is None:
            return None
        obj = self.kind.prepare(queryset).filter(pk=int(m.group(1))).first()
        return self.kind.match(obj) if obj is not None else None

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        chosen = self._chosen(value)
        context["widget"].update(
            {
                "chosen": chosen,
                "found": self.found,
                "url": self.kind.url(),
                "noun": self.kind.noun,
            }
        )
        return context


class PickField(forms.ModelChoiceField):  # type: ignore[type-arg]  # of any model
    """A record of ``queryset`` chosen by search (see the module's docstring).

    An id outside ``queryset`` (unknown, merged away, or not the user's) and a text that names
    no record or several are refused with a message naming the field.
    """

    widget = PickWidget

    def __init__(self, kind: PickKind, queryset: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", PickWidget(kind))
        kwargs.setdefault("empty_label", None)
        super().__init__(queryset, **kwargs)
        self.kind = kind
        self._field_name = ""

    def get_bound_field(self, form: Any, field_name: str) -> Any:
        self._field_name = field_name
        return super().get_bound_field(form, field_name)

    def _named(self) -> str:
        return str(self.label or pretty_name(self._field_name) or self.kind.noun.capitalize())

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        if isinstance(value, models.Model):
            value = value.pk
        text = str(value).strip()
        qs = self.queryset
        assert qs is not None
        m = _ID.fullmatch(text)
        if m:
            # A number is an id, never a piece of an address: a merged or foreign id must not
            # quietly pick whoever lives at that house number.
            obj = qs.filter(pk=int(m.group(1))).first()
            if obj is not None:
                return obj
            raise forms.ValidationError(
                f"{self._named()}: no {self.kind.noun} #{m.group(1)} among those you may choose.",
                code="invalid_choice",
            )
        found = self.kind.matches(qs, text, limit=MATCHES + 1)
        if len(found) == 1:
            return qs.get(pk=found[0].pk)
        if not found:
            raise forms.ValidationError(
                f"{self._named()}: no {self.kind.noun} matching “{text[:80]}” among those you "
                f"may choose.",
                code="invalid_choice",
            )
        widget = self.widget
        if isinstance(widget, PickWidget):
            widget.found = found[:MATCHES]
        more = "more than " if len(found) > MATCHES else ""
        raise forms.ValidationError(
            f"{self._named()}: {more}{min(len(found), MATCHES)} {self.kind.noun}s match "
            f"“{text[:80]}”; choose one.",
            code="ambiguous",
        )

    def validate(self, value: Any) -> None:
        forms.Field.validate(self, value)


def picked(request: Any, field: forms.Field, raw: str) -> Any:
    """The record ``raw`` (an id or a text, as a picker submits it) names through ``field``, for
    a page that takes a choice outside its bound form (a GET that shows a person's open
    invoices); None when nothing is chosen. On a GET, a refusal is told as a message: with
    the matches and their numbers when the text named several (to type the right number)."""
    if not raw.strip():
        return None
    probe = copy.deepcopy(field)
    try:
        return probe.clean(raw)
    except forms.ValidationError as e:
        if getattr(request, "method", "") == "GET":
            said = " ".join(e.messages)
            widget = probe.widget
            if isinstance(widget, PickWidget) and widget.found:
                said += " " + "; ".join(f"#{m.pk} {m.label} ({m.detail})" for m in widget.found)
            messages.error(request, said)
        return None


__all__ = ["MATCHES", "Match", "PickField", "PickKind", "PickWidget", "picked"]
