from __future__ import annotations

from django.apps import AppConfig


class ReportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sewer_office.reports"
    label = "reports"
    verbose_name = "Signed compliance reports"
