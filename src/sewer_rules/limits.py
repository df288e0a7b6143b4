"""Limit rules: a dated limit on one analyte, the side on which it is broken, and its status.

Most of what § 196-19 C and D and § 196-15 NORMAL SEWAGE say of a laboratory result has one
shape: *an analyte above (or below) a number is prohibited / reviewable / of abnormal
strength*. Each such provision is declared once, as a :class:`LimitRule` standing under its
text in ``sewer_rules.ordinance``; the evaluation engine (:mod:`sewer_rules.evaluation`)
applies every declared rule, with the parameter values in force on the sample's date.

How a value meets a limit (docs/interpretations.md):

- comparisons are exact, in decimal, in the limit's unit after an exact unit conversion;
- "in excess of", "higher than", "lower than" are strict: the limit itself is lawful;
- a non-detect ("<0.01", "ND" with a reporting limit) is compared by its reporting limit:
  at or below an upper limit it complies, above it the result is ``inconclusive``; for a
  lower limit, a reporting limit at or below the limit proves the value is below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .citations import Citation
from .findings import Status


class Bound(StrEnum):
    UPPER = "upper"  # broken when the value is above the limit
    LOWER = "lower"  # broken when the value is below the limit


@dataclass(frozen=True)
class LimitRule:
    """One provision that puts a dated numeric limit on an analyte.

    ``parameter`` names the dated parameter holding the limit; ``unconfigured`` is the status
    reported when the parameter has no value on the date (``no_limit`` for the limits the law
    leaves to the Superintendent); None means the law itself states the number.
    """

    key: str
    citation: Citation
    analyte: str
    parameter: str
    bound: Bound
    status: Status
    wording: str
    unconfigured: Status | None = None


@dataclass(frozen=True)
class JudgmentRule:
    """A provision that governs an analyte but sets no number: reported as ``no_limit``.

    Chlorides and dissolved solids (§ 196-19 D(9)(a)) or color (D(9)(b)) are prohibited only in
    "unusual" or "excessive" amounts, which the engineer judges; the software says that no
    limit applies rather than calling the result compliant.
    """

    key: str
    citation: Citation
    analytes: tuple[str, ...]
    message: str
