from __future__ import annotations

from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    name = "sewer_office.monitoring"
    label = "monitoring"
    verbose_name = "Sampling and findings"
