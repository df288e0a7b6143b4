"""Registrations, link requests and the identity checks that confirm them."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import TimeStamped, WrittenOnce

from .choices import DocumentKind, LinkState, Relation


class Registration(TimeStamped):
    """A self-registered account, and when its e-mail address was verified (until then the
    account is inactive: it cannot sign in)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="registration"
    )
    email = models.EmailField(max_length=254)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "id")

    def __str__(self) -> str:
        return f"{self.user} <{self.email}>{'' if self.verified_at else ' (not verified)'}"


class LinkRequest(TimeStamped):
    """An account's request to act for a person, with the document that shows its authority.

    The requester names who they act for and the property or establishment in their own
    words (an unlinked account sees no records to pick from); staff find the person, check the
    document and confirm — or refuse with a reason. A confirmed link can be ended (audited).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="link_requests"
    )
    relation = models.CharField(max_length=20, choices=Relation.choices)
    person_name = models.CharField(max_length=200, help_text="who the requester acts for")
    place = models.CharField(
        max_length=300, help_text="the property (address or parcel id) or establishment"
    )
    note = models.TextField(blank=True)
    state = models.CharField(max_length=12, choices=LinkState.choices, default=LinkState.PENDING)
    person = models.ForeignKey(
        "registry.Person",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="link_requests",
        help_text="the person staff linked the account to",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="why refused or ended")

    #: Staff see every request; an outside user reaches their own through the portal's pages
    #: (filtered by ``user``), never through the persons' paths.
    ACCESS_PATHS: ClassVar[tuple[str, ...]] = ()
    #: An account asks to act for a person of the plant's one register of persons.
    JURISDICTION_SHARED: ClassVar[str] = "a request to act for a person of the shared register"

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = (models.Index(fields=["state", "created_at"], name="link_state_created"),)

    def __str__(self) -> str:
        return f"LINK-{self.pk} {self.user} for {self.person_name}"


class IdentityCheck(WrittenOnce):
    """Who checked a link request's identity and authority, when, against what (written once)."""

    link = models.OneToOneField(
        LinkRequest, on_delete=models.PROTECT, related_name="identity_check"
    )
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    checked_at = models.DateTimeField(default=timezone.now)
    document_kind = models.CharField(max_length=20, choices=DocumentKind.choices)
    document_reference = models.CharField(
        max_length=200, help_text="number or description of the document seen"
    )
    note = models.TextField(blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = ()
    #: An account asks to act for a person of the plant's one register of persons.
    JURISDICTION_SHARED: ClassVar[str] = "a request to act for a person of the shared register"

    class Meta:
        ordering = ("-checked_at", "-id")

    def __str__(self) -> str:
        return f"{self.link}: {self.get_document_kind_display()} {self.document_reference}"
