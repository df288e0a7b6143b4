"""A record chosen from a list by what it is called, never typed as its number: for the few
forms whose services take the record's id (a superseded decision, an approval, a notice). The
list holds only the records the form may name; the field gives the service the id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms


class RecordChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]  # of any model
    """A select of ``queryset``'s records by ``describe`` (their text by default), cleaned to
    the chosen record's id (None when none is chosen)."""

    def __init__(
        self, queryset: Any, *, describe: Callable[[Any], str] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(queryset, **kwargs)
        self._describe = describe

    def label_from_instance(self, obj: Any) -> str:
        return self._describe(obj) if self._describe is not None else str(obj)

    def clean(self, value: Any) -> Any:
        found = super().clean(value)
        return found.pk if found is not None else None
