"""Each member town's books: the town a charge, an invoice, a payment or a refund is written in,
and who may read and act on them.

Each member town bills under its own resolutions and takes its own money, so an office of
several towns keeps one set of books per town (docs/jurisdictions.md). Every billing record
names its town (``jurisdiction``), written with it and never changed:

- a charge is the town whose values it was computed under (:func:`.ledger.create_charge`);
- an invoice is its charges' town's (:func:`.rules.one_town`), a credit note its invoice's;
- a payment is the town of the invoices it is applied to when it is recorded: one town, since
  each town's clerk receipts its own money (a payment spanning two towns' invoices is
  refused); applied to none, the town named, else the one town the clerk acts for, else the
  primary (:func:`payment_town`);
- a refund is its payment's town's (:func:`.credit.refund`).

A payment, and a person's credit, pays invoices of its own town only: one town's money never
settles another town's invoice (:func:`require_same_town`). A staff member reads the books of
the towns they act for (``JURISDICTION_PATHS``, through :func:`~sewer_office.accounts.access.
visible`) and acts on them only (:func:`require_acting_for`), as the other services refuse a
record of another town. In an office of one town every record is that town's: nothing changes.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, TypeVar

from django.db import models

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import kept_from, towns_of, towns_seen
from sewer_office.accounts.towns import installed, primary, several, values_of
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput

M = TypeVar("M", bound=models.Model)


def books_offered(user: Actor | None) -> list[tuple[str, str]]:
    """The towns whose books ``user`` may receive a payment into, named: offered on the payment
    page only when there are several (one, or an office of one town: nothing to choose)."""
    return [(t, values_of(t).name) for t in towns_of(user)] if several() else []


def several_books(user: Actor | None) -> bool:
    """Whether ``user`` reads the books of more than one town: the money lists then name each
    row's town."""
    if not several():
        return False
    seen = towns_seen(user)
    return seen is None or len(seen) > 1


def in_towns(
    qs: models.QuerySet[M], towns: Collection[str] | None, field: str = "jurisdiction"
) -> models.QuerySet[M]:
    """``qs`` narrowed to the books of ``towns`` (every town's when ``None``)."""
    assert not isinstance(towns, str), "a collection of towns, not one town's name"
    return qs if towns is None else qs.filter(**{f"{field}__in": sorted(towns)})


def require_acting_for(actor: Actor | None, town: str, what: str) -> None:
    """Refuse a staff member who does not act for ``town`` (its books are not theirs); a daily
    job, or a single town's office, is never refused here."""
    if kept_from(actor, town):
        raise Forbidden(f"{what}: this is in {town}'s books, a town you do not act for.")


def named_town(town: str) -> str:
    """A town named by the caller, checked: one of the installation's."""
    if town not in installed():
        raise InvalidInput({"town": [f"{town!r} is not a town of this office."]})
    return town


def invoices_town(invoices: Iterable[Any], what: str) -> str | None:
    """The one town of ``invoices`` (``None`` when there is none); refused when they are of
    several: a payment is received into one town's books and pays that town's invoices."""
    rows = list(invoices)
    towns = sorted({inv.jurisdiction for inv in rows})
    if len(towns) > 1:
        numbers = ", ".join(f"{inv.number} ({inv.jurisdiction})" for inv in rows)
        raise Blocked(
            f"{what}: invoices {numbers} are of several towns ({', '.join(towns)}). Each "
            "town's money pays that town's invoices only: record one payment per town."
        )
    return towns[0] if towns else None


def payment_town(actor: Actor | None, invoices: Iterable[Any], town: str = "") -> str:
    """The town a payment is received into: its invoices' town; applied to none, ``town`` when
    named, else the one town the clerk acts for, else the primary. Refused when the invoices
    are of several towns, when ``town`` is not theirs, or when the clerk does not act for it."""
    theirs = invoices_town(invoices, "Recording a payment")
    named = named_town(town) if town else ""
    if theirs and named and named != theirs:
        raise Blocked(
            f"Recording a payment: the invoices are {theirs}'s, not {named}'s: a payment is "
            "received into the books of the town whose invoices it pays."
        )
    acting = towns_of(actor)
    chosen = theirs or named or (acting[0] if len(acting) == 1 else primary())
    require_acting_for(actor, chosen, "Recording a payment")
    return chosen


def require_same_town(payment: Any, invoice: Any) -> None:
    """Refuse applying ``payment`` (or credit out of it) to an invoice of another town."""
    if payment.jurisdiction != invoice.jurisdiction:
        raise Blocked(
            f"Payment {payment.receipt_number} is in {payment.jurisdiction}'s books and "
            f"invoice {invoice.number} is {invoice.jurisdiction}'s: a town's money pays that "
            "town's invoices only."
        )
