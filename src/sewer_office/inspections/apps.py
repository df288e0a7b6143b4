from __future__ import annotations

from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "sewer_office.inspections"
    label = "inspections"

    def ready(self) -> None:
        from . import report  # noqa: F401  (registers the inspection report with the letters)
