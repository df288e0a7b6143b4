from __future__ import annotations

from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "sewer_office.permits"
    label = "permits"
    verbose_name = "Permits and approvals"

    def ready(self) -> None:
        # Django's app loading, not a cycle: models may be imported only once the registry
        # of apps is ready. kinds binds each permit model to its workflow.
        from sewer_office.core.panels import PANELS
        from sewer_office.registry.reminders import REMINDERS
        from sewer_office.registry.signals import public_sewer_declared

        from . import kinds, letters, panels, reminders  # noqa: F401  (letters registers its kinds)
        from .services.private_system import on_public_sewer_declared

        public_sewer_declared.connect(on_public_sewer_declared, dispatch_uid="permits-connection")
        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
        REMINDERS.add(self.label, reminders.SOURCES)  # what the daily run sends
