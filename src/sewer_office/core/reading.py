"""Numbers and parameters as people read them: one set of functions for pages, PDFs and exports.

The record and the computation keep exact values (a flow-weighted mean of grab results is
``129.0384615384615384615384615`` mg/l, a charge before rounding ``USD 500.3182038…``); what a
person reads is rounded, here and nowhere else:

- **Amounts** to the cent, half-up, with the currency: ``USD 1,234.57`` (:func:`amount`).
- **Measured values** (a laboratory's result) as the laboratory reported them: its digits are
  the precision measured (``0.050`` mg/l stays ``0.050``), only thousands are grouped
  (:func:`measured`).
- **Computed quantities** (means, excesses, pounds, volumes, flows) to four significant
  figures, never dropping a whole-number digit (:func:`quantity`): ``129.0384615…`` →
  ``129.0``, ``909.6694615…`` → ``909.7``, ``51660.92`` → ``51,661``. Why four: laboratories
  report the conventional pollutants (BOD, suspended solids, grease and oil) to two or three
  significant figures, so a fourth keeps every digit a measurement carries plus one, and a
  rounded value is never more than 0.05 % from the exact one — a reader comparing it with a
  limit or redoing the arithmetic (excess × volume × 8.34) is not misled. The exact value stays
  in the record, on hover on the page (``title``) and in the computation of the charge.
- **Text** written by the software with numbers in it (a charge's computation steps, a
  message) is rewritten number by number (:func:`readable`): amounts to the cent, long
  computed numbers to four significant figures; short numbers (``245.25``, ``0.45``) and dates
  are left as written.
- **Parameters** by name, value, date and authority in words (:func:`parameter_words`):
  ``surcharge.pounds_factor = 8.34 1 since 1992-09-28 ()`` → ``Pounds factor: 8.34 since
  September 28, 1992 (§ 196-19 E(1)(d); no authority recorded)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

CENT = Decimal("0.01")
#: Significant figures of a computed quantity (see the module's docstring for why four).
SIGNIFICANT = 4
#: A reported value with more significant digits than this was computed, not measured.
MEASURED_DIGITS_MAX = 8

#: Words for the short forms that appear in parameter keys.
_KEY_WORDS = {
    "bod": "BOD",
    "bod5": "BOD5",
    "tss": "TSS",
    "ph": "pH",
    "trc": "TRC",
    "snc": "SNC",
    "gpd": "gpd",
    "cod": "COD",
}
#: Pollutant keys of the billing rules (in parameter keys and computation steps) in words.
_POLLUTANT_WORDS = {
    "bod": "BOD",
    "suspended_solids": "suspended solids",
    "grease_oil": "grease or oil",
    "oil_grease": "oil and grease",
}
_POLLUTANT_IN_TEXT = re.compile(r"\b(" + "|".join(_POLLUTANT_WORDS) + r")\b")
#: Names of parameters whose key does not read well word by word.
_PARAMETER_NAMES = {
    "invoice.due_days": "Days to pay an invoice",
    "surcharge.pounds_factor": "Pounds factor",
    "notice.correction_days": "Days to correct after a notice",
    "fine.daily_amount": "Fine per day of violation",
}
#: Units as words after a value (``"1"`` is a pure number: no unit).
_UNIT_WORDS = {"1": "", "day": "days", "h": "hours", "min": "minutes", "USD/lb": "per lb"}
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def to_decimal(value: Any) -> Decimal | None:
    """``value`` as a finite Decimal (``"1,234.5"`` included), or None if it is no number."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    try:
        d = Decimal(str(value).replace(",", "").strip())
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def number_or_text(value: Any) -> Any:
    """A value as a number where it is one (``"0.050"`` → ``Decimal("0.050")``), else as it is
    (``"<0.5"``, ``"ND"``): a download's cell typed as what it holds."""
    d = to_decimal(value) if isinstance(value, str) else None
    return d if d is not None and "," not in value else value


def analyte(name: str) -> str:
    """An analyte's canonical name in words (``oil_grease`` → its label), else as it is."""
    from sewer_rules.analytes import BY_NAME

    found = BY_NAME.get(str(name))
    return found.label if found is not None else str(name)


def pollutant(key: str) -> str:
    """A pollutant key of the billing rules in words (``grease_oil`` → ``grease or oil``)."""
    return _POLLUTANT_WORDS.get(str(key)) or analyte(key)


def cents(value: Any) -> Decimal | None:
    """An amount rounded half-up to the cent (None if not a number)."""
    d = to_decimal(value)
    return None if d is None else d.quantize(CENT, rounding=ROUND_HALF_UP)


def amount(value: Any, currency: str = "USD") -> str:
    """``1234.5671`` → ``USD 1,234.57``; a negative amount ``USD −5.00``; not a number: as is."""
    q = cents(value)
    if q is None:
        return "" if value is None else str(value)
    sign = "−" if q < 0 else ""
    return f"{currency} {sign}{abs(q):,.2f}"


def round_quantity(d: Decimal, figures: int = SIGNIFICANT) -> Decimal:
    """``d`` to ``figures`` significant figures, half-up, but never coarser than a unit (a
    whole-number digit is never dropped: ``51660.92`` → ``51661``)."""
    if d == 0:
        return Decimal(0)
    exponent = min(d.adjusted() - figures + 1, 0)
    if int(d.as_tuple().exponent) >= exponent:
        return d  # already as short: rounding never adds digits (``95`` stays ``95``)
    return d.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP)


def _grouped(d: Decimal) -> str:
    """``d`` written in full with thousands grouped, keeping its decimal places."""
    text = f"{d:,f}"
    return "−" + text[1:] if text.startswith("-") else text


def quantity(value: Any, figures: int = SIGNIFICANT) -> str:
    """A computed quantity for reading: ``129.0384615…`` → ``129.0``; not a number: as is."""
    d = to_decimal(value)
    if d is None:
        return "" if value is None else str(value)
    return _grouped(round_quantity(d, figures))


def measured(value: Any) -> str:
    """A measured value as reported (``0.050`` stays ``0.050``; ``12500`` → ``12,500``).

    A value with more significant digits than any laboratory reports (more than eight) was
    computed, not measured: it is shown as a :func:`quantity`. Text that is not a number
    (``<0.5``, ``ND``) is shown as it is.
    """
    d = to_decimal(value)
    if d is None:
        return "" if value is None else str(value)
    if len(d.as_tuple().digits) > MEASURED_DIGITS_MAX:
        return quantity(d)
    return _grouped(d)


# --- numbers inside text ------------------------------------------------------------------

#: ``USD 27.190485`` (not a rate: ``USD 0.45/lb`` is left alone).
_AMOUNT_IN_TEXT = re.compile(r"(USD\s?|\$)(-?\d[\d,]*\.\d{3,})(?![\d/])")
#: A number with three or more decimal places, not part of a date or a code.
_NUMBER_IN_TEXT = re.compile(r"(?<![\w.\-/])(-?\d[\d,]*\.\d{3,})(?![\w.\-/])")


def _shorter(match: re.Match[str]) -> str:
    text = match.group(1)
    d = to_decimal(text)
    if d is None or len(d.as_tuple().digits) <= SIGNIFICANT + 1:
        return text
    return f"{round_quantity(d)}"


def readable(text: Any) -> str:
    """Text written by the software, its long numbers rounded for reading.

    ``grease_oil excess … = 909.6694615384615384615384611 lb × USD 0.55/lb = USD 500.31820…``
    → ``grease or oil excess … = 909.7 lb × USD 0.55/lb = USD 500.32``. Numbers of five
    significant digits or fewer (``245.25``, ``1.38``), whole numbers and dates are left as
    written; the billing rules' pollutant keys are put in words.
    """
    if text is None:
        return ""
    out = _AMOUNT_IN_TEXT.sub(lambda m: f"{m.group(1)}{cents(m.group(2)):,}", str(text))
    out = _POLLUTANT_IN_TEXT.sub(lambda m: _POLLUTANT_WORDS[m.group(1)], out)
    return _NUMBER_IN_TEXT.sub(_shorter, out)


# --- parameters in words -----------------------------------------------------------------


def long_date(value: Any) -> str:
    """``2026-09-28`` (a date or its ISO text) → ``September 28, 2026``; other text as is."""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return str(value)
    if isinstance(value, date):
        return f"{_MONTHS[value.month - 1]} {value.day}, {value.year}"
    return "" if value is None else str(value)


def parameter_name(key: str) -> str:
    """A parameter key in words: ``surcharge.rate.bod`` → ``Surcharge rate BOD``;
    ``normal_sewage.grease_oil`` → ``Normal sewage grease or oil``."""
    if key in _PARAMETER_NAMES:
        return _PARAMETER_NAMES[key]
    words: list[str] = []
    for segment in str(key).split("."):
        if segment in _POLLUTANT_WORDS:
            words.append(_POLLUTANT_WORDS[segment])
            continue
        words.extend(_KEY_WORDS.get(part.lower(), part) for part in segment.split("_") if part)
    text = " ".join(words)
    return text[:1].upper() + text[1:]


@lru_cache(maxsize=4)
def _descriptions(jurisdiction: str) -> dict[str, str]:
    from sewer_rules.parameters import load_jurisdiction

    try:
        return {p.name: p.description for p in load_jurisdiction(jurisdiction)}
    except Exception:
        return {}


def parameter_description(key: str) -> str:
    """What the jurisdiction's parameter file says the parameter is (empty if unknown)."""
    from django.conf import settings

    return _descriptions(str(settings.SEWER_USE_JURISDICTION)).get(str(key), "")


def parameter_value(value: Any, unit: str) -> str:
    """A parameter's value with its unit in words: ``USD 0.45 per lb``, ``30 days``, ``8.34``."""
    if value is None or value == "":
        return "not configured"
    unit = unit or ""
    if unit.startswith("USD"):
        rest = _UNIT_WORDS.get(unit, unit[3:].lstrip("/"))
        d = to_decimal(value)
        shown = f"USD {_grouped(d)}" if d is not None else f"USD {value}"
        return f"{shown} {rest}".strip()
    words = _UNIT_WORDS.get(unit, unit)
    d = to_decimal(value)
    shown = _grouped(d) if d is not None else str(value)
    if words == "days" and d == 1:
        words = "day"
    return f"{shown} {words}".strip()


def parameter_words(p: Mapping[str, Any] | Any) -> str:
    """A dated parameter value as a sentence: name, value, since when, on what authority.

    Takes the mapping a computation stores (``name``, ``value``, ``unit``, ``effective``,
    ``reference``, ``authority``) or a :class:`sewer_rules.parameters.ParameterValue`.
    """
    get = p.get if isinstance(p, Mapping) else (lambda k, d=None: getattr(p, k, d))
    key = str(get("name", "") or "")
    if not key:
        return ""
    value = get("text", None) if not isinstance(p, Mapping) else None
    value = value if value is not None else get("value", None)
    head = f"{parameter_name(key)}: {parameter_value(value, str(get('unit', '') or ''))}"
    effective = get("effective", None)
    if effective:
        head += f" since {long_date(effective)}"
    basis = [str(x) for x in (get("reference", ""), get("authority", "")) if x]
    if not get("authority", ""):
        basis.append("no authority recorded")
    return f"{head} ({'; '.join(basis)})"
