from __future__ import annotations

from django.apps import AppConfig


class MetersConfig(AppConfig):
    name = "sewer_office.meters"
    label = "meters"
