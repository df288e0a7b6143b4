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
from typing import Any

from django.conf import settings
from django.db import models

from sewer_office.accounts.towns import primary
from sewer_office.core.models import TimeStamped

from .choices import (
    AreaKind,
    BuildingUse,
    ContactKind,
    EstablishmentKind,
    PersonKind,
    WastewaterService,
)
from .postal import validate_state, validate_zip


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
    #: Where the person's mail goes when not to its premises (an absentee owner, a corporate
    #: office): street lines (a care-of line may come first), town, state and ZIP code. Blank:
    #: letters go to the premises concerned (see :mod:`.addresses`).
    mail_street = models.TextField("mailing street", blank=True)
    mail_city = models.CharField("mailing town", max_length=80, blank=True)
    mail_state = models.CharField(
        "mailing state", max_length=2, blank=True, validators=[validate_state]
    )
    mail_zip = models.CharField(
        "mailing ZIP code", max_length=10, blank=True, validators=[validate_zip]
    )
    #: A person entered twice is merged into the survivor: the duplicate stays (records of
    #: legal weight point at it and keep doing so) but is chosen no more; its page names the
    #: survivor, whose page lists the duplicate's records too.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_persons"
    )
    merged_at = models.DateTimeField(null=True, blank=True)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    ACCESS_PATHS = ("id",)
    #: One register of persons serves the plant's member towns: an owner or a company may
    #: hold parcels in two towns, and each town's staff must find them to name them.
    JURISDICTION_SHARED = "a person may hold parcels in several member towns"

    class Meta:
        ordering = ("name", "id")

    def __str__(self) -> str:
        return self.name

    def current(self) -> Person:
        """The person to name in a new record: this one, or the one it was merged into (at the
        end of the chain)."""
        person, seen = self, {self.pk}
        while person.merged_into_id is not None and person.merged_into_id not in seen:
            seen.add(person.merged_into_id)
            person = Person.objects.get(pk=person.merged_into_id)
        return person

    def same_person_ids(self) -> list[int]:
        """This person's id and those of every duplicate merged into it (at any depth): the
        records of all of them are this person's."""
        ids = [self.pk]
        frontier = [self.pk]
        while frontier:
            frontier = list(
                Person.objects.filter(merged_into__in=frontier)
                .exclude(pk__in=ids)
                .values_list("pk", flat=True)
            )
            ids += frontier
        return ids


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
    #: The member town whose law governs the area (a law package's name): a property in the
    #: area belongs to it (:attr:`Property.jurisdiction`).
    jurisdiction = models.CharField(max_length=40, default=primary, db_index=True)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="parts"
    )
    public_sewer_available_from = models.DateField(null=True, blank=True)
    availability_act = models.CharField(max_length=200, blank=True)
    #: The district's boundary as drawn in the county's GIS (a GeoJSON geometry in WGS 84
    #: longitude and latitude), from an import of the districts' polygons; blank when none was
    #: imported. A parcel's area is the one whose boundary holds the parcel.
    boundary = models.TextField(blank=True)

    #: Service areas and their availability are public acts of the Town: every user sees them.
    PUBLIC_TO_OFFICE_USERS = True
    JURISDICTION_PATHS = ("jurisdiction",)

    class Meta:
        ordering = ("code",)

    def __str__(self) -> str:
        return self.name

    def public_sewer_available(self, on: date) -> bool:
        return (
            self.public_sewer_available_from is not None and self.public_sewer_available_from <= on
        )


class Property(TimeStamped):
    #: The tax map number as the Town writes it (the roll's print key, ``6157-02-123456``).
    parcel_id = models.CharField("tax parcel id", max_length=40, unique=True)
    #: The roll's keys (New York's Real Property System): the SWIS code of the municipality
    #: and the SBL (section, block and lot, unformatted). Blank for a parcel entered by hand.
    swis = models.CharField("SWIS code", max_length=6, blank=True)
    sbl = models.CharField("SBL", max_length=40, blank=True, db_index=True)
    #: The ORPTS property class code on the roll (``210`` one-family residence, ``710``
    #: manufacturing…); blank for a parcel entered by hand.
    property_class = models.CharField(max_length=3, blank=True)
    #: The parcel's outline (a GeoJSON geometry in WGS 84 longitude and latitude) and a point
    #: inside it, from the roll; blank and null for a parcel entered by hand.
    geometry = models.TextField(blank=True)
    lon = models.FloatField("longitude", null=True, blank=True)
    lat = models.FloatField("latitude", null=True, blank=True)
    address = models.CharField(max_length=200, db_index=True)
    #: The postal locality of ``address`` (the post office's town name, which need not be the
    #: Town's: Wappingers Falls, Hopewell Junction…), state and ZIP code. Blank on rows
    #: registered before they were kept: the office is told before it mails.
    city = models.CharField("town (postal)", max_length=80, blank=True)
    state = models.CharField(max_length=2, blank=True, validators=[validate_state])
    zip = models.CharField("ZIP code", max_length=10, blank=True, validators=[validate_zip])
    owner = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="properties")
    service_area = models.ForeignKey(
        ServiceArea, null=True, blank=True, on_delete=models.PROTECT, related_name="properties"
    )
    acreage = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)
    wastewater_service = models.CharField(
        max_length=20, choices=WastewaterService.choices, default=WastewaterService.NONE
    )
    service_since = models.DateField(null=True, blank=True)
    #: The member town whose law governs the parcel (a law package's name, one of
    #: ``SEWER_USE_JURISDICTIONS``), and since when: every record of the parcel, its buildings
    #: and establishments belongs to it. Changed only through
    #: :func:`~sewer_office.registry.services.move_to_jurisdiction`, with an audit event.
    jurisdiction = models.CharField(max_length=40, default=primary, db_index=True)
    jurisdiction_since = models.DateField(
        null=True, blank=True, help_text="since when the parcel is governed by that town's law"
    )

    ACCESS_PATHS = ("owner",)
    JURISDICTION_PATHS = ("jurisdiction",)

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
    #: The member town of the facility's parcel, kept with the facility (set from the parcel
    #: whenever the facility is saved with its building, and by
    #: :func:`~sewer_office.registry.services.move_to_jurisdiction`): a town's results,
    #: findings, limits and reports are found by their facility's town, an index lookup among
    #: a few thousand facilities, not a join of every record through buildings to parcels.
    jurisdiction = models.CharField(max_length=40, default=primary, db_index=True, editable=False)

    ACCESS_PATHS = ("operator", "building__property__owner")
    JURISDICTION_PATHS = ("jurisdiction",)

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

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saved with its building, the facility takes its parcel's town."""
        fields = kwargs.get("update_fields")
        if self.building_id is not None and (fields is None or "building" in fields):
            town = (
                Property.objects.filter(buildings=self.building_id)
                .values_list("jurisdiction", flat=True)
                .first()
            )
            if town:
                self.jurisdiction = town
                if fields is not None:
                    kwargs["update_fields"] = {*fields, "jurisdiction"}
        super().save(*args, **kwargs)


__all__ = [
    "Building",
    "Contact",
    "Establishment",
    "Person",
    "Property",
    "ServiceArea",
]
