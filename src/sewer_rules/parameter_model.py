"""The dated parameters of a jurisdiction, as read: what a rule asks for a value on a day.

A :class:`ParameterSet` holds each :class:`Parameter` with its :class:`DatedValue` list, keyed
by the date each takes effect; :meth:`ParameterSet.get` answers with the
:class:`ParameterValue` in force on a day — the amount, its unit, since when and on whose
authority — so that every determination can cite it. Reading and checking the files is
:mod:`.parameters` (the module other code imports these names from).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from .parameter_yaml import ParameterError


@dataclass(frozen=True)
class Bracket:
    """One bracket of a schedule: ``rate`` applies up to ``up_to`` (None: no upper bound)."""

    up_to: Decimal | None
    rate: Decimal


@dataclass(frozen=True)
class DatedValue:
    effective: date
    value: Decimal | None
    authority: str = ""
    note: str = ""
    table: tuple[Bracket, ...] | None = None
    #: The value of a ``text`` parameter, as written.
    string: str | None = None


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    reference: str
    unit: str
    values: tuple[DatedValue, ...]

    def at(self, on: date) -> DatedValue:
        """The value in force on ``on`` (the latest effective on or before it)."""
        dates = [v.effective for v in self.values]
        i = bisect_right(dates, on)
        if i == 0:
            raise ParameterError(
                f"parameter {self.name} has no value before {self.values[0].effective}"
            )
        return self.values[i - 1]


@dataclass(frozen=True)
class ParameterValue:
    """A value as used in a determination: what, how much, since when, on whose authority."""

    name: str
    value: Decimal | None
    unit: str
    effective: date
    reference: str
    authority: str
    table: tuple[Bracket, ...] | None = None
    string: str | None = None

    @property
    def configured(self) -> bool:
        return self.value is not None or self.table is not None or self.string is not None

    @property
    def text(self) -> str | None:
        """The value as written (a table as ``rate up to X; ...; rate above``); None if not
        configured."""
        if self.table is not None:
            return "; ".join(
                f"{b.rate} up to {b.up_to}" if b.up_to is not None else f"{b.rate} above"
                for b in self.table
            )
        if self.string is not None:
            return self.string
        return None if self.value is None else str(self.value)


@dataclass(frozen=True)
class ParameterSet:
    """The parameters of one jurisdiction."""

    jurisdiction: str
    name: str
    timezone: str
    parameters: Mapping[str, Parameter]
    digest: str
    sources: tuple[str, ...] = field(default=())
    notice: str = ""
    #: The public-holiday calendar of the jurisdiction's legal clocks, as ``COUNTRY-SUBDIVISION``
    #: (``US-NY``), read from a maintained calendar library (:mod:`sewer_rules.calendars`).
    holidays: str = ""

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self.parameters.values())

    def parameter(self, name: str) -> Parameter:
        try:
            return self.parameters[name]
        except KeyError:
            raise ParameterError(f"{self.jurisdiction} has no parameter {name!r}") from None

    def get(self, name: str, on: date) -> ParameterValue:
        p = self.parameter(name)
        v = p.at(on)
        return ParameterValue(
            name, v.value, p.unit, v.effective, p.reference, v.authority, v.table, v.string
        )

    def value(self, name: str, on: date) -> Decimal:
        """A value that must be configured (the law's own numbers)."""
        pv = self.get(name, on)
        if pv.value is None:
            raise ParameterError(f"{name} is not configured in {self.jurisdiction} on {on}")
        return pv.value

    def in_force(self, on: date) -> list[ParameterValue]:
        return [self.get(name, on) for name in sorted(self.parameters)]

    def breakpoints(self, names: list[str] | None = None) -> list[date]:
        """Every date on which one of ``names`` (default: all) changes, sorted."""
        chosen = names if names is not None else list(self.parameters)
        return sorted({v.effective for n in chosen for v in self.parameter(n).values})

    @property
    def version(self) -> str:
        """Short identity of the parameter text, stored with every determination."""
        return f"{self.jurisdiction}@{self.digest[:12]}"
