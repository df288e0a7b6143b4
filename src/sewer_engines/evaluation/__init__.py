"""The columnar evaluation of laboratory results: ``sewer-use check`` over a million rows.

One engine serves the command line (``sewer-use check``), the office and the benchmarks: it
takes a table of results as text (the columns of ``sewer-use check``), validates every row,
and applies every rule declared in :mod:`sewer_rules.ordinance` with the parameters in force
on each sample's date — vectorised with polars, exact in decimal. What it computes is defined
by the plain reading in :mod:`sewer_rules.evaluation` (one row at a time), and tested equal to
it.
"""

from sewer_rules.evaluation.reading import OPTIONAL_COLUMNS, REQUIRED_COLUMNS

from .engine import Evaluation, evaluate_table

__all__ = ["OPTIONAL_COLUMNS", "REQUIRED_COLUMNS", "Evaluation", "evaluate_table"]
