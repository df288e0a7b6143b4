"""One filterset per kind of application, used by the web lists and the API alike."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models
from django.db.models import Q

from sewer_office.core.filters import IdFilter
from sewer_office.core.workflow import Workflow
from sewer_office.registry.models import Person, Property, ServiceArea

from .choices import PermitClass
from .models import (
    BuildingSewerPermit,
    FlushingNotice,
    GrinderApproval,
    IndustrialDischargeApproval,
    InterceptorRequirement,
    PrivateDisposalSystem,
    SubdivisionSewer,
)
from .workflows import (
    building_sewer,
    flushing,
    grinder,
    industrial,
    interceptor,
    private_system,
    subdivision,
)


class ApplicationFilter(django_filters.FilterSet):
    """Search, state, area and filing-date filters common to every kind."""

    q = django_filters.CharFilter(method="search", label="Search")
    state = django_filters.MultipleChoiceFilter(choices=(), distinct=False)
    open = django_filters.BooleanFilter(method="only_open", label="Open only")
    service_area = django_filters.ModelChoiceFilter(
        field_name="property__service_area",
        queryset=ServiceArea.objects.all(),
        label="Service area",
    )
    property = IdFilter(field_name="property_id", label="Property id")
    filed_after = django_filters.DateFilter(
        field_name="filed_on", lookup_expr="gte", label="Filed on or after"
    )
    filed_before = django_filters.DateFilter(
        field_name="filed_on", lookup_expr="lte", label="Filed on or before"
    )
    ordering = django_filters.OrderingFilter(
        fields=(("filed_on", "filed_on"), ("number", "number"), ("state", "state"))
    )

    def search(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        """Number, applicant's name, property address or parcel id contains the text.

        Persons and properties are searched first (small tables) and the records matched by
        id, which lets the database avoid joining every record to test the text.
        """
        value = value.strip()
        if not value:
            return qs
        places = Property.objects.filter(
            Q(address__icontains=value) | Q(parcel_id__icontains=value)
        )
        people = Person.objects.filter(name__icontains=value)
        return qs.filter(
            Q(number__icontains=value)
            | Q(applicant_id__in=people.values("id"))
            | Q(property_id__in=places.values("id"))
        )

    def only_open(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        if value is None:
            return qs
        # FilterSet._meta is not in types-django-filter; WORKFLOW is the model's class attribute
        states = self._meta.model.WORKFLOW.open_states  # type: ignore[attr-defined]
        return qs.filter(state__in=states) if value else qs.exclude(state__in=states)


def _filterset(
    model: type[models.Model], workflow: Workflow, extra: dict[str, Any] | None = None
) -> type[ApplicationFilter]:
    meta = type("Meta", (), {"model": model, "fields": ["state"]})
    attrs: dict[str, Any] = {
        "Meta": meta,
        # distinct=False: a state is a column of the record itself, no join can repeat rows
        # (DISTINCT over every column would cost more than the query).
        "state": django_filters.MultipleChoiceFilter(
            choices=workflow.choices,
            distinct=False,
        ),
        **(extra or {}),
    }
    return type(f"{model.__name__}Filter", (ApplicationFilter,), attrs)


BuildingSewerPermitFilter = _filterset(
    BuildingSewerPermit,
    building_sewer.WORKFLOW,
    {"permit_class": django_filters.ChoiceFilter(choices=PermitClass.choices, label="Class")},
)
IndustrialDischargeApprovalFilter = _filterset(IndustrialDischargeApproval, industrial.WORKFLOW)
PrivateDisposalSystemFilter = _filterset(PrivateDisposalSystem, private_system.WORKFLOW)
SubdivisionSewerFilter = _filterset(SubdivisionSewer, subdivision.WORKFLOW)
GrinderApprovalFilter = _filterset(GrinderApproval, grinder.WORKFLOW)
InterceptorRequirementFilter = _filterset(InterceptorRequirement, interceptor.WORKFLOW)
FlushingNoticeFilter = _filterset(FlushingNotice, flushing.WORKFLOW)
