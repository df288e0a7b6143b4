from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "sewer_office.accounts"
    label = "accounts"
    verbose_name = "People and roles"
