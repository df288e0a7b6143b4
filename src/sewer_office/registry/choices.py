"""Choices of the registry, each tied to the words of the article."""

from __future__ import annotations

from django.db import models


class PersonKind(models.TextChoices):
    """§ 196-15 PERSON: "any individual, firm, company, association, society, corporation or group"."""

    INDIVIDUAL = "individual", "Individual"
    FIRM = "firm", "Firm"
    COMPANY = "company", "Company"
    ASSOCIATION = "association", "Association"
    SOCIETY = "society", "Society"
    CORPORATION = "corporation", "Corporation"
    GROUP = "group", "Group"


class ContactKind(models.TextChoices):
    EMAIL = "email", "Email"
    PHONE = "phone", "Phone"
    MAIL = "mail", "Mailing address"


class AreaKind(models.TextChoices):
    SEWER_DISTRICT = "sewer_district", "Sewer district"
    IMPROVEMENT_AREA = "improvement_area", "Sewer improvement area"
    PHASE = "phase", "Phase of the Wappinger Sewer Transmission/Treatment Improvement Area"


class BuildingUse(models.TextChoices):
    RESIDENTIAL = "residential", "Residential"
    COMMERCIAL = "commercial", "Commercial"
    INDUSTRIAL = "industrial", "Industrial"
    FOOD_SERVICE = "food_service", "Food service"
    INSTITUTIONAL = "institutional", "Institutional"


class WastewaterService(models.TextChoices):
    PUBLIC_SEWER = "public_sewer", "Public sewer connection"
    PRIVATE_SYSTEM = "private_system", "Private wastewater disposal system"
    NONE = "none", "None"


class EstablishmentKind(models.TextChoices):
    """What an establishment does, as far as the article cares (§ 196-19 F, § 196-16 D–F)."""

    RESTAURANT = "restaurant", "Restaurant"
    FOOD_PREPARATION = "food_preparation", "Food preparation service"
    FOOD_PROCESSING = "food_processing", "Food processing operation"
    INDUSTRIAL = "industrial", "Industrial user"
    COMMERCIAL = "commercial", "Commercial"
    INSTITUTIONAL = "institutional", "Institutional"

    @classmethod
    def food(cls) -> frozenset[str]:
        """Those § 196-19 F(2) requires a grease trap of: "food preparation services,
        processing operations and restaurants"."""
        return frozenset({cls.RESTAURANT, cls.FOOD_PREPARATION, cls.FOOD_PROCESSING})
