"""sewer_engines — fast equivalents of the reference rules of :mod:`sewer_rules`.

The law as code is :mod:`sewer_rules`: one small readable function under the text it
implements, reading one reading, one result, one day at a time — the definition. Where volume
needs speed (a meter's millions of readings, years of results for SNC, a laboratory's batch),
the fast form lives here: whole-array passes (numpy, polars), readers of large files, the
callers of the compiled loops (:mod:`sewer_native`). Each engine registers the reference it
speeds up (:func:`sewer_rules.sections.engine_of`), returns the rules' own types, and is
tested equal to its reference by property tests on generated inputs. Reading this package is
optional: a lawyer reads :mod:`sewer_rules`; an engineer tunes the engines.

Layers (pyproject.toml, [tool.importlinter]): this package imports :mod:`sewer_rules` and
:mod:`sewer_native`, never the reverse; :mod:`sewer_io`, the office and the command line use it.

- :mod:`.monitoring` — meter files read and judged: slugs and excursions
  (:mod:`sewer_rules.monitoring`).
- :mod:`.federal` — SNC counted column-wise (:mod:`sewer_rules.federal.snc_determination`).
- :mod:`.catalogue` — every engine loaded, to show each beside its reference.
"""
