from __future__ import annotations

from django.apps import AppConfig


class PortalConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sewer_office.portal"
    label = "portal"
    verbose_name = "Portal: registration and links to persons"

    def ready(self) -> None:
        # Django's app loading: the panels read the app's models, importable only now.
        from sewer_office.core.panels import PANELS

        from . import panels

        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
