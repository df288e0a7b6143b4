from __future__ import annotations

from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "sewer_office.inspections"
    label = "inspections"

    def ready(self) -> None:
        # Django's app loading: these modules read the app's models, importable only now.
        from sewer_office.core.panels import PANELS

        from . import (
            panels,
            report,  # noqa: F401  (registers the inspection report with the letters)
        )

        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
