"""The towns an installation serves, from its settings alone.

``SEWER_USE_JURISDICTION`` names the primary town (the one a record belongs to when nothing
says otherwise); ``SEWER_USE_JURISDICTIONS`` the member towns of an installation that serves
several. This module reads settings and the towns' packages of law only (no model), so the
office's system checks and its models' defaults may use it before the apps are loaded; which
towns a user acts for is :mod:`.jurisdictions`'.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings

from sewer_rules.law_package import LawPackage, LawPackageError, load_law
from sewer_rules.parameters import ParameterSet, load_jurisdiction


def installed() -> tuple[str, ...]:
    """The installation's jurisdictions, the primary (``SEWER_USE_JURISDICTION``) first."""
    first = primary()
    listed = [str(j) for j in getattr(settings, "SEWER_USE_JURISDICTIONS", ()) if j]
    return (first, *(j for j in dict.fromkeys(listed) if j != first))


def primary() -> str:
    """The jurisdiction a record belongs to when nothing says otherwise: in a one-town
    installation, the town."""
    return str(settings.SEWER_USE_JURISDICTION)


def several() -> bool:
    return len(installed()) > 1


# --- each town's law -----------------------------------------------------------------------


def values_of(town: str) -> ParameterSet:
    """The dated values of ``town``'s law (its fees, days, amounts, rollover): a record is
    computed under its own town's values, never the primary's (docs/jurisdictions.md)."""
    return load_jurisdiction(town)


@cache
def law_of(town: str) -> LawPackage | None:
    """``town``'s package of law, or ``None`` for a bare ``parameters.yaml`` (Wappinger's
    article with values of its own, which has no ``law.yaml``). Answered once per town and
    process, as :func:`~sewer_rules.law_package.load_law` loads a package once: the answer
    "no package" is not a file read again for each record judged."""
    try:
        return load_law(town)
    except LawPackageError:
        return None


def keeps_article(town: str) -> bool:
    """Whether ``town``'s law is Town Code Chapter 196, Article VII (Wappinger's, the demo's,
    or the article with other values): the office's permits, limits, slugs, grease, fees,
    surcharges and § 196-22 clock compute that article. A town whose package keeps a law of
    its own (the Town of Poughkeepsie's) has its enforcement ladder computed from its
    ``law.yaml`` and the article's other determinations refused for its records."""
    law = law_of(town)
    return law is None or law.rules_registry
