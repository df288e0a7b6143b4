"""Choices of the grease app: the kinds of trap or interceptor and the sizing method used."""

from __future__ import annotations

from django.db import models


class InterceptorKind(models.TextChoices):
    GREASE_TRAP = "grease_trap", "Grease trap (§ 196-19 F(2))"
    HYDROMECHANICAL = "hydromechanical", "Hydromechanical grease interceptor (§ 196-19 F(2))"
    GRAVITY = "gravity", "Gravity grease interceptor (§ 196-19 F(2))"
    OIL_SAND = "oil_sand", "Oil and sand interceptor (§ 196-19 F(1))"

    @classmethod
    def grease(cls) -> frozenset[str]:
        """The kinds § 196-19 F(2) is about (an oil and sand interceptor is F(1))."""
        return frozenset({cls.GREASE_TRAP, cls.HYDROMECHANICAL, cls.GRAVITY})


class SizingMethodUsed(models.TextChoices):
    HYDROMECHANICAL = "hydromechanical", "PDI G-101 hydromechanical"
    GRAVITY = "gravity", "UPC gravity table"
