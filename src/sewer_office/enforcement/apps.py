from __future__ import annotations

from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "sewer_office.enforcement"
    label = "enforcement"
