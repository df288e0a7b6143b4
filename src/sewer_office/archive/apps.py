from __future__ import annotations

from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "sewer_office.archive"
    label = "archive"
    verbose_name = "Records of the past"
