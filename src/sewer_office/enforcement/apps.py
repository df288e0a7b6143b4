from __future__ import annotations

from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "sewer_office.enforcement"
    label = "enforcement"

    def ready(self) -> None:
        # Django's app loading, not a cycle: models may be imported only once the registry
        # of apps is ready. The workflows (whose effects are the services) are bound to
        # their models here, so the models never import the workflow.
        from . import letters  # noqa: F401  (registers the enforcement letters)
        from .models import Milestone, Violation
        from .workflow import MILESTONE_WORKFLOW, WORKFLOW

        Violation.WORKFLOW = WORKFLOW
        Milestone.WORKFLOW = MILESTONE_WORKFLOW
