from __future__ import annotations

from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "sewer_office.inspections"
    label = "inspections"
