from __future__ import annotations

from django.apps import AppConfig


class GreaseConfig(AppConfig):
    name = "sewer_office.grease"
    label = "grease"
