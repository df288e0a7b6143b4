from __future__ import annotations

from django.apps import AppConfig


class PretreatmentConfig(AppConfig):
    name = "sewer_office.pretreatment"
    label = "pretreatment"
    verbose_name = "Federal pretreatment program (40 CFR 403)"

    def ready(self) -> None:
        # Django's app loading: these modules read the app's models, importable only now.
        from sewer_office.core import significance
        from sewer_office.core.panels import PANELS
        from sewer_office.registry.reminders import REMINDERS

        from . import (
            panels,
            reminders,
            reports,  # noqa: F401  (registers the yearly publications with the letters)
        )
        from .services import current_designation

        # the permits ask whether an approval's user is an SIU (40 CFR 403.8(f)(1)(iii)(B))
        significance.register(
            lambda est: getattr(current_designation(est), "status", None) == "siu"
        )
        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
        REMINDERS.add(self.label, reminders.SOURCES)  # what the daily run sends
