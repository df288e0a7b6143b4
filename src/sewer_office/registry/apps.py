from __future__ import annotations

from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "sewer_office.registry"
    label = "registry"
    verbose_name = "Registry"

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, pre_save

        from sewer_office.core.panels import PANELS

        from . import panels
        from .merge import refuse_merged, refuse_merged_link
        from .models import Person

        # No new record names a person merged into another (registry.merge).
        pre_save.connect(refuse_merged, dispatch_uid="registry-refuse-merged")
        m2m_changed.connect(
            refuse_merged_link,
            sender=Person.representatives.through,
            dispatch_uid="registry-refuse-merged-link",
        )
        PANELS.add(self.label, panels)  # the dashboard, facility and property pages
