from __future__ import annotations

from django.apps import AppConfig


class ParcelsConfig(AppConfig):
    name = "sewer_office.parcels"
    label = "parcels"
    verbose_name = "Tax parcels and sewer districts"
