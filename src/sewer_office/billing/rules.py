"""The seam to :mod:`sewer_rules` for billing: each town's values and parameter records
(:func:`params` and :func:`parameter_dict` are the permits' — one reading of a town's values for
the whole office), the town a billing record is computed under, and the message of an amount
not configured.

A charge is made *for* something — a permit, an approval, a subdivision, a facility's
surcharge, a violation's cost or fine — and is computed under that thing's town's values; the
charge records that town (``computation["town"]``) beside the version of its values, and is in
that town's books (``jurisdiction``, :mod:`.books`). An invoice's due date is its charges'
town's resolution, so an invoice bills the charges of one town (:func:`one_town`), and is in
that town's books.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sewer_office.accounts.towns import installed, primary, several
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.town_law import town_of
from sewer_office.permits.rules import StoredParameter, parameter_dict, params
from sewer_rules.parameters import ParameterError, ParameterValue

from .models import Charge

__all__ = [
    "StoredParameter",
    "charge_town",
    "not_configured_message",
    "one_town",
    "parameter_dict",
    "params",
    "person_fee_town",
    "value_in",
]

#: The key of a charge's computation that names the town whose values it was computed under.
TOWN = "town"


def not_configured_message(pv: ParameterValue, on: date, what: str, town: str) -> str:
    """Why a charge cannot be stated: the parameter, the town and the resolution to record."""
    return (
        f"{what}: {pv.name} is not configured in {town} on {on} (entry in force since "
        f"{pv.effective}, {pv.reference}). Record the Town Board resolution that sets it in "
        f"the jurisdiction's parameters before billing."
    )


def value_in(town: str, name: str, on: date, what: str) -> ParameterValue:
    """``town``'s value of ``name`` on ``on``; refused (not an error page) when the town's law
    has no such parameter at all."""
    try:
        return params(town).get(name, on)
    except ParameterError:
        raise Blocked(
            f"{what}: {town}'s law has no parameter {name}, so the office cannot state it for "
            "a record of that town."
        ) from None


def charge_town(charge: Charge) -> str:
    """The town whose values ``charge`` was computed under: the one it records; for a charge
    written before charges recorded it, the town of the facility or parcel it was made for,
    else the primary (the values every charge was computed under then)."""
    recorded = (charge.computation or {}).get(TOWN)
    if recorded:
        return str(recorded)
    for thing in (charge.establishment, charge.property):
        if thing is not None:
            return town_of(thing)
    return primary()


def one_town(charges: Iterable[Charge]) -> str:
    """The one town of ``charges``; refused when they are of several (each town's resolutions
    set its own due date: one invoice per town)."""
    towns = sorted({charge_town(c) for c in charges})
    if len(towns) != 1:
        raise Blocked(
            f"These charges are of several towns ({', '.join(towns)}): an invoice bills the "
            "charges of one town, whose resolutions set its due date (invoice.due_days). "
            "Issue one invoice per town."
        )
    return towns[0]


def person_fee_town(town: str | None, what: str) -> str:
    """The town of a fee charged to a person for nothing of a town (copies of the article,
    another fee of the jurisdiction): the town named; in an office of one town, that town
    (the installation's town is then every record's). In an office of several it must be
    named, since each town's resolutions set its own amount."""
    if town:
        if town not in installed():
            raise InvalidInput({"town": [f"{town!r} is not a town of this office."]})
        return town
    if not several():
        return primary()
    raise InvalidInput(
        {"town": [f"{what}: name the member town whose fee it is (each town sets its own)."]}
    )
