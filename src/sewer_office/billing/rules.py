"""The seam to :mod:`sewer_rules` for billing: the jurisdiction in use and parameter records
(:func:`params` and :func:`parameter_dict` are the permits' — one reading of the jurisdiction
for the whole office), and the message of an amount not configured."""

from __future__ import annotations

from datetime import date

from sewer_office.permits.rules import StoredParameter, parameter_dict, params
from sewer_rules.parameters import ParameterValue

__all__ = ["StoredParameter", "not_configured_message", "parameter_dict", "params"]


def not_configured_message(pv: ParameterValue, on: date, what: str) -> str:
    """Why a charge cannot be stated: the parameter and the resolution to record."""
    return (
        f"{what}: {pv.name} is not configured in {params().jurisdiction} on {on} (entry in "
        f"force since {pv.effective}, {pv.reference}). Record the Town Board resolution that "
        f"sets it in the jurisdiction's parameters before billing."
    )
