from __future__ import annotations

from django.apps import AppConfig


class FindingsConfig(AppConfig):
    name = "sewer_office.findings"
    label = "findings"
    verbose_name = "Findings"
