"""The filter of the reports list (page and ``/api/reports/``): the facility and the due date
are chosen among the user's own (by search for the office, from a list for a facility), never
typed as a number."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.pretreatment.models import ReportDue
from sewer_office.registry.models import Establishment
from sewer_office.registry.pickers import use_pickers

from .models import Report

STATES = (
    ("unsigned", "Not signed"),
    ("signed", "Signed, in review"),
    ("accepted", "Accepted"),
    ("rejected", "Rejected"),
)


def _user(request: Any) -> Any:
    return getattr(request, "user", None)


def facilities(request: Any) -> QuerySet[Establishment]:
    """The facilities the user may see (none without a request)."""
    return visible(Establishment.objects.order_by("name", "id"), _user(request))


def dues(request: Any) -> QuerySet[ReportDue]:
    return visible(
        ReportDue.objects.select_related("establishment").order_by("-due_on", "id"),
        _user(request),
    )


class DueChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A due date by its facility, report and day (its own name omits the facility)."""

    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.establishment.name}: {obj.get_kind_display()} due {obj.due_on:%Y-%m-%d}"


class DueFilter(django_filters.ModelChoiceFilter):
    field_class = DueChoice  # type: ignore[assignment]  # a ModelChoiceField, of dues


class ReportFilter(django_filters.FilterSet):
    # django-filter calls a queryset with the request (its stubs know only a queryset)
    establishment = django_filters.ModelChoiceFilter(queryset=facilities, label="Facility")  # type: ignore[arg-type]
    due = DueFilter(queryset=dues, label="Due date")  # type: ignore[arg-type]
    state = django_filters.ChoiceFilter(choices=STATES, method="by_state", label="State")

    class Meta:
        model = Report
        fields = ("establishment", "due", "state")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the office searches every facility; a facility's account picks among its own
        use_pickers(self.form, ("establishment",), select=not is_staff_member(_user(self.request)))

    def by_state(self, qs: QuerySet[Report], name: str, value: Any) -> QuerySet[Report]:
        if value == "unsigned":
            return qs.filter(signature__isnull=True)
        if value == "signed":
            return qs.filter(signature__isnull=False, review__isnull=True)
        return qs.filter(review__decision=value)
