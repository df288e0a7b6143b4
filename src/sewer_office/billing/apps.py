from __future__ import annotations

from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "sewer_office.billing"
    label = "billing"
    verbose_name = "Billing"

    def ready(self) -> None:
        # Django's app loading: the letters modules register their kinds of letter (invoice,
        # receipt, statement) with the letters engine once the models can be imported.
        from . import pdf, receipts, statement_letter  # noqa: F401
