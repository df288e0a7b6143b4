from __future__ import annotations

from django.apps import AppConfig


class NetworkConfig(AppConfig):
    name = "sewer_office.network"
    label = "network"
    verbose_name = "Sewer network"
