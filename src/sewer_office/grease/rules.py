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

from sewer_office.accounts.towns import keeps_article, values_of
from sewer_office.core.errors import InvalidInput
from sewer_office.core.town_law import article_refusal
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
from sewer_rules.parameters import ParameterError, ParameterSet

CITATION = str(F2)
#: The duty a pump-out gives effect to (maintenance of pretreatment), cited by overdue findings.
MAINTENANCE_CITATION = str(MAINTENANCE)
__all__ = [
    "CITATION",
    "CLEANING_INTERVAL",
    "MAINTENANCE_CITATION",
    "OTHER_LAW",
    "PDI_DRAIN_MINUTES",
    "CleaningStatus",
    "SizingInput",
    "clock",
    "params",
    "size",
]


#: The status of an interceptor of a town whose law is its own: the article's clock does not run.
OTHER_LAW = "other_law"
#: The determination the cleaning clock is, as the refusal for another law's town names it.
CLOCK = f"A grease interceptor's pump-out clock ({MAINTENANCE_CITATION})"


class NotTheArticle(CleaningStatus):
    """The cleaning status of an interceptor of a town under a law of its own (the Town of
    Poughkeepsie's): the article's clock — its town's interval, § 196-19 G — is not that
    town's law, so nothing is due or overdue by it, and the message says why."""

    @property
    def overdue(self) -> bool | None:
        return None


def params(town: str) -> ParameterSet:
    """The dated values of ``town``, the town of the interceptor at hand: its sizing method
    and cleaning interval are that town's choices, never the primary town's."""
    return values_of(town)


@dataclass(frozen=True)
class SizingInput:
    """What a sizing check is computed from: PDI inputs, or drainage fixture units."""

    method: str  # "hydromechanical" or "gravity"
    fixture_volume_in3: Decimal | None = None
    drain_minutes: int = 1
    dfu: int | None = None
    installed: Decimal | None = None  # rated gpm, or gallons for gravity


def size(inp: SizingInput, on: date, *, town: str) -> Check:
    """The sizing check under ``town``'s method in force on ``on`` (``passed`` None = a
    reference)."""
    try:
        if inp.method == "hydromechanical":
            if inp.fixture_volume_in3 is None:
                raise InvalidInput({"fixture_volume_in3": ["Give the fixtures' volume in in³."]})
            return size_hydromechanical(
                Fraction(inp.fixture_volume_in3),
                inp.drain_minutes,
                params(town),
                on,
                installed_gpm=None if inp.installed is None else Fraction(inp.installed),
            )
        if inp.method == "gravity":
            if inp.dfu is None:
                raise InvalidInput({"dfu": ["Give the drainage fixture units served."]})
            return size_gravity(
                inp.dfu,
                params(town),
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
    town: str,
    installed: date | None,
    interval_days: int | None,
) -> CleaningStatus:
    """The cleaning status of one interceptor of ``town`` on ``as_of`` (its own interval, else
    its town's); for a town under a law of its own, :class:`NotTheArticle`."""
    if not keeps_article(town):
        return _not_the_article(last_pump_out, as_of, town)
    try:
        return cleaning_status(
            [last_pump_out] if last_pump_out else [],
            params(town),
            as_of,
            installed=installed,
            interval_days=interval_days,
        )
    except GreaseSizingError as e:
        raise InvalidInput({"cleaning_interval_days": [str(e)]}) from None


def _not_the_article(last_pump_out: date | None, as_of: date, town: str) -> CleaningStatus:
    """The clock of an interceptor of ``town`` (a town of another law), saying why it is none."""
    why = article_refusal(town, CLOCK)
    return NotTheArticle(
        as_of, OTHER_LAW, None, "not this town's law", last_pump_out, None, 0, why, None
    )
