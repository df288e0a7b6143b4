from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate

from . import protection


class CoreConfig(AppConfig):
    name = "sewer_office.core"
    label = "core"
    verbose_name = "Office core"

    def ready(self) -> None:
        # The PostgreSQL triggers of the records of legal weight, after every migrate.
        post_migrate.connect(protection.on_post_migrate, sender=self)
