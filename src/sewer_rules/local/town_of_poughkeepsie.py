"""The Town of Poughkeepsie's own rules (its package: ``jurisdictions/town-of-poughkeepsie``).

T. Poughkeepsie Code [ecode360 6322550] A(1), among the general prohibitions of its
pretreatment articles (L.L. No. 4-1999), reads, in substance: no two successive readings of a
flame-type explosion hazard meter, at the point of discharge or anywhere in the system, may
both be more than 25 percent of the meter's lower explosive limit (LEL), and no single reading
more than 40 percent. Wappinger's article has no such test; EPA's model ordinance writes the
explosion hazard as a closed-cup flashpoint instead.

How the software reads it:

- "more than" is strict: a reading of exactly 25 (or 40) percent is lawful;
- "two successive readings" are two readings next to each other in the order they were
  taken, whatever the time between them (the text sets none);
- each pair both over the first limit is one finding, and each reading over the second limit
  is one finding; a reading can be in both (it is reported under each test it fails).

The limits are the dated parameters ``lel.successive_maximum`` and ``lel.single_maximum``,
read on the day of the readings; comparisons are exact decimals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from sewer_rules.parameters import ParameterSet

CITATION = "T. Poughkeepsie Code [ecode360 6322550] A(1)"
SUCCESSIVE = "lel.successive_maximum"
SINGLE = "lel.single_maximum"


class ReadingError(ValueError):
    """A reading that is not a percentage of the LEL (its position named)."""


@dataclass(frozen=True)
class ExplosionHazard:
    """One failed test: ``readings`` are the positions (from 1) of the reading or the pair."""

    test: str
    readings: tuple[int, ...]
    percents: tuple[Decimal, ...]
    limit: Decimal
    limit_authority: str
    citation: str = CITATION

    def as_dict(self) -> dict[str, object]:
        return {
            "test": self.test,
            "readings": list(self.readings),
            "percents": [str(p) for p in self.percents],
            "limit": str(self.limit),
            "limit_authority": self.limit_authority,
            "citation": self.citation,
        }


def _percent(text: object, position: int) -> Decimal:
    try:
        value = Decimal(str(text).strip().removesuffix("%").strip())
    except InvalidOperation:
        raise ReadingError(f"reading {position}: {text!r} is not a percentage of the LEL") from None
    if not value.is_finite() or value < 0:
        raise ReadingError(f"reading {position}: {text!r} is not a percentage of the LEL")
    return value


def explosion_hazard(
    readings: Sequence[object], params: ParameterSet, taken_on: date | str
) -> list[ExplosionHazard]:
    """Every pair of successive readings both over ``lel.successive_maximum`` percent of the
    LEL, and every reading over ``lel.single_maximum``, in the order taken ([ecode360 6322550]
    A(1)); none when the readings are lawful. ``taken_on``: the day of the readings, whose
    limits apply."""
    day = taken_on if isinstance(taken_on, date) else date.fromisoformat(str(taken_on))
    pair, single = params.get(SUCCESSIVE, day), params.get(SINGLE, day)
    if pair.value is None or single.value is None:
        raise ReadingError(f"{SUCCESSIVE} and {SINGLE} must be configured on {day}")
    values = [_percent(r, i) for i, r in enumerate(readings, 1)]
    found: list[ExplosionHazard] = []
    for i, value in enumerate(values, 1):
        if i > 1 and values[i - 2] > pair.value and value > pair.value:
            found.append(
                ExplosionHazard(
                    "two successive readings",
                    (i - 1, i),
                    (values[i - 2], value),
                    pair.value,
                    pair.authority,
                )
            )
        if value > single.value:
            found.append(
                ExplosionHazard("a single reading", (i,), (value,), single.value, single.authority)
            )
    return found
