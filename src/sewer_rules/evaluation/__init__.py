"""Laboratory results against Article VII and a facility's permit limits, read one at a time.

What ``sewer-use check`` and the office's imports find, as the law reads it: a row of a
results file read (:mod:`.reading`, :mod:`.times`), a result held to the declared limits
(:mod:`.result`), to the conditions of its facility's approval (:mod:`.permit_conditions`,
:mod:`.permit_limits`), a sample classified (:mod:`.classify`), a whole file (:mod:`.check`).

These functions are the definition. The columnar engine that evaluates a million rows in a
second or two is ``sewer_engines.evaluation``, optional to read and tested equal to them.
"""

from .check import CheckReport, check
from .reading import OPTIONAL_COLUMNS, REQUIRED_COLUMNS, Reading, RowError, read_row
from .result import ResultEvaluation

__all__ = [
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "CheckReport",
    "Reading",
    "ResultEvaluation",
    "RowError",
    "check",
    "read_row",
]
