"""A link request's relation to the person, its states, and the documents checked."""

from __future__ import annotations

from django.db import models


class Relation(models.TextChoices):
    OWNER = "owner", "Owner of the property (or the owner in person)"
    OPERATOR = "operator", "Operator of the establishment"
    REPRESENTATIVE = "representative", "Authorized representative (agent, engineer, contractor)"


class LinkState(models.TextChoices):
    PENDING = "pending", "Waiting for the Town's check"
    CONFIRMED = "confirmed", "Linked"
    REFUSED = "refused", "Refused"
    ENDED = "ended", "Link ended"


class DocumentKind(models.TextChoices):
    """What staff checked the identity and the authority against."""

    PHOTO_ID = "photo_id", "Photo identification (driver's license, passport)"
    DEED = "deed", "Deed or title of the property"
    TAX_BILL = "tax_bill", "Property tax bill"
    AUTHORIZATION = "authorization", "Signed authorization of the owner or operator"
    CORPORATE = "corporate", "Corporate resolution or officer's certificate"
    OTHER = "other", "Other (described)"
