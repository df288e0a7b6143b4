"""The one filter of violations, shared by the web list and the API (choices, not ids)."""

from __future__ import annotations

from typing import Any, cast

import django_filters
from django.db import models

from sewer_office.accounts.access import sees_every_record, visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.registry.models import Establishment, Person
from sewer_office.registry.pickers import use_pickers

from . import grounds
from .models import ComplianceSchedule, Violation
from .states import OPEN_STATES, VIOLATION_STATE_CHOICES


def _with_violations(
    model: type[models.Model], column: str, among: Any = None
) -> models.QuerySet[Any]:
    """The facilities (or persons) that ``among`` (default: every violation) concerns."""
    violations = among if among is not None else Violation.objects.all()
    ids = violations.order_by().values(column)
    return model._default_manager.filter(pk__in=ids).order_by("name", "id")


class ViolationFilter(django_filters.FilterSet):
    state = django_filters.ChoiceFilter(choices=VIOLATION_STATE_CHOICES)
    # The facilities and persons the violations concern: picked by search by the office (a
    # county's thousands of names are not drawn into the page), from their own few by an
    # outside user; an id outside them is refused with a message naming the field.
    establishment = django_filters.ModelChoiceFilter(
        queryset=Establishment.objects.none(), label="Facility"
    )
    person = django_filters.ModelChoiceFilter(
        queryset=Person.objects.none(), label="Person responsible"
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
        for name, model, column in (
            ("establishment", Establishment, "establishment_id"),
            ("person", Person, "person_id"),
        ):
            chosen = cast(django_filters.ModelChoiceFilter, self.filters[name])
            chosen.queryset = _with_violations(model, column, mine)
        use_pickers(self.form, ("establishment", "person"), select=not is_staff_member(user))

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
