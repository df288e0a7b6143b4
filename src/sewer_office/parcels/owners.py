"""Who owns a parcel on the roll: the roll's owner as one person of the registry.

A roll writes an owner once per parcel: the same owner of forty lots is forty rows. The office
keeps one person for them, found by their **identity**: the name compared as the registry
compares names for duplicates (:func:`sewer_office.registry.names.normalized`: accents, case,
punctuation and company-form words aside) and the mailing address (its street line the same
way, and its five-digit ZIP code, or its town when the roll gives no ZIP code). Rows of one
identity are one person; a person already in the registry with that identity is that person,
this year and every year after (a person merged into another is looked for as the survivor).

The work is done on whole columns (polars), so that a roll of 100,000 rows is matched in a
moment.
"""

from __future__ import annotations

import polars as pl

from sewer_office.registry.choices import PersonKind
from sewer_office.registry.names import NOISE
from sewer_office.registry.names import person_kind as kind_of_name

__all__ = ["identity", "name_key", "person_kind", "street_key"]


def _plain(col: pl.Expr) -> pl.Expr:
    """Lower case ASCII letters and digits, single spaces (accents and punctuation dropped)."""
    return (
        col.fill_null("")
        .str.normalize("NFKD")
        .str.replace_all(r"[^\x00-\x7f]", "")
        .str.to_lowercase()
        .str.replace_all(r"[^a-z0-9]+", " ")
        .str.strip_chars()
    )


def name_key(col: pl.Expr) -> pl.Expr:
    """A name as :func:`sewer_office.registry.names.normalized` compares it."""
    noise = sorted(NOISE)
    return (
        _plain(col)
        .str.split(" ")
        .list.eval(pl.element().filter(~pl.element().is_in(noise) & (pl.element() != "")))
        .list.join(" ")
    )


def street_key(col: pl.Expr) -> pl.Expr:
    return _plain(col)


def identity(name: pl.Expr, street: pl.Expr, city: pl.Expr, zip_code: pl.Expr) -> pl.Expr:
    """``name|street|zip5`` (or ``name|street|town`` without a ZIP code)."""
    zip5 = zip_code.fill_null("").str.replace_all(r"[^0-9]", "").str.slice(0, 5)
    place = pl.when(zip5.str.len_chars() == 5).then(zip5).otherwise(_plain(city))
    return pl.concat_str([name_key(name), street_key(street), place], separator="|")


def person_kind(name: str) -> str:
    """The kind of § 196-15 PERSON a roll's owner reads as (an individual unless its name says
    otherwise: :func:`sewer_office.registry.names.person_kind`)."""
    return kind_of_name(name, PersonKind.INDIVIDUAL)
