"""Registry models.

A :class:`Property` is a tax parcel with an owner (a :class:`Person`), in a
:class:`ServiceArea`, with its current wastewater service; its :class:`Building` s have uses;
an :class:`Establishment` is a business operating in a building (the restaurants of
§ 196-19 F(2), the industrial users of § 196-16 D–F). Public sewer availability is a dated act
of the Town recorded on the service area (§ 196-17 A, E).
"""

from __future__ import annotations

import builtins
from datetime import date

from django.conf import settings
from django.db import models

from sewer_office.core.models import TimeStamped

from .choices import (
    AreaKind,
    BuildingUse,
    ContactKind,
    EstablishmentKind,
    PersonKind,
    WastewaterService,
)


class Person(TimeStamped):
    """A person in the sense of § 196-15 PERSON; outside users act for it (representatives)."""

    kind = models.CharField(
        max_length=20, choices=PersonKind.choices, default=PersonKind.INDIVIDUAL
    )
    name = models.CharField(max_length=200, db_index=True)
    representatives = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="represented_persons"
    )
    notes = models.TextField(blank=True)

    ACCESS_PATHS = ("id",)

    class Meta:
        ordering = ("name", "id")

    def __str__(self) -> str:
        return self.name


class Contact(TimeStamped):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="contacts")
    kind = models.CharField(max_length=10, choices=ContactKind.choices)
    value = models.CharField(max_length=300)
    label = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ("person", "kind", "id")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.value}"


class ServiceArea(TimeStamped):
    """A sewer district, improvement area, or phase of the Improvement Area.

    ``public_sewer_available_from`` is the date of the Town's act making public sewer available
    (None: not available, as in Phase III, § 196-17 A).
    """

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=AreaKind.choices)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="parts"
    )
    public_sewer_available_from = models.DateField(null=True, blank=True)
    availability_act = models.CharField(max_length=200, blank=True)

    #: Service areas and their availability are public acts of the Town: every user sees them.
    PUBLIC_TO_OFFICE_USERS = True

    class Meta:
        ordering = ("code",)

    def __str__(self) -> str:
        return self.name

    def public_sewer_available(self, on: date) -> bool:
        return (
            self.public_sewer_available_from is not None and self.public_sewer_available_from <= on
        )


class Property(TimeStamped):
    parcel_id = models.CharField("tax parcel id", max_length=40, unique=True)
    address = models.CharField(max_length=200, db_index=True)
    owner = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="properties")
    service_area = models.ForeignKey(
        ServiceArea, null=True, blank=True, on_delete=models.PROTECT, related_name="properties"
    )
    acreage = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)
    wastewater_service = models.CharField(
        max_length=20, choices=WastewaterService.choices, default=WastewaterService.NONE
    )
    service_since = models.DateField(null=True, blank=True)

    ACCESS_PATHS = ("owner",)

    class Meta:
        ordering = ("parcel_id",)
        verbose_name_plural = "properties"
        indexes = (
            models.Index(
                fields=["service_area", "wastewater_service"], name="property_area_service"
            ),
        )

    def __str__(self) -> str:
        return f"{self.address} ({self.parcel_id})"


class Building(TimeStamped):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="buildings")
    name = models.CharField(max_length=120, default="Main building")
    use = models.CharField(max_length=20, choices=BuildingUse.choices)
    dwelling_units = models.PositiveIntegerField(default=0)

    ACCESS_PATHS = ("property__owner",)

    class Meta:
        ordering = ("property", "id")

    def __str__(self) -> str:
        return f"{self.name}, {self.property.address}"

    @builtins.property
    def nonresidential(self) -> bool:
        return self.use != BuildingUse.RESIDENTIAL


class Establishment(TimeStamped):
    """A business in a building: a restaurant, a food service, an industrial user."""

    name = models.CharField(max_length=200, db_index=True)
    #: The facility code laboratories and meters write (``ACME-PLATING``): the ``facility``
    #: column of a results file. Blank for establishments that are not sampled.
    code = models.CharField(max_length=40, blank=True, default="")
    operator = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="establishments")
    building = models.ForeignKey(Building, on_delete=models.PROTECT, related_name="establishments")
    kind = models.CharField(max_length=20, choices=EstablishmentKind.choices)

    ACCESS_PATHS = ("operator", "building__property__owner")

    class Meta:
        ordering = ("name", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["code"], condition=~models.Q(code=""), name="establishment_code_unique"
            ),
        )

    def __str__(self) -> str:
        return self.name

    @builtins.property
    def is_food(self) -> bool:
        return self.kind in EstablishmentKind.food()


__all__ = [
    "Building",
    "Contact",
    "Establishment",
    "Person",
    "Property",
    "ServiceArea",
]
