from __future__ import annotations

from django.apps import AppConfig


class ParcelsConfig(AppConfig):
    name = "sewer_office.parcels"
    label = "parcels"
    verbose_name = "Tax parcels and sewer districts"

    def ready(self) -> None:
        # Django's app loading: the panels read the app's models, importable only now.
        from sewer_office.core.panels import PANELS

        from . import panels

        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
