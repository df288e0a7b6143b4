from __future__ import annotations

from django.apps import AppConfig


class PortalConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sewer_office.portal"
    label = "portal"
    verbose_name = "Portal: registration and links to persons"
