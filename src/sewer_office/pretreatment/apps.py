from __future__ import annotations

from django.apps import AppConfig


class PretreatmentConfig(AppConfig):
    name = "sewer_office.pretreatment"
    label = "pretreatment"
    verbose_name = "Federal pretreatment program (40 CFR 403)"

    def ready(self) -> None:
        from . import reports  # noqa: F401  (registers the yearly publications with the letters)
