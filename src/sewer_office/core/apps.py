from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate

from . import checks, db_roles, protection


class CoreConfig(AppConfig):
    name = "sewer_office.core"
    label = "core"
    verbose_name = "Office core"

    def ready(self) -> None:
        # The PostgreSQL triggers of the records of legal weight, after every migrate.
        post_migrate.connect(protection.on_post_migrate, sender=self)
        # The runtime role's grants (SEWER_USE_RUNTIME_ROLE), after the triggers; and the
        # deploy check that the office does not connect as the tables' owner.
        post_migrate.connect(db_roles.on_post_migrate, sender=self)
        checks.register()
        # The accounts, below the audit trail, have their changes recorded by it
        # (accounts.audit_trail): creating a user, a second factor enrolled or reset.
        from sewer_office.accounts import audit_trail

        from . import audit

        audit_trail.keep_with(audit.record)
