"""The seam to :mod:`sewer_rules` for billing: the jurisdiction in use and parameter records."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings

from sewer_rules.parameters import ParameterSet, ParameterValue, load_jurisdiction


def params() -> ParameterSet:
    """The parameter set in use (``SEWER_USE_JURISDICTION``; cached by the loader)."""
    return load_jurisdiction(settings.SEWER_USE_JURISDICTION)


def parameter_dict(pv: ParameterValue) -> dict[str, Any]:
    """A dated parameter value as stored with a charge: name, value, authority, effective."""
    out: dict[str, Any] = {
        "name": pv.name,
        "value": None if pv.value is None else str(pv.value),
        "unit": pv.unit,
        "effective": pv.effective.isoformat(),
        "reference": pv.reference,
        "authority": pv.authority,
    }
    if pv.table is not None:  # a bracket schedule: its brackets, as written
        out["table"] = [
            {"up_to": None if b.up_to is None else str(b.up_to), "rate": str(b.rate)}
            for b in pv.table
        ]
        out["value"] = pv.text
    return out


def not_configured_message(pv: ParameterValue, on: date, what: str) -> str:
    """Why a charge cannot be stated: the parameter and the resolution to record."""
    return (
        f"{what}: {pv.name} is not configured in {params().jurisdiction} on {on} (entry in "
        f"force since {pv.effective}, {pv.reference}). Record the Town Board resolution that "
        f"sets it in the jurisdiction's parameters before billing."
    )
