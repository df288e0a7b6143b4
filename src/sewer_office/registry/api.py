"""Registry API: read access to persons, properties, establishments, service areas, and the
Town's act of public sewer availability (§ 196-17 E)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible

from . import filters, services
from .models import Building, Establishment, Person, Property, ServiceArea


class ServiceAreaSerializer(serializers.ModelSerializer[ServiceArea]):
    class Meta:
        model = ServiceArea
        fields = (
            "id",
            "code",
            "name",
            "kind",
            "parent",
            "public_sewer_available_from",
            "availability_act",
        )


class BuildingSerializer(serializers.ModelSerializer[Building]):
    class Meta:
        model = Building
        fields = ("id", "name", "use", "dwelling_units")


class PropertySerializer(serializers.ModelSerializer[Property]):
    owner_name = serializers.CharField(source="owner.name", read_only=True)
    buildings = BuildingSerializer(many=True, read_only=True)

    class Meta:
        model = Property
        fields = (
            "id",
            "parcel_id",
            "address",
            "city",
            "state",
            "zip",
            "owner",
            "owner_name",
            "service_area",
            "acreage",
            "wastewater_service",
            "service_since",
            "buildings",
        )


class PersonSerializer(serializers.ModelSerializer[Person]):
    class Meta:
        model = Person
        #: ``merged_into``: the person this duplicate entry was merged into (null: none);
        #: records keep naming the duplicate, new ones name the survivor
        #: ``mail_*``: where its mail goes when not to its premises (blank: to the premises)
        fields = (
            "id",
            "kind",
            "name",
            "merged_into",
            "mail_street",
            "mail_city",
            "mail_state",
            "mail_zip",
        )
        read_only_fields = ("merged_into",)


class EstablishmentSerializer(serializers.ModelSerializer[Establishment]):
    class Meta:
        model = Establishment
        fields = ("id", "name", "code", "kind", "operator", "building")


class PropertyViewSet(viewsets.ReadOnlyModelViewSet[Property]):
    serializer_class = PropertySerializer
    filterset_class = filters.PropertyFilter

    def get_queryset(self) -> QuerySet[Property]:
        return visible(
            Property.objects.select_related("owner")
            .prefetch_related("buildings")
            .order_by("parcel_id"),
            self.request.user,
        )


class PersonViewSet(viewsets.ReadOnlyModelViewSet[Person]):
    serializer_class = PersonSerializer
    filterset_class = filters.PersonFilter

    def get_queryset(self) -> QuerySet[Person]:
        return visible(Person.objects.order_by("name", "id"), self.request.user)


class EstablishmentViewSet(viewsets.ReadOnlyModelViewSet[Establishment]):
    serializer_class = EstablishmentSerializer
    filterset_class = filters.EstablishmentFilter

    def get_queryset(self) -> QuerySet[Establishment]:
        return visible(Establishment.objects.order_by("name", "id"), self.request.user)


class AvailabilitySerializer(serializers.Serializer[Any]):
    available_from = serializers.DateField()
    act = serializers.CharField(max_length=200)


class ServiceAreaViewSet(viewsets.ReadOnlyModelViewSet[ServiceArea]):
    serializer_class = ServiceAreaSerializer
    filterset_fields = ("kind",)

    def get_queryset(self) -> QuerySet[ServiceArea]:
        return visible(ServiceArea.objects.order_by("code"), self.request.user)

    @extend_schema(request=AvailabilitySerializer, responses=ServiceAreaSerializer)
    @action(detail=True, methods=["post"], url_path="declare-available")
    def declare_available(self, request: Request, pk: str | None = None) -> Response:
        """Record the Town's act making public sewer available (clerk or Superintendent)."""
        area = self.get_object()
        body = AvailabilitySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        area = services.declare_public_sewer_available(
            area, body.validated_data["available_from"], body.validated_data["act"], request.user
        )
        return Response(ServiceAreaSerializer(area).data)
