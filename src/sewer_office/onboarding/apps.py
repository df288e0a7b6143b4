from __future__ import annotations

from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    name = "sewer_office.onboarding"
    label = "onboarding"
    verbose_name = "Users and facilities import"
