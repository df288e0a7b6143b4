from __future__ import annotations

from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "sewer_office.demo"
    label = "demo"
    verbose_name = "Demo town"
