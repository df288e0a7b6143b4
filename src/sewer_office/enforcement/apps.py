from __future__ import annotations

from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "sewer_office.enforcement"
    label = "enforcement"

    def ready(self) -> None:
        # Django's app loading, not a cycle: models may be imported only once the registry
        # of apps is ready. The workflows (whose effects are the services) are bound to
        # their models here, so the models never import the workflow.
        from sewer_office.core.panels import PANELS
        from sewer_office.registry.reminders import REMINDERS

        from . import (
            notice_letters,  # noqa: F401  (registers the notice, order and certificate)
            panels,
            referral_letter,  # noqa: F401  (registers the referral)
            reminders,
        )
        from .models import Milestone, Violation
        from .workflow import MILESTONE_WORKFLOW, WORKFLOW

        Violation.WORKFLOW = WORKFLOW
        Milestone.WORKFLOW = MILESTONE_WORKFLOW
        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
        REMINDERS.add(self.label, reminders.SOURCES)  # what the daily run sends
