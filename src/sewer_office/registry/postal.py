"""The parts of a US postal address and their checks: the state code and the ZIP code.

Why here, apart from :mod:`.addresses`: the models validate their fields with these, and
:mod:`.addresses` reads the models; the checks import nothing of the registry.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

from sewer_office.core.errors import InvalidInput

#: The USPS two-letter codes: the states, the District of Columbia, the territories and the
#: armed forces' "states" (AA, AE, AP), which a carrier sorts by.
STATES = frozenset(
    [
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "DC",
        "AS",
        "GU",
        "MP",
        "PR",
        "VI",
        "UM",
        "AA",
        "AE",
        "AP",
    ]
)
ZIP = re.compile(r"^\d{5}(?:-\d{4})?$")


def normalize_state(value: str) -> str:
    """A state code as stored: trimmed, upper case ("ny" → "NY")."""
    return (value or "").strip().upper()


def normalize_zip(value: str) -> str:
    """A ZIP code as stored: trimmed; nine digits written as ZIP+4 ("125901234" → "12590-1234")."""
    value = (value or "").strip().replace(" ", "")
    if re.fullmatch(r"\d{9}", value):
        return f"{value[:5]}-{value[5:]}"
    return value


def validate_state(value: str) -> None:
    """Blank (not yet recorded), or a USPS two-letter code."""
    code = normalize_state(value)
    if code and code not in STATES:
        raise ValidationError(
            f"State: {value!r} is not a two-letter US state code (such as NY).", code="state"
        )


def validate_zip(value: str) -> None:
    """Blank (not yet recorded), or five digits, or ZIP+4 (12590 or 12590-1234)."""
    code = normalize_zip(value)
    if code and not ZIP.match(code):
        raise ValidationError(
            f"ZIP code: {value!r} is not five digits or ZIP+4 (such as 12590 or 12590-1234).",
            code="zip",
        )


def locality_line(city: str, state: str, zip_code: str) -> str:
    """The line a carrier sorts by, as written: "Wappingers Falls, NY 12590" (blank parts left
    out, so an incomplete address shows as incomplete)."""
    tail = " ".join(p for p in (state.strip(), zip_code.strip()) if p)
    return ", ".join(p for p in (city.strip(), tail) if p)


def cleaned(fields: dict[str, str] | None, state_key: str, zip_key: str) -> dict[str, str]:
    """The parts of an address trimmed, its state and ZIP code normalized and checked: every
    bad one refused at once, with its field named."""
    out = {k: (v or "").strip() for k, v in (fields or {}).items()}
    out[state_key] = normalize_state(out.get(state_key, ""))
    out[zip_key] = normalize_zip(out.get(zip_key, ""))
    errors: dict[str, list[str]] = {}
    for key, check in ((state_key, validate_state), (zip_key, validate_zip)):
        try:
            check(out[key])
        except ValidationError as e:
            errors[key] = list(e.messages)
    if errors:
        raise InvalidInput(errors)
    return out
