"""What every reader of meter readings gives the rules: series, row errors, and how it failed.

A reader is a :class:`Source`: it yields each meter's series of each parameter and collects
the row errors it met on the way. Two readers exist: the general one
(:class:`.readings.SeriesSource`, polars; every layout, units, duplicates, row errors) and
the compiled one for historians' exports (:mod:`sewer_io.historian`, which takes a file only
when the general reader would read it without a remark). This module imports neither polars
nor the compiled module, so that judging a file the compiled reader takes loads no more than
it needs (``sewer-use slugs``' start-up is part of what its user waits for).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .series import Series

DEDUPE = ("first", "last", "mean")


class ReadingsError(ValueError):
    """A file that cannot be used at all (``sewer-use`` exit status 2)."""


@dataclass(frozen=True, order=True)
class RowError:
    row: int
    field: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"row": self.row, "field": self.field, "message": self.message}


@dataclass(frozen=True)
class ReadOptions:
    timezone: str = "America/New_York"
    dedupe: str | None = None
    meter: str | None = None
    parameter: str | None = None
    memory_budget: int = 256 * 2**20
    max_errors: int = 1000
    spill_dir: str | None = None

    def held_whole(self, estimate: int) -> bool:
        """Whether a file whose compact form would take ``estimate`` bytes is read into memory
        whole (else it is split on disk first, :mod:`sewer_io.readings`); a CSV's estimate is
        its size."""
        return estimate <= self.memory_budget


def first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


class Source(ABC):
    """A readings file read series by series. ``source`` names the file in messages. Row
    errors found along the way are collected in :attr:`errors` (the first ``max_errors`` by
    row) and counted in :attr:`errors_total`; :attr:`spilled` tells whether the file was
    split on disk to be read (a file larger than the memory budget)."""

    def __init__(self, source: str | Path, options: ReadOptions | None = None) -> None:
        self.path = Path(source)
        self.options = options or ReadOptions()
        if self.options.dedupe not in (None, *DEDUPE):
            raise ValueError(f"dedupe must be one of {', '.join(DEDUPE)}")
        self.errors: list[RowError] = []
        self.errors_total = 0
        self.spilled = False

    def _add_errors(self, errors: list[RowError], total: int) -> None:
        if total:
            self.errors_total += total
            self.errors.extend(errors)
            self.errors.sort()
            del self.errors[self.options.max_errors :]

    @abstractmethod
    def series(self) -> Iterator[Series]:
        """Each meter's series of each parameter, sorted by meter then parameter."""
