"""Offices of two member towns under Article VII with different values, for the tests of
permits and billing computed under each record's own town's values.

- :func:`article_towns`: the primary ``demo`` (example amounts: building sewer class 1 fee
  200.00 since 2024-01-01, invoices due in 30 days, a fine of 350.00 a day since 2026-01-18)
  and the member ``wappinger`` (the article's own file: no fee, due days or fine configured).
- :func:`riverside`: the primary ``demo`` and a member town of a ``parameters.yaml`` of the
  article (docs/jurisdictions.md) that extends the demo's with amounts of its own: class 1 fee
  275.00, invoices due in 45 days, a fine of 500.00 a day since 2026-01-18, a BOD surcharge of
  0.60 per pound.

In both, the other applicant's parcels (home, phase III lot, plant) pass to the member town
on 2026-01-01; the owner's stay the primary's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .factories import Town
from .jurisdiction_support import member_office

#: A member town given by its parameter file (a relative path: read from the test's directory).
RIVERSIDE = "riverside.yaml"

RIVERSIDE_YAML = """\
jurisdiction: riverside
name: Riverside (Wappinger's article with other EXAMPLE amounts)
extends: demo
notice: EXAMPLE amounts for the tests, adopted by no Town Board.
parameters:
  fee.building_sewer.class_1:
    values:
      2024-01-01: {value: "275.00", authority: "EXAMPLE Riverside resolution 2024-3"}
  invoice.due_days:
    values:
      2015-01-01: {value: "45", authority: "EXAMPLE Riverside resolution 2015-9"}
  fine.daily_amount:
    values:
      2026-01-18: {value: "500.00", authority: "EXAMPLE Riverside § 122-20 Y amount"}
  surcharge.rate.bod:
    values:
      2020-01-01: {value: "0.60", authority: "EXAMPLE Riverside resolution 2019-7"}
"""


@pytest.fixture
def riverside(town: Town, settings: Any, tmp_path: Path, monkeypatch: Any) -> Town:
    """``demo`` (primary) and Riverside's parameter file: the other applicant's are Riverside's."""
    (tmp_path / RIVERSIDE).write_text(RIVERSIDE_YAML, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return member_office(town, settings, RIVERSIDE)
