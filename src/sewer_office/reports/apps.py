from __future__ import annotations

from django.apps import AppConfig


class ReportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sewer_office.reports"
    label = "reports"
    verbose_name = "Signed compliance reports"

    def ready(self) -> None:
        from . import documents  # noqa: F401  (registers the signed report's copy with the letters)
