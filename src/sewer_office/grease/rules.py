"""The grease app's seam to the law as code (§ 196-19 F(2) sizing and cleaning clocks).

Nothing is recomputed here: the sizing (PDI G-101, UPC table, the dated
``grease_interceptor.sizing_method``) and the cleaning clock (``cleaning_status``, with
``grease_interceptor.cleaning_interval_days`` or an establishment's own interval) are those of
:mod:`sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_interceptors` and
``grease_pump_outs``. This module only turns office records into their inputs and their errors
into :class:`InvalidInput`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from django.conf import settings

from sewer_office.core.errors import InvalidInput
from sewer_rules.findings import Check
from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_interceptors import (
    F2,
    PDI_DRAIN_MINUTES,
    GreaseSizingError,
    size_gravity,
    size_hydromechanical,
)
from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_pump_outs import (
    CLEANING_INTERVAL,
    MAINTENANCE,
    CleaningStatus,
    cleaning_status,
)
from sewer_rules.parameters import ParameterError, ParameterSet, load_jurisdiction

CITATION = str(F2)
#: The duty a pump-out gives effect to (maintenance of pretreatment), cited by overdue findings.
MAINTENANCE_CITATION = str(MAINTENANCE)
__all__ = [
    "CITATION",
    "CLEANING_INTERVAL",
    "MAINTENANCE_CITATION",
    "PDI_DRAIN_MINUTES",
    "CleaningStatus",
    "SizingInput",
    "clock",
    "params",
    "size",
]


def params() -> ParameterSet:
    """The parameter set of the jurisdiction the office runs (cached by the loader)."""
    return load_jurisdiction(settings.SEWER_USE_JURISDICTION)


@dataclass(frozen=True)
class SizingInput:
    """What a sizing check is computed from: PDI inputs, or drainage fixture units."""

    method: str  # "hydromechanical" or "gravity"
    fixture_volume_in3: Decimal | None = None
    drain_minutes: int = 1
    dfu: int | None = None
    installed: Decimal | None = None  # rated gpm, or gallons for gravity


def size(inp: SizingInput, on: date) -> Check:
    """The sizing check under the method in force on ``on`` (``passed`` None = a reference)."""
    try:
        if inp.method == "hydromechanical":
            if inp.fixture_volume_in3 is None:
                raise InvalidInput({"fixture_volume_in3": ["Give the fixtures' volume in in³."]})
            return size_hydromechanical(
                Fraction(inp.fixture_volume_in3),
                inp.drain_minutes,
                params(),
                on,
                installed_gpm=None if inp.installed is None else Fraction(inp.installed),
            )
        if inp.method == "gravity":
            if inp.dfu is None:
                raise InvalidInput({"dfu": ["Give the drainage fixture units served."]})
            return size_gravity(
                inp.dfu,
                params(),
                on,
                installed_gal=None if inp.installed is None else Fraction(inp.installed),
            )
    except GreaseSizingError as e:
        raise InvalidInput({"sizing": [str(e)]}) from None
    except ParameterError as e:
        # a date before the sizing parameters took effect: the law had no method then
        raise InvalidInput({"on": [str(e)]}) from None
    raise InvalidInput({"method": [f"'{inp.method}' is not hydromechanical or gravity"]})


def computed_size(check: Check) -> str:
    """The size the method gives, as stored with the check ("50 gpm", "1000 gal", "none")."""
    d = check.details
    if d["method"] == "hydromechanical":
        return "none" if d["rated_size_gpm"] == "none" else f"{d['rated_size_gpm']} gpm"
    return "none" if d["capacity_gal"] == "none" else f"{d['capacity_gal']} gal"


def clock(
    last_pump_out: date | None,
    as_of: date,
    *,
    installed: date | None,
    interval_days: int | None,
) -> CleaningStatus:
    """The cleaning status of one interceptor on ``as_of`` (its own interval, else the town's)."""
    try:
        return cleaning_status(
            [last_pump_out] if last_pump_out else [],
            params(),
            as_of,
            installed=installed,
            interval_days=interval_days,
        )
    except GreaseSizingError as e:
        raise InvalidInput({"cleaning_interval_days": [str(e)]}) from None
