"""What the roll's import shares with the districts' import and the reviews' decisions.

Who may import (:data:`IMPORTERS`, :func:`check_importer`), the roll's columns the register
keeps, the part of a preview the roll and a districts file have in common
(:class:`ImportPreview`), the refusal of a preview the register outgrew (:class:`Stale`) and
the lock that makes imports one at a time (:func:`lock_register`).
"""

from __future__ import annotations

import polars as pl
from django.utils import timezone

from sewer_io.parcels import PARCEL_COLUMNS, DistrictFile, ParcelFile
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import sees_every_jurisdiction
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.accounts.towns import primary
from sewer_office.core import bulk
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.parcels.models import RollImport
from sewer_office.registry.models import Person, Property, ServiceArea

#: Who imports the roll and the districts, and decides the reviews (the office's clerk keeps
#: the register; the engineer and the Superintendent may do what the clerk does here).
IMPORTERS = (CLERK, ENGINEER, SUPERINTENDENT)

#: The owner's columns of the roll, kept on the person.
MAIL_FIELDS = ("mail_street", "mail_city", "mail_state", "mail_zip")
#: The roll's columns the office keeps on a property, compared to find what changed: all but
#: the row, the print key (only matched against a hand-entered parcel id) and the owner's
#: (kept on the person).
PROPERTY_FIELDS = tuple(
    c for c in PARCEL_COLUMNS if c not in ("row", "print_key", "owner", *MAIL_FIELDS)
)
#: The roll's columns the register keeps as numbers; every other one is text, trimmed.
NUMBER_COLUMNS = ("row", "acreage", "lon", "lat")
#: The property's short texts: all its columns but the numbers and the outline.
TEXT_FIELDS = tuple(c for c in PROPERTY_FIELDS if c not in (*NUMBER_COLUMNS, "geometry"))
#: Decimal places of the acreage (``Property.acreage``) and of a point's degrees compared.
ACRE_PLACES = 3
DEGREE_PLACES = 7


def check_importer(actor: Actor | None) -> None:
    """``actor`` None is the command line at the server, which acts for the office.

    In an office of several member towns the roll (a county's) touches every town's parcels:
    it is imported by an account that acts for all of them."""
    if actor is not None and not has_role(actor, *IMPORTERS):
        raise Forbidden("Importing the roll is for the clerk, the engineer and the Superintendent.")
    if actor is not None and not sees_every_jurisdiction(actor):
        raise Forbidden(
            "The roll touches every member town's parcels: import it with an account that acts "
            "for all of them."
        )


def area_towns() -> dict[int, str]:
    """Each service area's town: a parcel the roll places in an area belongs to its town."""
    return dict(ServiceArea.objects.values_list("id", "jurisdiction"))


def town_of(area: int | None, towns: dict[int, str]) -> str:
    """The town of a new parcel in ``area`` (none: the primary), ``towns`` being
    :func:`area_towns` read once for a whole decision."""
    return towns.get(area, primary()) if area is not None else primary()


def towns_of_areas(area: pl.Expr) -> pl.Expr:
    """:func:`town_of` for a column of areas (the roll's new parcels, in one pass)."""
    return area.replace_strict(area_towns(), default=primary(), return_dtype=pl.String).fill_null(
        primary()
    )


def lock_register() -> None:
    """Hold the register's tables to the end of the transaction (one import at a time)."""
    bulk.reserve_ids(Property, 0)
    bulk.reserve_ids(Person, 0)


class Stale(Blocked):
    """The register changed between the preview and its application: preview again."""


class ImportPreview:
    """What the previews of a roll and of a districts file share: the file read, the import of
    the same bytes already applied (if any), and the rows refused."""

    file: ParcelFile | DistrictFile
    previous: RollImport | None
    refusals: list[tuple[int, str, str]]

    @property
    def ok(self) -> bool:
        return not self.refusals and self.previous is None

    @property
    def source(self) -> str:
        return self.file.source

    def report_lines(self) -> list[str]:
        """Each refusal as "FILE, row N, field F: message"."""
        return [f"{self.source}, row {r}, field {f}: {m}" for r, f, m in self.refusals]

    def already_imported_message(self) -> str:
        prev = self.previous
        if prev is None:
            return ""
        return (
            f"{self.source}: this file was already imported on "
            f"{timezone.localtime(prev.imported_at):%Y-%m-%d %H:%M} (import #{prev.pk}, "
            f"{prev.source_name}); nothing was changed again"
        )

    def check_applicable(self) -> None:
        """:class:`Blocked` unless the file may be applied: not applied before, no row refused."""
        if self.previous is not None:
            raise Blocked(self.already_imported_message())
        if self.refusals:
            n = len(self.refusals)
            raise Blocked(
                f"{self.source}: {n} row error{'s' if n != 1 else ''}; nothing was applied"
            )
