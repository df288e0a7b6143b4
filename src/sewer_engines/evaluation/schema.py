"""Column schemas of the engine's long-form outputs (findings and advisories)."""

from __future__ import annotations

import polars as pl

FINDING_SCHEMA = {
    "row": pl.Int64,
    "status": pl.String,
    "citation": pl.String,
    "limit": pl.String,
    "limit_unit": pl.String,
    "message": pl.String,
    "parameter": pl.String,
    "effective": pl.Date,
}
ADVISORY_SCHEMA = {"row": pl.Int64, "code": pl.String, "citation": pl.String, "message": pl.String}

#: The fields of a finding and of an advisory as reports show them, in the contract's order.
FINDING_FIELDS = ("status", "citation", "limit", "limit_unit", "message")
ADVISORY_FIELDS = ("code", "citation", "message")
