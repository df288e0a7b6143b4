"""Helpers shared by the rules commands: common options, dates, jurisdictions, measures."""

from __future__ import annotations

import argparse
import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from .main import UsageError

if TYPE_CHECKING:  # parameters and units load pint: imported where used (see main.py)
    from sewer_rules.enforcement_ladder import Clock
    from sewer_rules.law_package import LawPackage
    from sewer_rules.parameters import ParameterSet, ParameterValue


def add_common(p: argparse.ArgumentParser, *, on_date: bool = False) -> None:
    """--jurisdiction and --format (and --date when the command judges a single day)."""
    if on_date:
        p.add_argument(
            "--date",
            type=iso_date,
            metavar="DATE",
            help="the day whose parameters apply (default: today in the town's zone)",
        )
    p.add_argument(
        "--jurisdiction", default="wappinger", help="wappinger, demo, or a parameters.yaml path"
    )
    p.add_argument("--format", choices=("table", "json"), default="table")


def jurisdiction(name: str, *, article_rules: bool = True) -> ParameterSet:
    """The parameters of ``name``. ``article_rules``: the command computes rules written for
    Wappinger's Article VII (and the demo town that shares it), so a jurisdiction whose
    package keeps a registry of its own law is refused, with where to read what its law does,
    rather than judged by another town's article."""
    from sewer_rules.parameters import ParameterError, load_jurisdiction

    law = law_of(name)
    if article_rules and law is not None and not law.rules_registry:
        raise UsageError(
            f"{law.name}: this command computes the rules of Town Code Chapter 196, Article VII "
            f"(Wappinger's article), which {law.name}'s law, as its package holds it, does not "
            f"contain; what its law does: sewer-use sections --jurisdiction {name}"
        )
    try:
        return load_jurisdiction(law.parameters if law is not None else name)
    except ParameterError as e:
        raise UsageError(str(e)) from None


def law_of(name: str) -> LawPackage | None:
    """The jurisdiction package ``name`` names; None for a bare parameters file (Wappinger's
    article with other values, as ``--jurisdiction PATH`` always meant)."""
    from pathlib import Path

    from sewer_rules.law_package import LawPackageError, load_law

    try:
        return load_law(name)
    except LawPackageError as e:
        path = Path(name)
        if path.is_file() and not (path.parent / "law.yaml").is_file():
            return None
        raise UsageError(str(e)) from None


def clock_days(clock: Clock, params: ParameterSet, on: date) -> str:
    """A clock's days as the law gives them, for a reader: a number, the parameter holding them
    with its value on ``on``, or why there is none (``jurisdiction show``, the petition window
    of ``fines``)."""
    from sewer_rules.parameters import ParameterError

    more = " (at least: the notice may state more)" if clock.at_least else ""
    if clock.days is not None:
        return f"{clock.days}{more}"
    if not clock.parameter:
        return "not configured"
    if clock.parameter not in params.parameters:
        return f"{clock.parameter}: not in the jurisdiction's parameters"
    try:
        value = params.get(clock.parameter, on).value
    except ParameterError:  # the law's values begin after ``on``
        return f"{clock.parameter}: no value yet on {on}"
    shown = "not configured" if value is None else str(value) + more
    return f"{clock.parameter} = {shown}"


def iso_date(text: str) -> date:
    """argparse type: an ISO date."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def today(params: ParameterSet) -> date:
    """Today's calendar date in the jurisdiction's zone (America/New_York for Wappinger)."""
    return datetime.now(ZoneInfo(params.timezone)).date()


def header(title: str, params: ParameterSet) -> list[str]:
    lines = [title, f"Jurisdiction: {params.name} (parameters {params.version})"]
    if params.notice:
        lines.append(f"NOTE: {params.notice}")
    return lines


def describe(p: ParameterValue) -> str:
    """``name = value unit, in force since DATE (authority)`` — or ``not configured``."""
    from sewer_rules.units import format_decimal

    value = "not configured" if p.value is None else f"{format_decimal(p.value)} {p.unit}"
    authority = f", {p.authority}" if p.authority else ""
    return f"{p.name} = {value}, in force since {p.effective}{authority}"


def money(amount: Decimal | None) -> str:
    return "not configured" if amount is None else f"{amount:,}"


_MEASURE = re.compile(
    r"^\s*(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s*/\s*\d+)?)\s*(?P<unit>.*?)\s*$"
)


def measure(
    text: str, option: str, dimension: str, default_unit: str | None
) -> tuple[Decimal, str]:
    """Read ``"0.75"``, ``"3/4 hp"``, ``"180 °F"``: a decimal value and a unit symbol.

    A fraction is accepted when its decimal terminates. Without a unit, ``default_unit`` is used
    (or, when None, the unit is required). Errors are :class:`UsageError` naming the option.
    """
    from sewer_rules.units import UnitError, format_decimal, unit_of

    m = _MEASURE.match(text)
    if not m:
        raise UsageError(f"{option}: {text!r} is not a number with a unit")
    num = m["num"].replace(" ", "")
    try:
        if "/" in num:
            top, bottom = num.split("/")
            if int(bottom) == 0:
                raise UsageError(f"{option}: {text!r} divides by zero")
            value = Fraction(Decimal(top)) / int(bottom)
            shown = format_decimal(value)
            if "." in shown and len(shown.split(".")[1]) > 12:
                raise UsageError(f"{option}: {text!r} has no exact decimal form")
            number = Decimal(shown)
        else:
            number = Decimal(num)
    except InvalidOperation:
        raise UsageError(f"{option}: {text!r} is not a number") from None
    unit_text = m["unit"]
    if not unit_text:
        if default_unit is None:
            raise UsageError(f"{option}: {text!r} needs a unit (e.g. '{_example(dimension)}')")
        unit_text = default_unit
    try:
        unit = unit_of(unit_text, dimension, option)
    except UnitError as e:
        raise UsageError(str(e)) from None
    return number, unit.symbol


def _example(dimension: str) -> str:
    return {
        "flow": "50000 gpd",
        "temperature": "180 °F",
        "power": "0.75 hp",
        "length": "0.5 in",
        "concentration": "600 mg/l",
    }.get(dimension, "1")
