from __future__ import annotations

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.core import checks


class AccountsConfig(AppConfig):
    name = "sewer_office.accounts"
    label = "accounts"
    verbose_name = "People and roles"

    def ready(self) -> None:
        # Django's app loading, not a cycle: the second factor's module reads django-otp's
        # models, which may be imported only once the registry of apps is ready.
        from . import second_factor
        from .checks import check_sign_in_settings

        # Every sign-in notes in its session whether the account has an authenticator.
        user_logged_in.connect(second_factor.note_sign_in, dispatch_uid="sewer-second-factor")
        checks.register(check_sign_in_settings, checks.Tags.security)
