"""Document Django forms as request bodies in the OpenAPI schema.

The API validates filings and transitions with the very forms the pages use (one validation
path); this module only describes those forms to drf-spectacular as serializers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any, cast

from django import forms
from django.http import QueryDict
from rest_framework import serializers
from rest_framework.exceptions import ParseError


def _field(f: forms.Field) -> serializers.Field[Any, Any, Any, Any]:
    common: dict[str, Any] = {
        "required": f.required,
        "help_text": str(f.help_text or f.label or ""),
    }
    if isinstance(f, forms.ModelChoiceField):
        return serializers.IntegerField(**common)
    if isinstance(f, forms.MultipleChoiceField):
        return serializers.MultipleChoiceField(choices=_choices(f), **common)
    if isinstance(f, forms.TypedChoiceField | forms.ChoiceField):
        return serializers.ChoiceField(choices=_choices(f), **common)
    if isinstance(f, forms.BooleanField):
        return serializers.BooleanField(**common)
    if isinstance(f, forms.DecimalField):
        return serializers.DecimalField(
            max_digits=20, decimal_places=6, coerce_to_string=True, **common
        )
    if isinstance(f, forms.IntegerField):
        return serializers.IntegerField(**common)
    if isinstance(f, forms.DateField):
        return serializers.DateField(**common)
    if isinstance(f, forms.FileField):
        # an empty file is let through: the service refuses it with a message naming it
        return serializers.ListField(child=serializers.FileField(allow_empty_file=True), **common)
    return serializers.CharField(**common)


def _choices(f: forms.ChoiceField) -> list[Any]:
    # The stubs type ``choices`` as everything the setter accepts; what it holds once set is
    # normalised by Django (``normalize_choices``): a list, or a lazy iterator of pairs.
    return list(cast("Iterable[Any]", f.choices))


@cache
def form_serializer(
    form_class: type[forms.Form], name: str, with_reason: bool = False
) -> type[serializers.Serializer[Any]]:
    form = form_class()
    attrs: dict[str, Any] = {k: _field(f) for k, f in form.fields.items()}
    if with_reason:
        attrs["reason"] = serializers.CharField(
            required=False, help_text="Why (required for some actions)."
        )
    return type(name, (serializers.Serializer,), attrs)


@cache
def reason_serializer() -> type[serializers.Serializer[Any]]:
    return type(
        "ReasonRequest",
        (serializers.Serializer,),
        {
            "reason": serializers.CharField(
                required=False, help_text="Why (required for some actions)."
            )
        },
    )


#: What a field of a form-backed body may hold: one scalar, or a list of scalars (a field of
#: several choices). A JSON object in a field, or a list in a list, is no form field's value.
_SCALARS = (str, int, float, bool)


def form_data(data: Any) -> QueryDict:
    """An API request's body as the pages' forms read it: a :class:`QueryDict` of text.

    The API validates filings and transitions with the pages' own forms, which read text
    (``"2026-03-02"``, ``"true"``, an id); a JSON body brings numbers, booleans, ``null``,
    lists — or no object at all (``[1]``, ``"x"``, ``7``), which made the forms fail with a
    server error. Here a form or multipart body passes as it is; a JSON object has each
    scalar turned into the text a browser would send (``null`` into an empty field) and each
    list of scalars into a field of several values; anything else is a 400 naming the field.
    """
    if isinstance(data, QueryDict):
        return data
    if not isinstance(data, dict):
        raise ParseError(
            f"The request body must be a JSON object of fields, not {_json_kind(data)}."
        )
    out = QueryDict(mutable=True)
    for key, value in data.items():
        name = str(key)
        if isinstance(value, list):
            if not all(item is None or isinstance(item, _SCALARS) for item in value):
                raise ParseError(f"Field {name[:60]!r}: a list of single values is expected.")
            out.setlist(name, [_text(item) for item in value])
        elif value is None or isinstance(value, _SCALARS):
            out[name] = _text(value)
        elif name == "geojson" or name.endswith("_json"):
            out[name] = json.dumps(value)  # a design or geometry sent as JSON, read as its text
        else:
            raise ParseError(f"Field {name[:60]!r}: a single value is expected, not an object.")
    out._mutable = False
    return out


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _json_kind(data: Any) -> str:
    if isinstance(data, list):
        return "a list"
    if isinstance(data, str):
        return "a string"
    if isinstance(data, bool):
        return "a boolean"
    if data is None:
        return "null"
    return "a number"
