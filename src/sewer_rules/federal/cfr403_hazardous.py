"""40 CFR 403.12(p) — a user's notification of hazardous waste discharged to the sewer.

403.12(p)(1): a user that discharges to the treatment works a substance which, disposed of
otherwise, would be a hazardous waste under 40 CFR 261 notifies in writing the POTW, the EPA
Regional Waste Management Division Director and the State hazardous waste authorities. The
notice names the waste (as 40 CFR 261 names it), gives its EPA hazardous waste number and says
whether the discharge is continuous, batch or other. Above 100 kilograms of such waste in a
calendar month it also gives, "to the extent such information is known and readily available":
the hazardous constituents, an estimate of their mass and concentration in that month's
wastestream, and an estimate of their mass in the following twelve months. It is sent within
180 days after the discharge begins, once per waste (a changed discharge is reported under
403.12(j)). 403.12(p)(2): a month with no more than 15 kilograms of hazardous waste needs no
notice, unless the waste is acute (40 CFR 261.30(d), 40 CFR 261.33(e)). 403.12(p)(4): every
notice certifies that the user has a program to reduce the volume and toxicity of its hazardous
wastes to the degree it has found economically practical.

:func:`lacks` says what a notice is missing, each with the paragraph that asks for it, so the
office refuses an incomplete notice naming the field. The three figures of the rule are dated
data (:data:`THRESHOLDS`). The "known and readily available" qualifier is honoured for the two
estimates: a notice may instead say what is not known and why; the constituents themselves are
always named above 100 kg (a user that discharges a listed waste knows what it is).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum

from sewer_rules.citations import ExternalReference

CITATION = ExternalReference("40 CFR 403.12(p)")
CONTENTS = "40 CFR 403.12(p)(1)"
EXEMPTION = "40 CFR 403.12(p)(2)"
MINIMIZATION = "40 CFR 403.12(p)(4)"


class DischargeType(StrEnum):
    """The type of discharge 403.12(p)(1) asks for."""

    CONTINUOUS = "continuous"
    BATCH = "batch"
    OTHER = "other"


@dataclass(frozen=True)
class Thresholds:
    """403.12(p)'s figures as in force from ``since``."""

    since: date
    detail_kg: Decimal  # above this a month's waste needs the constituents (p)(1)
    exempt_kg: Decimal  # at or below this a month needs no notice, unless acute (p)(2)
    notify_days: int  # days after the discharge begins within which the notice is due (p)(1)


#: The figures since 403.12(p) took effect (24 July 1990, 55 FR 30082).
THRESHOLDS: tuple[Thresholds, ...] = (
    Thresholds(date(1990, 7, 24), Decimal("100"), Decimal("15"), 180),
)


def thresholds_on(day: date) -> Thresholds:
    found = [t for t in THRESHOLDS if t.since <= day]
    if not found:
        raise ValueError(f"{CITATION} was not in force on {day.isoformat()}")
    return max(found, key=lambda t: t.since)


#: An EPA hazardous waste number: a list letter (D characteristic; F, K listed sources; P acute,
#: U toxic commercial chemical products) and three digits (40 CFR 261).
WASTE_NUMBER = re.compile(r"^[DFKPU][0-9]{3}$")
#: Wastes of the F list marked acute ("H") in 40 CFR 261.31; the whole P list is acute.
ACUTE_F = frozenset({"F020", "F021", "F022", "F023", "F026", "F027"})


def normal_number(text: str) -> str:
    return text.strip().upper().replace(" ", "")


def is_acute(number: str) -> bool:
    """Whether the waste is acute hazardous (40 CFR 261.30(d), 40 CFR 261.33(e))."""
    n = normal_number(number)
    return n.startswith("P") or n in ACUTE_F


@dataclass(frozen=True)
class Notice:
    """What a notification states (texts as written; ``monthly_kg`` the mass of the waste
    discharged in a calendar month)."""

    waste_name: str
    waste_number: str
    discharge_type: str
    discharge_detail: str
    monthly_kg: Decimal | None
    constituents: str
    month_estimate: str
    year_estimate: str
    not_known: str
    minimization_certified: bool


@dataclass(frozen=True)
class Lack:
    """One thing a notice is missing: the field, the paragraph that asks for it, what to add."""

    field: str
    citation: str
    text: str

    @property
    def message(self) -> str:
        return f"{self.text} ({self.citation})."


def needs_detail(notice: Notice, on: date) -> bool:
    """Above the monthly mass of (p)(1), the constituents and the estimates are asked for."""
    return notice.monthly_kg is not None and notice.monthly_kg > thresholds_on(on).detail_kg


def exempt(notice: Notice, on: date) -> bool:
    """A month with no more than the (p)(2) mass of a waste that is not acute needs no
    notice (a notice sent anyway is recorded as sent)."""
    t = thresholds_on(on)
    return (
        notice.monthly_kg is not None
        and notice.monthly_kg <= t.exempt_kg
        and not is_acute(notice.waste_number)
    )


def due_by(began_on: date) -> date:
    """The last day for the notice of a discharge that began on ``began_on`` ((p)(1))."""
    return began_on + timedelta(days=thresholds_on(began_on).notify_days)


def lacks(notice: Notice, on: date) -> list[Lack]:
    """What the notice is missing, in the order of the rule."""
    out: list[Lack] = []
    if not notice.waste_name.strip():
        out.append(
            Lack("waste_name", CONTENTS, "The name of the hazardous waste, as 40 CFR 261 names it")
        )
    number = normal_number(notice.waste_number)
    if not number:
        out.append(Lack("waste_number", CONTENTS, "The EPA hazardous waste number (e.g. F006)"))
    elif not WASTE_NUMBER.match(number):
        out.append(
            Lack(
                "waste_number",
                CONTENTS,
                f"“{notice.waste_number.strip()}” is not an EPA hazardous waste number: a letter "
                "D, F, K, P or U and three digits (e.g. F006)",
            )
        )
    if notice.discharge_type not in {t.value for t in DischargeType}:
        out.append(
            Lack("discharge_type", CONTENTS, "The type of discharge: continuous, batch or other")
        )
    elif notice.discharge_type == DischargeType.OTHER and not notice.discharge_detail.strip():
        out.append(Lack("discharge_detail", CONTENTS, "What the other type of discharge is"))
    if notice.monthly_kg is None:
        out.append(
            Lack(
                "monthly_kg",
                CONTENTS,
                "The mass of the waste discharged in a calendar month, in kilograms",
            )
        )
    elif notice.monthly_kg < 0:
        out.append(Lack("monthly_kg", CONTENTS, "A mass is zero or more kilograms"))
    if needs_detail(notice, on):
        above = f"above {thresholds_on(on).detail_kg} kg a month"
        if not notice.constituents.strip():
            out.append(
                Lack("constituents", CONTENTS, f"The hazardous constituents of the waste ({above})")
            )
        if not notice.not_known.strip():
            if not notice.month_estimate.strip():
                out.append(
                    Lack(
                        "month_estimate",
                        CONTENTS,
                        "An estimate of the mass and concentration of the constituents in the "
                        f"month's wastestream ({above}), or say below what is not known and why",
                    )
                )
            if not notice.year_estimate.strip():
                out.append(
                    Lack(
                        "year_estimate",
                        CONTENTS,
                        "An estimate of the mass of the constituents expected in the following "
                        f"twelve months ({above}), or say below what is not known and why",
                    )
                )
    if not notice.minimization_certified:
        out.append(
            Lack(
                "minimization_certified",
                MINIMIZATION,
                "The certification that a program is in place to reduce the volume and toxicity "
                "of the hazardous wastes generated, to the degree found economically practical",
            )
        )
    return out
