from __future__ import annotations

from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "sewer_office.registry"
    label = "registry"
    verbose_name = "Registry"
