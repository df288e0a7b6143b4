"""Back office for the registry: persons, properties, buildings, establishments, areas.

Changes made here are written to the audit trail like any other change. Public sewer
availability is not edited here: it is recorded through the area page (a Town act with its
consequences, § 196-17 E).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction

from sewer_office.core import audit

from .models import Building, Contact, Establishment, Person, Property, ServiceArea


class AuditedAdmin(admin.ModelAdmin[Any]):
    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        with transaction.atomic():
            before = audit.snapshot(type(obj).objects.get(pk=obj.pk)) if change else None
            super().save_model(request, obj, form, change)
            audit.record(
                actor=request.user,
                action="back_office_change" if change else "back_office_create",
                obj=obj,
                before=before,
                after=audit.snapshot(obj),
            )


class ContactInline(admin.TabularInline[Contact, Person]):
    model = Contact
    extra = 1


class BuildingInline(admin.TabularInline[Building, Property]):
    model = Building
    extra = 0


@admin.register(Person)
class PersonAdmin(AuditedAdmin):
    list_display = ("name", "kind")
    list_filter = ("kind",)
    search_fields = ("name",)
    filter_horizontal = ("representatives",)
    inlines = (ContactInline,)
    #: merged through the office's merge page only (registry.merge: checked and audited)
    readonly_fields = ("merged_into", "merged_at", "merged_by")


@admin.register(Property)
class PropertyAdmin(AuditedAdmin):
    list_display = ("parcel_id", "address", "owner", "service_area", "wastewater_service")
    list_filter = ("service_area", "wastewater_service")
    search_fields = ("parcel_id", "address", "owner__name")
    raw_id_fields = ("owner",)
    readonly_fields = ("wastewater_service", "service_since")
    inlines = (BuildingInline,)


@admin.register(Establishment)
class EstablishmentAdmin(AuditedAdmin):
    list_display = ("name", "kind", "operator", "building")
    list_filter = ("kind",)
    search_fields = ("name",)
    raw_id_fields = ("operator", "building")


@admin.register(ServiceArea)
class ServiceAreaAdmin(AuditedAdmin):
    list_display = ("code", "name", "kind", "public_sewer_available_from")
    readonly_fields = ("public_sewer_available_from", "availability_act")
