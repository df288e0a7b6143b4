"""Document Django forms as request bodies in the OpenAPI schema.

The API validates filings and transitions with the very forms the pages use (one validation
path); this module only describes those forms to drf-spectacular as serializers.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, cast

from django import forms
from rest_framework import serializers


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
