"""§ 196-19 G — a grease trap kept pumped out: the cleaning clock.

§ 196-19 F(2) asks that grease traps be "located as to be readily and easily accessible for
cleaning and inspection"; it sets no frequency. The duty a pump-out gives effect to is
§ 196-19 G: "preliminary treatment ... shall be maintained continuously in satisfactory and
effective operation by the owner", so the clock cites G.

Cleaning frequency is a town choice, not the law: ``grease_interceptor.cleaning_interval_days``
is null (not configured) for Wappinger and 90 days in the demo, as an EXAMPLE; an
establishment's approval may set its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import TypedDict

from sewer_rules.citations import cite
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements

from .grease_interceptors import F2, GreaseSizingError

MAINTENANCE = cite("§ 196-19 G")
CLEANING_INTERVAL = "grease_interceptor.cleaning_interval_days"


class CleaningStatusJson(TypedDict):
    """A cleaning status as JSON (the command line's output, the office's API)."""

    as_of: str
    status: str
    overdue: bool | None
    interval_days: int | None
    interval_basis: str
    last_pump_out: str | None
    next_due: str | None
    days_overdue: int
    citation: str
    message: str


@dataclass(frozen=True)
class PumpOut:
    """A pump-out record: the day, and (for the office) who hauled how much."""

    on: date
    hauler: str = ""
    volume_gal: Decimal | None = None


@dataclass(frozen=True)
class CleaningStatus:
    """Whether a grease trap's pump-out is overdue on ``as_of``.

    ``status``: ``not_configured`` (no interval), ``no_record`` (no pump-out and no
    installation date on or before ``as_of``), ``due`` (next pump-out on or after ``as_of``),
    ``overdue`` (``as_of`` is after the due date; the due date itself is on time).
    """

    as_of: date
    status: str
    interval_days: int | None
    interval_basis: str
    last_pump_out: date | None
    next_due: date | None
    days_overdue: int
    message: str
    parameter: ParameterValue | None

    @property
    def overdue(self) -> bool | None:
        if self.status in ("not_configured", "no_record"):
            return None
        return self.status == "overdue"

    def as_dict(self) -> CleaningStatusJson:
        return {
            "as_of": self.as_of.isoformat(),
            "status": self.status,
            "overdue": self.overdue,
            "interval_days": self.interval_days,
            "interval_basis": self.interval_basis,
            "last_pump_out": None if self.last_pump_out is None else self.last_pump_out.isoformat(),
            "next_due": None if self.next_due is None else self.next_due.isoformat(),
            "days_overdue": self.days_overdue,
            "citation": str(MAINTENANCE),
            "message": self.message,
        }


@implements("§ 196-19 G")
def cleaning_status(
    pump_outs: Iterable[date | PumpOut],
    params: ParameterSet,
    as_of: date,
    *,
    installed: date | None = None,
    interval_days: int | None = None,
) -> CleaningStatus:
    """The next pump-out due and whether it is overdue on ``as_of``.

    The interval is the establishment's own (``interval_days``, e.g. set in its approval) or
    else ``grease_interceptor.cleaning_interval_days`` in force on ``as_of`` — a town choice,
    since § 196-19 F(2) sets no frequency; keeping the trap pumped is the maintenance
    § 196-19 G requires of pretreatment. The clock runs from the last pump-out on or before
    ``as_of`` (later records are ignored, so a past day can be replayed), else from
    ``installed``. Next due = that day + interval; overdue from the day after.
    """
    days = [p.on if isinstance(p, PumpOut) else p for p in pump_outs]
    past = [d for d in days if d <= as_of]
    last = max(past, default=None)
    parameter: ParameterValue | None = None
    if interval_days is not None:
        if isinstance(interval_days, bool) or interval_days <= 0:
            raise GreaseSizingError(f"a cleaning interval must be positive, not {interval_days}")
        interval, basis = interval_days, "set for this establishment"
    else:
        parameter = params.get(CLEANING_INTERVAL, as_of)
        if parameter.value is None:
            return CleaningStatus(
                as_of,
                "not_configured",
                None,
                f"{CLEANING_INTERVAL} not configured",
                last,
                None,
                0,
                f"no pump-out interval is configured ({CLEANING_INTERVAL} since "
                f"{parameter.effective}); {F2} requires traps to be accessible for cleaning and "
                f"{MAINTENANCE} maintained, but neither sets a frequency: the town's choice is "
                "not recorded",
                parameter,
            )
        interval = int(parameter.value)
        basis = f"{CLEANING_INTERVAL} = {interval} days since {parameter.effective}" + (
            f", {parameter.authority}" if parameter.authority else ""
        )
    start = last if last is not None else (installed if installed and installed <= as_of else None)
    if start is None:
        return CleaningStatus(
            as_of,
            "no_record",
            interval,
            basis,
            None,
            None,
            0,
            "no pump-out recorded and no installation date: the due date cannot be computed",
            parameter,
        )
    due = start + timedelta(days=interval)
    late = (as_of - due).days
    what = "last pump-out" if last is not None else "installation"
    if late > 0:
        status, text = "overdue", f"overdue by {late} day{'s' if late != 1 else ''}"
    else:
        status, text = "due", f"next pump-out due by {due.isoformat()}"
    return CleaningStatus(
        as_of,
        status,
        interval,
        basis,
        last,
        due,
        max(late, 0),
        f"{what} {start.isoformat()} + {interval} days = {due.isoformat()}: {text} "
        f"(interval: {basis}; a town choice under {MAINTENANCE})",
        parameter,
    )
