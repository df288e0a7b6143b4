from __future__ import annotations

from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "sewer_office.mail"
    label = "mail"
    verbose_name = "E-mail"
