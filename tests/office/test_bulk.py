"""Bulk insertion stores exactly what the ORM would: times to the microsecond, empty text as
empty (not NULL), NULL as NULL, ids given or left to the database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import polars as pl
from django.db import transaction

from sewer_office.core import bulk
from sewer_office.monitoring.models import LabImport


def test_bulk_insert_round_trips(db: Any) -> None:
    times = [
        datetime(2026, 3, 2, 10, 0, tzinfo=UTC),
        datetime(2026, 3, 2, 10, 0, 0, 250, tzinfo=UTC),
    ]
    first = bulk.reserve_ids(LabImport, 2)
    with transaction.atomic():
        bulk.insert(
            LabImport,
            pl.DataFrame(
                {
                    "id": [first, first + 1],
                    "sha256": ["a" * 64, "b" * 64],
                    "source": ["lab_file", "manual"],
                    "source_name": ["", 'x, "quoted"'],
                    "imported_at": pl.Series(times).dt.replace_time_zone("UTC"),
                    "jurisdiction": ["demo", "demo"],
                    "parameters_version": ["v", "v"],
                    "establishment_id": pl.Series([None, None], dtype=pl.Int64),
                }
            ),
        )
        bulk.insert(
            LabImport,
            pl.DataFrame(
                {
                    "sha256": ["c" * 64],
                    "source": ["manual"],
                    "jurisdiction": ["demo"],
                    "parameters_version": ["v"],
                }
            ),
        )
    rows = list(LabImport.objects.order_by("id"))
    assert [r.imported_at for r in rows[:2]] == times
    assert rows[0].source_name == "" and rows[1].source_name == 'x, "quoted"'
    assert rows[0].establishment_id is None and rows[2].id > rows[1].id
    assert LabImport.objects.filter(imported_at=times[1]).count() == 1
    new = LabImport.objects.create(
        sha256="d" * 64, source="manual", jurisdiction="d", parameters_version="v"
    )
    assert new.pk > rows[2].pk  # the sequence continues after the bulk rows
