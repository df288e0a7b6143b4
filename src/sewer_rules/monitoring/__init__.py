"""Continuous monitoring: slugs (§ 196-15 SLUG, § 196-19 D(9)(d)) and pH and temperature
excursions (§ 196-19 C(3), D(8), D(1)), read one reading at a time, exactly.

- :mod:`.slugs` — § 196-15 SLUG and § 196-19 D(9)(d): the rule (:func:`.slugs.slugs_of`), and
  what it speaks of (a reading, a baseline, a slug).
- :mod:`.excursions` — § 196-19 C(3), D(8), D(1); monthly totals; the 40 CFR 401.17 option.
- :mod:`.runs` — how long a run of readings lasts: the usual interval, the maximum gap.
- :mod:`.instants` — instants, dates in the town, values shown exactly.

These are the definitions. The engines that read meter files of millions of readings and
judge them in whole-array passes or compiled loops are :mod:`sewer_engines.monitoring`; they
return the types defined here and are tested equal to these functions.
"""
