"""The monitoring engine: meter files of millions of readings read and judged exactly.

The rules are :mod:`sewer_rules.monitoring` (§ 196-15 SLUG and the limits of § 196-19 read
one reading at a time); this package computes the same answers on whole arrays.

- :mod:`.series` — a series in memory (absolute times, scaled-integer values), runs, cadence.
- :mod:`.kernel` — the vectorised exact test against a multiple of the trailing mean.
- :mod:`.windows` — where a reading's trailing window starts, and exact sums of values.
- :mod:`.limits` — readings beyond a fixed bound (the limits of § 196-19).
- :mod:`.exact` — exact comparisons on sums in 32-bit limbs with a floating-point screen.
- :mod:`.normal` — the baseline of normal-operation readings only, in passes (or the compiled
  sequential loop where it is built).
- :mod:`.slugs`, :mod:`.slug_runs` — § 196-15 SLUG on a series.
- :mod:`.excursions` — § 196-19 C(3), D(8), D(1) on a series.
- :mod:`.stamps` — ISO times with offsets read as byte arithmetic (the historians' layout).
- :mod:`.source` — what every reader gives (series, row errors), without polars.
- :mod:`.readings` — the general reader: the hygiene of a meter file's rows, meter by meter
  (the file itself is opened by :mod:`sewer_io.readings`); its steps are :mod:`.columns`,
  :mod:`.time_column`, :mod:`.value_column`, :mod:`.compact_rows`, :mod:`.row_errors`,
  :mod:`.scaled_values` and :mod:`.series_builder`.
- :mod:`.daily` — a meter's readings by town day: counts and exact sums.
- :mod:`.analysis` — the series judged one by one (what ``sewer-use slugs`` runs through
  :func:`sewer_io.meter_files.analyse`).

Importing the package imports none of them: the compiled module's wrappers import
:mod:`.kernel` and :mod:`.series` while this package may be half loaded.
"""
