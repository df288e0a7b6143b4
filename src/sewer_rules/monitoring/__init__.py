"""Continuous monitoring: slugs (§ 196-15 SLUG, § 196-19 D(9)(d)) and pH and temperature
excursions (§ 196-19 C(3), D(8), D(1)) computed exactly from meter series, vectorised.

Importing the package imports the rules, so that their citations are in the registry of
sections (:mod:`sewer_rules.sections`).

- :mod:`.series` — a series in memory (absolute times, scaled-integer values), runs, cadence.
- :mod:`.kernel` — the vectorised exact test against a multiple of the trailing mean.
- :mod:`.normal` — the baseline of normal-operation readings only (§ 196-15 SLUG), in passes.
- :mod:`.native` — the compiled loops where they are built: a historian's export read, and the
  normal-operation judgement in one sequential pass (shortcuts of :mod:`.readings` and
  :mod:`.normal`, compared with them by the tests).
- :mod:`.stamps` — ISO times with offsets read as byte arithmetic (the historians' layout).
- :mod:`.slugs` — § 196-15 SLUG and § 196-19 D(9)(d).
- :mod:`.excursions` — § 196-19 C(3), D(8), D(1); monthly totals; 40 CFR 401.17 option.
- :mod:`.source` — what every reader gives (series, row errors), without polars.
- :mod:`.readings` — the hygiene of a meter file's rows, meter by meter (the file itself is
  opened by :mod:`sewer_io.readings`).
- :mod:`.analysis` — the series judged one by one (what ``sewer-use slugs`` runs through
  :func:`sewer_io.meter_files.analyse`).
"""

from . import excursions, slugs
from .analysis import Options, Report, SeriesReport
from .series import Series
from .source import ReadingsError, ReadOptions, RowError

__all__ = [
    "Options",
    "ReadOptions",
    "ReadingsError",
    "Report",
    "RowError",
    "Series",
    "SeriesReport",
    "excursions",
    "slugs",
]
