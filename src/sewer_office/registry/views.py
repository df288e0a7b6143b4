"""Registry pages: properties (with everything about each), persons, establishments, areas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.db import models
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.accounts.towns import several
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.forms import DateInput
from sewer_office.core.paging import page_of
from sewer_office.core.panels import (
    facility_context,
    facility_panels,
    property_context,
    property_panels,
)

from . import filters, merge, services
from . import forms as rforms
from .models import Establishment, Person, Property, ServiceArea

PAGE_SIZE = 25

PROPERTY_COLUMNS = (
    Column("Id", "pk"),
    Column("Parcel", "parcel_id"),
    Column("Address", "address"),
    Column("Owner", "owner.name"),
    Column("Service area", "service_area.name"),
    Column("Service", "get_wastewater_service_display"),
)
PERSON_COLUMNS = (
    Column("Id", "pk"),
    Column("Name", "name"),
    Column("Kind", "get_kind_display"),
    Column("Properties", "n_properties"),
)
ESTABLISHMENT_COLUMNS = (
    Column("Id", "pk"),
    Column("Code", "code"),
    Column("Name", "name"),
    Column("Kind", "get_kind_display"),
    Column("Operator", "operator.name"),
    Column("Address", "building.property.address"),
    Column("Parcel", "building.property.parcel_id"),
)
AREA_COLUMNS = (
    Column("Id", "pk"),
    Column("Code", "code"),
    Column("Name", "name"),
    Column("Kind", "get_kind_display"),
    Column("Part of", "parent.name"),
    Column("Public sewer available from", "public_sewer_available_from"),
    Column("Availability act", "availability_act"),
    Column("Properties", "n_properties"),
)


@office_view()
def property_list(request: HttpRequest) -> HttpResponse:
    base = visible(Property.objects.select_related("owner", "service_area"), request.user)
    fs = filters.PropertyFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, PROPERTY_COLUMNS, "properties")) is not None:
        return download
    page, query = page_of(request, qs)
    return render(
        request, "registry/property_list.html", {"filter": fs, "page": page, "query": query}
    )


@office_view()
def property_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything about a property: service, buildings, establishments, permits, history."""
    prop = get_object_or_404(
        visible(Property.objects.select_related("owner", "service_area"), request.user), pk=pk
    )
    buildings = prop.buildings.prefetch_related("establishments")
    context = {
        "prop": prop,
        "buildings": buildings,
        "timeline": audit.timeline(prop),
        "available": prop.service_area.public_sewer_available(timezone.localdate())
        if prop.service_area
        else False,
        # an office of several member towns shows whose law governs the parcel
        "several_towns": several(),
        "may_move_jurisdiction": has_role(request.user, *services.JURISDICTION_ROLES),
    }
    context.update(property_context(request, prop))
    context["panels"] = property_panels(request, prop)
    return render(request, "registry/property_detail.html", context)


@office_view()
def person_list(request: HttpRequest) -> HttpResponse:
    # A person merged into another is listed no more (its page stays, naming the survivor).
    base = visible(
        Person.objects.filter(merged_into__isnull=True)
        .annotate(n_properties=Count("properties"))
        .order_by("name", "id"),
        request.user,
    )
    fs = filters.PersonFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, PERSON_COLUMNS, "persons")) is not None:
        return download
    page, query = page_of(request, qs)
    return render(
        request,
        "registry/person_list.html",
        {
            "filter": fs,
            "page": page,
            "query": query,
            "may_merge": has_role(request.user, *merge.MERGE_ROLES),
        },
    )


@office_view()
def person_detail(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(
        visible(Person.objects.select_related("merged_into", "merged_by"), request.user), pk=pk
    )
    return render(
        request,
        "registry/person_detail.html",
        {
            "person": person,
            "contacts": person.contacts.all(),
            "properties": visible(person.properties.select_related("service_area"), request.user),
            "establishments": visible(
                person.establishments.select_related("building__property"), request.user
            ),
            "merged_persons": visible(person.merged_persons.order_by("name", "id"), request.user),
            "held": merge.records_of(person, request.user),
            "may_merge": has_role(request.user, *merge.MERGE_ROLES),
        },
    )


@office_view()
def establishment_list(request: HttpRequest) -> HttpResponse:
    base = visible(
        Establishment.objects.select_related("operator", "building__property"), request.user
    )
    fs = filters.EstablishmentFilter(request.GET or None, queryset=base)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    if (download := export(request, qs, ESTABLISHMENT_COLUMNS, "facilities")) is not None:
        return download
    page, query = page_of(request, qs)
    return render(
        request, "registry/establishment_list.html", {"filter": fs, "page": page, "query": query}
    )


@office_view()
def establishment_detail(request: HttpRequest, pk: int) -> HttpResponse:
    est = get_object_or_404(
        visible(
            Establishment.objects.select_related("operator", "building__property"), request.user
        ),
        pk=pk,
    )
    return render(
        request,
        "registry/establishment_detail.html",
        {
            "est": est,
            **facility_context(request, est),
            "panels": facility_panels(request, est),
        },
    )


class AvailabilityForm(forms.Form):
    available_from = forms.DateField(widget=DateInput, label="Public sewer available from")
    act = forms.CharField(max_length=200, label="Town act (resolution number and date)")


@office_view()
def area_list(request: HttpRequest) -> HttpResponse:
    areas = ServiceArea.objects.select_related("parent").annotate(n_properties=Count("properties"))
    if (
        download := export(request, areas.order_by("code", "id"), AREA_COLUMNS, "areas")
    ) is not None:
        return download
    return render(request, "registry/area_list.html", {"areas": areas, "query": ""})


@office_view()
def area_detail(
    request: HttpRequest, pk: int, form: AvailabilityForm | None = None, status: int = 200
) -> HttpResponse:
    area = get_object_or_404(ServiceArea.objects.select_related("parent"), pk=pk)
    counts = dict(
        area.properties.order_by()
        .values_list("wastewater_service")
        .annotate(n=Count("id"))
        .values_list("wastewater_service", "n")
    )
    may_declare = (
        has_role(request.user, *services.AVAILABILITY_ROLES)
        and area.public_sewer_available_from is None
    )
    return render(
        request,
        "registry/area_detail.html",
        {
            "area": area,
            "counts": counts,
            "timeline": audit.timeline(area),
            "form": form or (AvailabilityForm() if may_declare else None),
        },
        status=status,
    )


@require_POST
@office_view(*services.AVAILABILITY_ROLES)
def area_declare(request: HttpRequest, pk: int) -> HttpResponse:
    area = get_object_or_404(visible(ServiceArea.objects.all(), request.user), pk=pk)
    form = AvailabilityForm(request.POST)

    def declared(_: object) -> HttpResponse:
        messages.success(
            request,
            f"Public sewer recorded available to {area.name}; connection requirements opened.",
        )
        return redirect("registry:area", pk=pk)

    act = form_action(
        request,
        form,
        lambda d: services.declare_public_sewer_available(
            area, d["available_from"], d["act"], request.user
        ),
        error_status=True,
    )
    return act.respond(
        then=declared, show=lambda status: area_detail(request, pk, form=form, status=status)
    )


# --- intake (the clerk) ------------------------------------------------------------------------


def _intake(
    request: HttpRequest,
    form_class: type[forms.Form],
    title: str,
    save: Callable[[dict[str, Any]], models.Model],
) -> HttpResponse:
    form = form_class(request.POST or None)

    def registered(obj: models.Model) -> HttpResponse:
        messages.success(request, f"{obj} registered.")
        return redirect(obj_url(obj))

    return form_action(request, form, save).respond(
        then=registered,
        show=lambda status: render(
            request, "registry/form.html", {"form": form, "title": title}, status=status
        ),
    )


def obj_url(obj: models.Model) -> str:
    name = {
        "person": "registry:person",
        "property": "registry:property",
        "establishment": "registry:establishment",
    }
    return reverse(name[str(obj._meta.model_name)], args=[obj.pk])


@office_view(*services.INTAKE_ROLES)
def person_create(request: HttpRequest) -> HttpResponse:
    def save(d: dict[str, Any]) -> Person:
        contacts = {"email": d.get("email") or "", "phone": d.get("phone") or ""}
        mailing = {
            k: d.get(k) or "" for k in ("mail_street", "mail_city", "mail_state", "mail_zip")
        }
        return services.register_person(
            request.user, kind=d["kind"], name=d["name"], contacts=contacts, mailing=mailing
        )

    return _intake(request, rforms.PersonForm, "Register a person", save)


@office_view(*services.INTAKE_ROLES)
def property_create(request: HttpRequest) -> HttpResponse:
    def save(d: dict[str, Any]) -> Property:
        return services.register_property(
            request.user,
            parcel_id=d["parcel_id"],
            address=d["address"],
            postal={k: d.get(k) or "" for k in ("city", "state", "zip")},
            owner=d["owner"],
            service_area=d.get("service_area"),
            acreage=d.get("acreage"),
            building_use=d.get("building_use") or "",
            dwelling_units=d.get("dwelling_units") or 0,
            jurisdiction=d.get("jurisdiction") or "",
        )

    return _intake(request, rforms.PropertyForm, "Register a property", save)


@office_view(*services.INTAKE_ROLES)
def establishment_create(request: HttpRequest) -> HttpResponse:
    def save(d: dict[str, Any]) -> Establishment:
        return services.register_establishment(
            request.user,
            name=d["name"],
            kind=d["kind"],
            operator=d["operator"],
            building=d["building"],
            code=d.get("code", ""),
        )

    return _intake(request, rforms.EstablishmentForm, "Register an establishment", save)
