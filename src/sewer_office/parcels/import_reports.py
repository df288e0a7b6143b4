"""The shapes of an import's report: what a preview of a roll (:class:`RollReport`) or of a
districts file (:class:`DistrictReport`) says of each row, as the import page lists it and the
command line's JSON writes it (``sewer-use import-parcels --format json``). Their keys are a
contract scripts read: extend them, never rename them.

A row's keys depend on its outcome (a refused row has ``field`` and ``message``; a changed one
``changed``), hence the keys that are not always there.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

#: The import of the same bytes already applied: "import" is its id (a keyword of Python,
#: hence this form).
AlreadyImported = TypedDict("AlreadyImported", {"import": int, "at": str, "source_name": str})


class ParcelChange(TypedDict):
    """A changed row of the roll: its property and, per field, ``[before, after]``."""

    row: int
    key: str
    property: int
    fields: dict[str, list[Any]]


class RollRow(TypedDict):
    """One row of the roll that is not unchanged: new, changed, refused or held for review."""

    row: int
    swis: str
    sbl: str
    parcel_id: str
    outcome: str
    field: NotRequired[str]
    message: NotRequired[str]
    property: NotRequired[int]
    changed: NotRequired[dict[str, list[Any]]]
    review: NotRequired[str]


class PlannedReviewReport(TypedDict):
    """A split or a merge the import will hold for the clerk, by the parcels' keys."""

    kind: str
    gone: list[str]
    continuing: list[str]
    new: list[str]
    existing_review: int | None


class RollReport(TypedDict):
    """What applying a roll would do: the counts, the rows, the reviews."""

    new: int
    changed: int
    unchanged: int
    refused: int
    rows: list[RollRow]
    file: str
    sha256: str
    crs: str
    review: int
    owner_changes: int
    persons_new: int
    splits: int
    merges: int
    reviews: list[PlannedReviewReport]
    areas_assigned: int
    already_imported: NotRequired[AlreadyImported]


class DistrictRow(TypedDict):
    """One district of the file: new, changed, unchanged or refused."""

    row: int
    code: str
    outcome: str
    name: NotRequired[str]
    area: NotRequired[int]
    changed: NotRequired[list[str]]
    geometry: NotRequired[str]
    field: NotRequired[str]
    message: NotRequired[str]


class DistrictReport(TypedDict):
    """What applying a districts file would do (its unchanged districts left out of ``rows``)."""

    new: int
    changed: int
    unchanged: int
    refused: int
    rows: list[DistrictRow]
    file: str
    sha256: str
    crs: str
    properties_reassigned: int
    already_imported: NotRequired[AlreadyImported]
