"""The one filter of violations, shared by the web list and the API (choices, not ids)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from html import escape
from typing import Any, cast

import django_filters
from django import forms
from django.db import models
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from sewer_office.accounts.access import sees_every_record, visible
from sewer_office.registry.models import Establishment, Person

from . import grounds
from .models import ComplianceSchedule, Violation
from .states import OPEN_STATES, VIOLATION_STATE_CHOICES


class NamesSelect(forms.Select):
    """A select of names rendered in Python, escaped with the standard library, instead of a
    template per option: the facilities and persons with violations are hundreds of options,
    which the template-rendered select would take most of the page's time to draw."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        chosen = "" if value is None else str(value)
        final = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        options = "".join(
            f'<option value="{escape(str(key))}"{" selected" if str(key) == chosen else ""}>'
            f"{escape(str(label))}</option>"
            for key, label in self.choices
        )
        return format_html("<select{}>{}</select>", flatatt(final), mark_safe(options))


def _names(qs: models.QuerySet[Any]) -> list[tuple[str, str]]:
    """(id, name) of ``qs`` without building its model instances: the filter's choices."""
    return [(str(pk), name) for pk, name in qs.values_list("pk", "name")]


def _lazy_names(qs: models.QuerySet[Any]) -> Callable[[], list[tuple[str, str]]]:
    """:func:`_names` as a callable, read once when the select is drawn or a value checked.

    A form copies its fields' choices deeply each time it is built; a list of a town's
    1,600 persons copied (and normalised) that way cost more than the rest of the page's
    filter, where a cached callable is copied as a reference."""
    return cache(partial(_names, qs))


def _with_violations(
    model: type[models.Model], column: str, among: Any = None
) -> models.QuerySet[Any]:
    """The facilities (or persons) that ``among`` (default: every violation) concerns."""
    violations = among if among is not None else Violation.objects.all()
    ids = violations.order_by().values(column)
    return model._default_manager.filter(pk__in=ids).order_by("name", "id")


class ViolationFilter(django_filters.FilterSet):
    state = django_filters.ChoiceFilter(choices=VIOLATION_STATE_CHOICES)
    # Choices of ids with names (an id outside them is refused, as a model choice would be).
    establishment = django_filters.ChoiceFilter(
        field_name="establishment", label="Facility", widget=NamesSelect, choices=list
    )
    person = django_filters.ChoiceFilter(
        field_name="person", label="Person responsible", widget=NamesSelect, choices=list
    )
    open = django_filters.BooleanFilter(method="filter_open", label="Open only")
    refused = django_filters.BooleanFilter(
        method="filter_refused", label="Would now be refused (no duty, or not a violation)"
    )

    class Meta:
        model = Violation
        fields = ("state", "establishment", "person")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = getattr(self.request, "user", None)
        # an outside user's choices name only its own facilities and persons
        mine = None if sees_every_record(user) else visible(Violation.objects.all(), user)
        self.filters["establishment"].extra["choices"] = _lazy_names(
            _with_violations(Establishment, "establishment_id", mine)
        )
        self.filters["person"].extra["choices"] = _lazy_names(
            _with_violations(Person, "person_id", mine)
        )

    def filter_open(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        return qs.filter(state__in=OPEN_STATES) if value else qs

    def filter_refused(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        """Recorded before the rule of grounds, and refused by it now (records unchanged)."""
        if value is None:
            return qs
        refused = grounds.refused_violations(qs)
        return refused if value else qs.exclude(pk__in=refused.values("pk"))


class ScheduleFilter(django_filters.FilterSet):
    """Compliance schedules, per facility (the web list and the API)."""

    establishment = django_filters.ModelChoiceFilter(
        queryset=Establishment.objects.filter(compliance_schedules__isnull=False)
        .distinct()
        .order_by("name"),
        label="Facility",
    )

    class Meta:
        model = ComplianceSchedule
        fields = ("establishment",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = getattr(self.request, "user", None)
        if not sees_every_record(user):
            mine = visible(ComplianceSchedule.objects.all(), user)
            establishment = cast(django_filters.ModelChoiceFilter, self.filters["establishment"])
            establishment.queryset = Establishment.objects.filter(
                compliance_schedules__in=mine
            ).distinct()
