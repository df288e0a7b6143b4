"""The historians' time layout: Arrow's whole-column reading and the byte arithmetic agree."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from sewer_engines.monitoring import stamps

TEXTS = [
    "2026-01-01T00:00:00-05:00",
    "2026-01-01T00:00:00+23:59",
    "2026-01-01T00:00:00-00:00",
    "2024-02-29T23:59:59+14:00",
    "0001-01-01T00:00:00+00:00",
    "9999-12-31T23:59:59-12:00",
    "2026-03-08T03:00:00-04:00",
]
REFUSED = [
    "2026-01-01T00:00:00+24:00",
    "2023-02-29T00:00:00+00:00",
    "2026-01-01T00:00:00+05:7a",
    "2026-13-01T00:00:00+00:00",
    "2026-00-10T00:00:00+00:00",
    "2026-01-00T00:00:00+00:00",
    "2026-01-01T24:00:00+00:00",
    "2026-01-01T00:60:00+00:00",
    "2026-01-01T00:00:60+00:00",
    "2026-01-01T00:00:00+00:60",
    "2026-01-01T 0:00:00+00:00",
    "2026-01-01T00:00:00+1:000",
    "+026-01-01T00:00:00+00:00",
    "2026-01-01 00:00:00+00:00",
]


def _arithmetic(texts: list[str]) -> np.ndarray:
    found = stamps._table(pl.Series(texts))
    assert found is not None
    table = found[0]
    return stamps._chunk(table, stamps._calendar(0, 9999), 0, 9999)


@pytest.mark.parametrize("text", TEXTS + REFUSED)
def test_arrow_reads_a_column_exactly_when_the_arithmetic_does(text: str) -> None:
    found = stamps._table(pl.Series([text]))
    assert found is not None
    table, _, arr = found
    by_arrow = stamps._by_arrow(table, arr)
    (expected,) = _arithmetic([text])
    if expected == stamps.NOT_READ:
        assert by_arrow is None
    else:
        assert by_arrow is not None and int(by_arrow[0]) == int(expected)


def test_one_refused_row_leaves_the_column_to_the_arithmetic() -> None:
    texts = [*TEXTS, "2023-02-29T00:00:00+00:00", *TEXTS]
    got = stamps.aware_instants(pl.Series(texts))
    assert got.tolist() == _arithmetic(texts).tolist()
    assert int(got[len(TEXTS)]) == stamps.NOT_READ
    whole = stamps.aware_instants(pl.Series(TEXTS))
    assert whole.tolist() == _arithmetic(TEXTS).tolist()
