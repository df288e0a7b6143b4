from __future__ import annotations

from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "sewer_office.billing"
    label = "billing"
    verbose_name = "Billing"

    def ready(self) -> None:
        # Django's app loading: the letters modules register their kinds of letter (invoice,
        # receipt, statement) with the letters engine once the models can be imported.
        from sewer_office.core.panels import PANELS
        from sewer_office.registry.reminders import REMINDERS

        from . import panels, pdf, receipts, reminders, statement_letter  # noqa: F401

        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
        REMINDERS.add(self.label, reminders.SOURCES)  # what the daily run sends
