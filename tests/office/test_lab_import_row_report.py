"""The office's laboratory import lists every bad cell of a file of any size, as ``sewer-use
check`` does (the same reader and engine), and stores nothing."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import LabImport, LabResult
from tests.lab_files import lab_file, scattered

from .factories import Town
from .monitoring_factories import facilities

OFFICE_COLUMNS = {"facility": "OTHER-PLANT", "sampling_point": "CM-1"}


@pytest.fixture
def fac(town: Town) -> Any:
    return facilities(town)


@settings(
    max_examples=4,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink over 200,000-row files takes minutes
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rows=st.sampled_from([10, 50_000, 200_000]),
    n_bad=st.integers(1, 30),
    seed=st.integers(0, 2**32 - 1),
)
def test_office_import_lists_every_bad_cell(
    town: Town, fac: Any, rows: int, n_bad: int, seed: int
) -> None:
    f = lab_file(rows, scattered(rows, n_bad, seed), OFFICE_COLUMNS)
    report = import_lab_file(
        f.text.encode(), "big.csv", town.u("superintendent"), today=date(2026, 4, 2)
    )
    assert not report.ok and not report.stored
    listed = [(r, field) for r, field, _ in report.errors]
    assert set(listed) == f.expected and len(listed) == len(f.expected)
    assert all(message for _, _, message in report.errors)
    gap_messages = [m for r, fld, m in report.errors if r in f.gap_rows and fld == "sampled_at"]
    assert all("does not exist on 2024-03-10" in m for m in gap_messages)
    assert LabResult.objects.count() == 0 and LabImport.objects.count() == 0


def test_three_bad_dates_in_50000_rows_through_the_office(town: Town, fac: Any) -> None:
    f = lab_file(
        50_000, [(10, "sampled_at"), (20_000, "sampled_at"), (40_000, "sampled_at")], OFFICE_COLUMNS
    )
    report = import_lab_file(f.text.encode(), "big.csv", town.u("superintendent"), dry_run=True)
    assert [(r, field) for r, field, _ in report.errors] == sorted(f.expected)
