"""Each record under its own town's law: which law and which values a determination reads.

In an office of several member towns every record belongs to a town (its parcel's, through
``JURISDICTION_PATHS``), and every determination about it reads that town's package: a fee,
a clock, a fine's daily amount are the record's town's dated values, never the primary's.

The office's permits, limits, slugs, grease, fees, surcharges and the § 196-22 clock compute
Town Code Chapter 196, Article VII. A member town whose package keeps a law of its own (the
Town of Poughkeepsie's pretreatment articles) has its enforcement ladder computed from its
``law.yaml``; a determination of the article about one of its records is refused by
:func:`require_article`, with the town and the reason named, rather than made under another
town's law.
"""

from __future__ import annotations

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import foreign_to, jurisdiction_of
from sewer_office.accounts.towns import keeps_article, law_of, values_of
from sewer_rules.parameters import ParameterSet

from .errors import Blocked, Forbidden

#: The law the office's own determinations compute.
ARTICLE = "Town Code Chapter 196, Article VII"


class OtherLaw(Blocked):
    """A determination of Article VII asked about a record of a town under a law of its own."""


def town_of(record: object) -> str:
    """The member town whose law governs ``record`` (the primary for a record of none)."""
    return jurisdiction_of(record)


def values_for(record: object) -> ParameterSet:
    """The dated values of ``record``'s town."""
    return values_of(town_of(record))


def article_refusal(town: str, what: str) -> str:
    """Why ``what`` (a determination of the article, e.g. "A building sewer permit (§ 196-18)")
    is not made for a record of ``town``; "" when that town's law is Article VII."""
    if keeps_article(town):
        return ""
    law = law_of(town)
    name = law.name if law is not None else town
    return (
        f"{what} is a determination of {ARTICLE}; this record is of the {name}, whose sewer law "
        "is its own and does not provide it, so the office does not make it under another "
        f"town's law (`sewer-use sections --jurisdiction {town}` lists what its law provides)."
    )


def require_article(town: str, what: str) -> None:
    """Refuse ``what`` for a record of ``town`` unless that town's law is Article VII
    (:func:`article_refusal` says why)."""
    if why := article_refusal(town, what):
        raise OtherLaw(why)


def require_article_for(record: object, what: str) -> str:
    """:func:`require_article` for ``record``'s town; that town."""
    town = town_of(record)
    require_article(town, what)
    return town


def require_acting_for(actor: Actor | None, record: object, what: str) -> None:
    """Refuse a staff member acting on a record of a town they do not act for (the pages and
    the API never show it to them; a service called directly refuses it too)."""
    if (town := foreign_to(actor, record)) is not None:
        raise Forbidden(f"{what}: this record is {town}'s, a town you do not act for.")
