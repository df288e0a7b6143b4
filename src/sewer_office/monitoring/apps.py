from __future__ import annotations

from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    name = "sewer_office.monitoring"
    label = "monitoring"
    verbose_name = "Sampling and findings"

    def ready(self) -> None:
        # Django's app loading: the panels read the app's models, importable only now.
        from sewer_office.core.panels import PANELS
        from sewer_office.registry.reminders import REMINDERS

        from . import panels, reminders

        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
        REMINDERS.add(self.label, reminders.SOURCES)  # what the daily run sends
