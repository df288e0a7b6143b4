"""Importing the county's tax parcel roll: every row classified first, then applied at once.

:func:`preview` reads nothing but the database: it says of every row of a read roll
(:class:`sewer_io.parcels.ParcelFile`) whether it is **new** (no property has its SWIS and
SBL), **changed** (which fields), **unchanged**, **refused** (the file's own refusals, and
those only the office can see: the same SBL or tax parcel id twice, a tax parcel id another
property holds, a text longer than the register keeps) or held for **review** (a new SBL on
the ground of a parcel that left the roll). :func:`apply` stores the preview in one
transaction, with one audit event for the whole file — or nothing, when a row was refused,
when the same bytes were applied before, or when the register changed since the preview.

Matching. A row is the property with its SWIS code and SBL; a property entered by hand (no
SBL) is found by its tax parcel id, which the roll's parcel id or print key may equal (case,
spaces, dashes and dots aside); it takes the roll's keys then. Properties the clerk retired
(:class:`sewer_office.parcels.models.Retirement`) are not looked for.

Owners. See :mod:`sewer_office.parcels.owners`: one person per owner identity, found again
every year. A row whose owner is another person than the property's is an **owner change**: a
dated event (:class:`sewer_office.parcels.models.OwnerChange`, effective on the roll's date);
the property's owner becomes the roll's. A row whose owner has the property owner's name but
another mailing address is the same person, who moved: the person's mailing address becomes
the roll's.

Service areas. When districts' boundaries were imported (:mod:`sewer_office.parcels.districts`),
a parcel's area is the district its outline lies in (:func:`sewer_io.parcels.district_of`); a
parcel in none keeps the area it has. Without boundaries, areas are left as they are.

Parcels that left the roll. A property whose SBL (of a SWIS code the file covers) is no longer
on the roll is kept as it is. The new SBLs on its ground (:func:`sewer_io.parcels.shared_ground`
over the outlines) are not created: one :class:`sewer_office.parcels.models.ParcelReview`
(split, merge, redrawn) holds them for the clerk, who confirms or rejects it
(:mod:`sewer_office.parcels.reviews`). A gone parcel with no new parcel on its ground gets a
review of its own (gone). A pending review of the same parcels is not made twice.

An unchanged roll (the same parcels, read from other bytes) changes nothing: no property, no
person, no owner change, no review; its import is recorded
(:class:`sewer_office.parcels.models.RollImport` and its one audit event), which says that the
roll of that date was read and found the same.

The parts: :mod:`.common` (who imports, the columns kept, what the districts' import and the
reviews share), :mod:`.matching` (the register read, rows matched to properties and owners),
:mod:`.ground` (the reviews planned), :mod:`.classify` (the preview), :mod:`.applying` (its
application).
"""

from __future__ import annotations

from .applying import apply
from .classify import RollPreview, preview
from .common import (
    IMPORTERS,
    MAIL_FIELDS,
    PROPERTY_FIELDS,
    ImportPreview,
    Stale,
    check_importer,
    lock_register,
)
from .matching import persons_frame

__all__ = [
    "IMPORTERS",
    "MAIL_FIELDS",
    "PROPERTY_FIELDS",
    "ImportPreview",
    "RollPreview",
    "Stale",
    "apply",
    "check_importer",
    "lock_register",
    "persons_frame",
    "preview",
]
