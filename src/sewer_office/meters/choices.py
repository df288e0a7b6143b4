"""Choices of the meters app: how a user reported a slug (§ 196-19 D(9)(d))."""

from __future__ import annotations

from django.db import models


class ReportChannel(models.TextChoices):
    PHONE = "phone", "Telephone"
    EMAIL = "email", "E-mail"
    IN_PERSON = "in_person", "In person"
    PORTAL = "portal", "Portal"
