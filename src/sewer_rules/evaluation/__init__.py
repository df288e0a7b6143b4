"""Evaluation of laboratory results against the ordinance and a facility's permit limits.

One engine serves the command line (``sewer-use check``), the office and the benchmarks: it
takes a table of results as text (the columns of ``sewer-use check``), validates every row,
and applies every rule declared in :mod:`sewer_rules.ordinance` with the parameters in force
on each sample's date — vectorised with polars, exact in decimal.
"""

from .engine import Evaluation, evaluate_table
from .prepare import OPTIONAL_COLUMNS, REQUIRED_COLUMNS

__all__ = ["OPTIONAL_COLUMNS", "REQUIRED_COLUMNS", "Evaluation", "evaluate_table"]
