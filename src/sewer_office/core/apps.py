from __future__ import annotations

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "sewer_office.core"
    label = "core"
    verbose_name = "Office core"
