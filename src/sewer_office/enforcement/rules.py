"""The enforcement app's seam to the law as code.

Nothing is computed here that :mod:`sewer_rules` already computes: the correction deadline is
:func:`~sewer_rules.ordinance.s196_22_penalties.notice_deadline`, the fine
:func:`~sewer_rules.ordinance.s196_22_penalties.accrued_fines`, the responses the
:mod:`sewer_rules.enforcement_guide`. This module reads the jurisdiction of the
``SEWER_USE_JURISDICTION`` setting and turns the rules' errors into :class:`InvalidInput`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sewer_office.accounts.towns import primary, values_of
from sewer_office.core.errors import InvalidInput
from sewer_rules.citations import (
    Citation,
    CitationError,
    FederalCitation,
    lies_within,
    read_cited,
)
from sewer_rules.enforcement_guide import (
    EnforcementGuide,
    GuideError,
    Response,
    first_response,
    load_guide,
    next_response,
)
from sewer_rules.federal.provisions import federal_subject
from sewer_rules.ordinance.s196_22_penalties import (
    DAILY_AMOUNT,
    ClockError,
    Deadline,
    FineComputation,
    accrued_fines,
    notice_deadline,
    procedure_for,
)
from sewer_rules.parameters import ParameterSet, ParameterValue

__all__ = [
    "DAILY_AMOUNT",
    "ClockError",
    "Deadline",
    "FineComputation",
    "Response",
    "accrued_fines",
    "lies_within",
    "procedure_for",
]

#: Where the Town records the daily amount when it is not configured (§ 196-22 B refers to it).
AMOUNT_SOURCE = "Town Code § 122-20 Y"


def params(town: str) -> ParameterSet:
    """The dated values of ``town``, whose record is computed."""
    return values_of(town)


def guide() -> EnforcementGuide:
    """The enforcement response plan: the Control Authority's, one for the plant and its member
    towns (40 CFR 403.8(f)(5)), so the installation's (its primary town's) guide. It classifies
    a violation and names the first response; a town whose law is its own issues that response
    as its own ladder's notice (:mod:`.town_ladder`)."""
    return load_guide(primary())


def kind_choices(day: date) -> list[tuple[str, str]]:
    """The kinds of violation of the guide in force on ``day`` (code, label)."""
    return [(k.kind, k.label) for k in guide().on(day).kinds.values()]


def kind_label(kind: str, day: date) -> str:
    try:
        return guide().kind(kind, day).label
    except GuideError:
        return kind


def section(text: str, field: str = "section") -> str:
    """``text`` as the provision(s) cited in the town's format, else InvalidInput: a citation of
    the article, or a federal requirement the software knows (``40 CFR 403.12(e)``), several
    joined by "; " (significant noncompliance and the provision broken)."""
    try:
        cited = read_cited(text)
        for c in cited:
            if isinstance(c, FederalCitation):
                federal_subject(c)
    except CitationError as e:
        raise InvalidInput(
            {field: [f"{e} (write e.g. § 196-19 C(3) or 40 CFR 403.12(e))"]}
        ) from None
    return "; ".join(str(c) for c in cited)


def _article(violated: str) -> Citation | None:
    """The first citation of the article in a (possibly compound, possibly federal) section."""
    try:
        return next((c for c in read_cited(violated) if isinstance(c, Citation)), None)
    except CitationError:
        return None


def is_damage(violated: str) -> bool:
    """Whether ``violated`` is § 196-20: referred at once, never a correction clock."""
    return not procedure_for(violated).correction_clock


def first(kind: str, violated: str, day: date, severity: str | None = None) -> Response:
    """The first response to a violation of ``kind`` (of ``severity``, under a plan)."""
    try:
        return first_response(guide(), kind, day, _article(violated), severity)
    except GuideError as e:
        raise InvalidInput({"kind": [str(e)]}) from None


def following(kind: str, day: date, taken: list[str]) -> Response | None:
    return next_response(guide(), kind, day, taken)


def response(code: str) -> Response:
    try:
        return guide().responses[code]
    except KeyError:
        known = ", ".join(guide().responses)
        raise InvalidInput({"response": [f"unknown response {code!r} (known: {known})"]}) from None


def deadline(served: date, period_days: int, town: str) -> Deadline:
    """The correction deadline of a notice of ``town`` served on ``served`` stating
    ``period_days``."""
    try:
        return notice_deadline(served, params(town), period_days)
    except ClockError as e:
        raise InvalidInput({"period_days": [str(e)]}) from None


def least_period(on: date, town: str) -> int:
    """The article's shortest correction period in force on ``on`` in ``town`` (10 days,
    § 196-22 A)."""
    value = params(town).get("notice.correction_days", on).value
    return int(value) if value is not None else 10


def daily_amount(on: date, town: str) -> ParameterValue:
    return params(town).get(DAILY_AMOUNT, on)


def unconfigured_message(jurisdiction: str) -> str:
    """What the office says when the daily amount is not configured, naming what to record."""
    return (
        f"The daily fine amount is not configured for {jurisdiction}: record the Town Board's "
        f"resolution setting the {AMOUNT_SOURCE} amount as the dated parameter "
        f"'{DAILY_AMOUNT}' (jurisdictions/{jurisdiction}/parameters.yaml); until then the "
        "fine accrued cannot be stated (§ 196-22 B)."
    )


def parameter_dict(pv: ParameterValue) -> dict[str, Any]:
    return {
        "name": pv.name,
        "value": None if pv.value is None else str(pv.value),
        "effective": pv.effective.isoformat(),
        "authority": pv.authority,
    }
