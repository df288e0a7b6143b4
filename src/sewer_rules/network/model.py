"""The sewer network's records — manholes, pipes, connections — and what is wrong with a file.

Errors are collected, never raised one at a time: a file is imported whole or not at all, and
:class:`NetworkError` carries every :class:`NetworkIssue`, each naming the feature (its index in
the file and its id) and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .geo import Point


@dataclass(frozen=True)
class NetworkIssue:
    """One problem with one feature (or with the file, when ``index`` is None).

    ``source`` is ``features`` for GeoJSON (``index`` is the 0-based position in the
    ``features`` array) or a CSV file name (``index`` is the line number, the header being 1).
    """

    source: str
    index: int | None
    kind: str | None
    feature_id: str | None
    field: str
    message: str

    @property
    def location(self) -> str:
        if self.index is None:
            where = self.source
        elif self.source == "features":
            where = f"features[{self.index}]"
        else:
            where = f"{self.source} line {self.index}"
        if self.kind or self.feature_id:
            label = " ".join(x for x in (self.kind, self.feature_id) if x)
            where += f" ({label})"
        return where

    def __str__(self) -> str:
        return f"{self.location}: {self.field}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "index": self.index,
            "kind": self.kind,
            "id": self.feature_id,
            "field": self.field,
            "message": self.message,
        }


class NetworkFormatError(ValueError):
    """A file that cannot be read as a network at all (not JSON, no FeatureCollection, bad CRS)."""


class NetworkError(ValueError):
    """A network file with errors: ``issues`` lists every one; nothing is imported."""

    def __init__(self, issues: list[NetworkIssue] | tuple[NetworkIssue, ...]) -> None:
        self.issues = tuple(issues)
        n = len(self.issues)
        head = f"{n} error{'s' if n != 1 else ''} in the network"
        super().__init__("\n".join([head, *(f"  {i}" for i in self.issues)]))


@dataclass(frozen=True)
class Manhole:
    id: str
    public: bool
    position: Point
    source: str
    index: int


@dataclass(frozen=True)
class Pipe:
    """A sewer main from manhole ``from_manhole`` to ``to_manhole``: flow runs that way."""

    id: str
    from_manhole: str
    to_manhole: str
    public: bool
    diameter_in: Decimal | None
    coordinates: tuple[Point, ...]
    length_m: float
    source: str
    index: int


@dataclass(frozen=True)
class Connection:
    """A building sewer's connection to a main (``pipe``) or at a manhole (``manhole``).

    ``entry_manhole`` is the first manhole its flow reaches (the pipe's downstream end, or the
    manhole itself) and ``offset_m`` the distance along the pipe from the connection's point to
    that manhole (0 at a manhole). ``distance_to_pipe_m`` is how far the given point lies from
    the pipe's line (the point is projected onto it).
    """

    parcel: str
    pipe: str | None
    manhole: str | None
    position: Point | None
    entry_manhole: str
    offset_m: float
    source: str
    index: int
    id: str | None = None
    distance_to_pipe_m: float | None = None

    @property
    def label(self) -> str:
        at = f"pipe {self.pipe}" if self.pipe else f"manhole {self.manhole}"
        return f"parcel {self.parcel} at {at}"
