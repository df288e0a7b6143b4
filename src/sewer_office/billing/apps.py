from __future__ import annotations

from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "sewer_office.billing"
    label = "billing"
    verbose_name = "Billing"
