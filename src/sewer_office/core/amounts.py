"""An amount of money typed by a user (a payment, a fine imposed, a collection): one reading
everywhere, so that a fine and the money paid on it are read alike."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from .errors import InvalidInput

#: Dollars and cents: the smallest amount the Town bills or receives.
CENT = Decimal("0.01")


def dollars(value: Any, field: str) -> Decimal:
    """A positive amount in dollars and cents ("1,250", "$85.00"), or :class:`InvalidInput`
    naming ``field``: never more than two decimal places, never zero or less."""
    try:
        amount = Decimal(str(value).strip().replace(",", "").lstrip("$"))
    except (InvalidOperation, ValueError):
        raise InvalidInput({field: [f"{value!r} is not an amount in dollars."]}) from None
    if not amount.is_finite() or amount <= 0:
        raise InvalidInput({field: ["The amount must be more than zero."]})
    if amount != amount.quantize(CENT):
        raise InvalidInput({field: ["The amount has more than two decimal places (cents)."]})
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)
