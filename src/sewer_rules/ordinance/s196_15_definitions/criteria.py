"""What a § 196-15 definition asks of a sample, criterion by criterion (data, not mechanics).

The definitions of cooling water and of unpolluted water are lists of conditions on one water.
Each condition is a :class:`Criterion` naming the analyte it reads, the dated parameters that
bound it, how a result is judged, and whether the definition needs it measured. The vectorised
evaluation of these lists over a results table is ``evaluation/classify.py``.

Each result of a criterion's analyte is judged one of three ways: it meets the criterion, it
breaks it, or it cannot tell (a non-detect at a reporting limit too high to show anything, a
limit that is not configured). A sample meets a definition (``yes``) only when every required
criterion was measured and met and nothing measured was undecided; it does not (``no``) as soon
as one result breaks one criterion; otherwise the answer is ``unknown`` — never ``yes`` by
default.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Mode(Enum):
    #: measured value within [minimum, maximum] (either bound may be absent); a non-detect
    #: meets an upper bound when its reporting limit is at or below it, and tells nothing else.
    RANGE = "range"
    #: must not be present at all: any detected value breaks it; a non-detect meets it only at
    #: a reporting limit at or below ``maximum`` (a meaningful reporting limit).
    ABSENT = "absent"


@dataclass(frozen=True)
class Criterion:
    """One condition of a definition on one analyte."""

    key: str
    analyte: str
    mode: Mode
    required: bool
    maximum: str | None = None  # parameter name
    minimum: str | None = None  # parameter name

    @property
    def parameters(self) -> tuple[str, ...]:
        return tuple(p for p in (self.minimum, self.maximum) if p is not None)
