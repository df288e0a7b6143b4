"""The annual pretreatment report as EPA's ICIS-NPDES takes it: what the law and its data decide.

40 CFR 403.12(i) has the Control Authority report each year on its program: "an updated list of
the POTW's Industrial Users", "a summary of the status of Industrial User compliance", "a
summary of compliance and enforcement activities (including inspections)". The NPDES
electronic reporting rule (40 CFR 127) has that report sent electronically; ICIS-NPDES
takes it as a ``PretreatmentProgramReport`` (schema 5.14). The office gathers the figures from
its records; this module holds the pure decisions between the records and the file:

- what the jurisdiction has configured for the report (dated ``icis.*`` parameters: the
  treatment works' NPDES permit number, EPA parameter codes, enforcement action type codes,
  the local limits' dates, the form of a month) — :func:`icis_data`; nothing here is
  invented: a code not configured is reported missing by the office, which then refuses;
- which analytes are *local limits* — the article's numeric limits in force
  (:func:`local_limit_analytes`);
- which months a user was in significant noncompliance (:func:`listing_months`);
- how many self-monitoring samples a user's control mechanisms required in the period
  (:func:`required_samples`);
- which of the report's indicators each criterion of 40 CFR 403.8(f)(2)(viii) sets
  (:data:`INDICATORS`).
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from .ordinance.s196_19_use_of_public_sewers.prohibitions import LIMIT_RULES
from .parameters import ParameterError, ParameterSet

POTW_PERMIT_ID = "icis.potw_permit_id"
SNC_MONTH_FORMAT = "icis.snc_month_format"
LOCAL_LIMITS_ADOPTED = "icis.local_limits_adopted"
LOCAL_LIMITS_EVALUATED = "icis.local_limits_evaluated"
PARAMETER_CODE = "icis.parameter_code."
ACTION_CODE = "icis.action_code."

#: The forms of SNCListingMonthYear a jurisdiction may choose (seven characters either way).
MONTH_FORMATS = {"MM/YYYY": "{m:02d}/{y:04d}", "YYYY-MM": "{y:04d}-{m:02d}"}


@dataclass(frozen=True)
class IcisData:
    """What the jurisdiction has configured for the report on one day (None: not configured)."""

    on: date
    potw_permit_id: str | None
    snc_month_format: str | None
    local_limits_adopted: date | None
    local_limits_evaluated: date | None
    #: analyte → ICIS-NPDES parameter code, for the analytes configured.
    parameter_codes: Mapping[str, str] = field(default_factory=dict)
    #: response code of the enforcement guide → IUEnfActionTypeCode, for those configured.
    action_codes: Mapping[str, str] = field(default_factory=dict)


def _string(params: ParameterSet, name: str, on: date) -> str | None:
    try:
        return params.get(name, on).string
    except ParameterError:  # no such key, or no value yet on that day
        return None


def icis_data(params: ParameterSet, on: date) -> IcisData:
    """The ``icis.*`` parameters in force on ``on`` (the last day of the report's period)."""
    adopted = _string(params, LOCAL_LIMITS_ADOPTED, on)
    evaluated = _string(params, LOCAL_LIMITS_EVALUATED, on)
    codes: dict[str, str] = {}
    actions: dict[str, str] = {}
    for p in params:
        for prefix, into in ((PARAMETER_CODE, codes), (ACTION_CODE, actions)):
            if p.name.startswith(prefix) and (text := _string(params, p.name, on)) is not None:
                into[p.name[len(prefix) :]] = text
    return IcisData(
        on=on,
        potw_permit_id=_string(params, POTW_PERMIT_ID, on),
        snc_month_format=_string(params, SNC_MONTH_FORMAT, on),
        local_limits_adopted=None if adopted is None else date.fromisoformat(adopted),
        local_limits_evaluated=None if evaluated is None else date.fromisoformat(evaluated),
        parameter_codes=codes,
        action_codes=actions,
    )


# --- local limits ------------------------------------------------------------------------------


def local_limit_analytes(params: ParameterSet, on: date) -> tuple[str, ...]:
    """The analytes with a local limit on ``on``: those § 196-19 C and D limit by a number
    configured that day (cyanide, pH, temperature, oil and grease as the article states them;
    the metals, phenols and radioactivity once the Superintendent's limits are recorded).

    Why these: 40 CFR 403.5(c) has the POTW develop "specific limits" to implement the general
    prohibitions; the article's numeric limits are the Town's. The normal-strength figures of
    § 196-15 are not limits (they measure a surcharge) and are left out."""
    found: list[str] = []
    for rule in LIMIT_RULES:
        try:
            configured = params.get(rule.parameter, on).configured
        except ParameterError:
            configured = False
        if configured and rule.analyte not in found:
            found.append(rule.analyte)
    return tuple(sorted(found))


# --- months of significant noncompliance ---------------------------------------------------------


def listing_months(
    spans: Iterable[tuple[date, date]], first: date, last: date
) -> tuple[tuple[int, int], ...]:
    """Each (year, month) of ``first``..``last`` that lies, at least one day, within one of
    ``spans`` — the periods of the determinations of significant noncompliance in force.

    A determination covers its whole period (a half-year, or a rolling six months): the user is
    in SNC for that period, so every month of it the report's period shares is listed."""
    months: set[tuple[int, int]] = set()
    for start, end in spans:
        lo, hi = max(start, first), min(end, last)
        y, m = lo.year, lo.month
        while lo <= hi and (y, m) <= (hi.year, hi.month):
            months.add((y, m))
            y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return tuple(sorted(months))


def month_text(year: int, month: int, form: str) -> str:
    """A month as SNCListingMonthYear writes it, in the form the jurisdiction configured."""
    try:
        return MONTH_FORMATS[form].format(y=year, m=month)
    except KeyError:
        raise ValueError(
            f"{form!r} is not a form of month: one of {', '.join(MONTH_FORMATS)}"
        ) from None


# --- self-monitoring required --------------------------------------------------------------------


@dataclass(frozen=True)
class Sampling:
    """One self-monitoring requirement of a control mechanism (40 CFR 403.8(f)(1)(iii)(B)(4)):
    where, what type of sample, how many a year."""

    sampling_point: str
    sample_type: str
    events_per_year: int


@dataclass(frozen=True)
class Mechanism:
    """A control mechanism in force from ``start`` to ``end`` (inclusive; None: no end)."""

    start: date
    end: date | None
    samplings: tuple[Sampling, ...]


def _year_share(lo: date, hi: date) -> Fraction:
    """The days ``lo``..``hi`` as years: each calendar year's days over that year's length."""
    share = Fraction(0)
    y = lo.year
    while y <= hi.year:
        a, b = max(lo, date(y, 1, 1)), min(hi, date(y, 12, 31))
        share += Fraction((b - a).days + 1, 366 if calendar.isleap(y) else 365)
        y += 1
    return share


def required_samples(mechanisms: Sequence[Mechanism], first: date, last: date) -> int | None:
    """The self-monitoring samples the user's control mechanisms required in ``first``..``last``
    (None when none was in force then).

    A sample (one sampling event) is taken at one sampling point as one sample type, and every
    parameter analysed from it is reported from it: the requirements that share a point and a
    type are met by the same samples, as often as the most frequent of them asks. So a
    mechanism requires, per (point, type), the largest ``events_per_year`` among its
    requirements there, summed over the pairs; this is prorated to the days the mechanism was
    in force within the period (each calendar year's days over that year's length, so a whole
    calendar year counts one year exactly), summed over the mechanisms, and rounded half up."""
    total = Fraction(0)
    any_in_force = False
    for m in mechanisms:
        lo, hi = max(m.start, first), min(m.end or last, last)
        if lo > hi:
            continue
        any_in_force = True
        per_pair: dict[tuple[str, str], int] = {}
        for s in m.samplings:
            key = (s.sampling_point.strip().casefold(), s.sample_type)
            per_pair[key] = max(per_pair.get(key, 0), s.events_per_year)
        total += sum(per_pair.values()) * _year_share(lo, hi)
    if not any_in_force:
        return None
    exact = Decimal(total.numerator) / Decimal(total.denominator)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


# --- criteria of significant noncompliance → the report's indicators ----------------------------

#: Each criterion of 40 CFR 403.8(f)(2)(viii), and the indicator of IUViolationInformation that
#: reports a user in SNC by it:
#: (A) chronic and (B) technical-review-criteria violations "of wastewater discharge limits"
#:     → SNCPretrStndLimitsIndicator (with the parameters, SNCPretrStndLimitsParameterCode);
#: (F) "failure to provide, within 45 days after the due date, required reports" and
#:     (G) "failure to accurately report noncompliance" — both reporting duties
#:     → SNCRptRqmtIndicator;
#: (C) a violation the POTW determines "has caused, alone or in combination with other
#:     discharges, Interference or Pass Through" and (D) one that "has caused imminent
#:     endangerment ... or has resulted in the POTW's exercise of its emergency authority"
#:     → SNCRelPOTWDischOperIndicator, with the staff's recorded facts as its text (the office
#:     does not record whether sludge management was affected, so the biosolids indicator is
#:     never set);
#: (E) "failure to meet, within 90 days after the schedule date, a compliance schedule
#:     milestone contained in a local control mechanism or enforcement order" and (H) "any
#:     other violation" the POTW finds significant → SNCOthCtrlMechRqmtIndicator.
INDICATORS: Mapping[str, str] = {
    "A": "standards_limits",
    "B": "standards_limits",
    "F": "reporting",
    "G": "reporting",
    "C": "potw_operations",
    "D": "potw_operations",
    "E": "other_requirement",
    "H": "other_requirement",
}


def indicators(criteria: Iterable[str]) -> frozenset[str]:
    """The indicators a user's criteria of SNC set (an unknown letter sets none)."""
    return frozenset(INDICATORS[c] for c in criteria if c in INDICATORS)


# --- the report's period -------------------------------------------------------------------------


def report_period(year: int | None = None, period: str | None = None) -> tuple[date, date]:
    """The period of a report: a calendar ``year``, or ``period`` written ``START..END`` (two
    dates YYYY-MM-DD, inclusive). Exactly one is given; a bad one raises ValueError naming it."""
    if (year is None) == (period is None):
        raise ValueError("give a year or a period (START..END), not both")
    if year is not None:
        if not 1970 <= year <= 2099:
            raise ValueError(f"year {year}: outside 1970–2099")
        return date(year, 1, 1), date(year, 12, 31)
    assert period is not None
    start, sep, end = period.partition("..")
    try:
        first, last = date.fromisoformat(start.strip()), date.fromisoformat(end.strip())
    except ValueError:
        raise ValueError(
            f"period {period!r}: write two dates YYYY-MM-DD joined by '..' "
            "(e.g. 2025-01-01..2025-12-31)"
        ) from None
    if not sep or first > last:
        raise ValueError(f"period {period!r}: the start must be on or before the end")
    if last - first > timedelta(days=366):
        raise ValueError(f"period {period!r}: a report covers at most a year")
    return first, last
