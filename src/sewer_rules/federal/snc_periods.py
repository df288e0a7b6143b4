"""The six-month period of 40 CFR 403.8(f)(2)(viii) (A) and (B), and the periods asked for.

(A) and (B) count the measurements "taken during a six- (6-) month period". Reading of the
regulation (``docs/interpretations.md``): the six-month period is the calendar half-year
(``snc.rolling_window`` 0, the default) or a rolling six months evaluated at the end of each
calendar quarter (1, or ``--rolling``). A period asked for is written ``2026H1``, ``2026`` or
``2026-01..2026-06``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta


class PeriodError(ValueError):
    """A period that cannot be read, e.g. ``2026H3``."""


@dataclass(frozen=True, order=True)
class Window:
    start: date
    end: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    def as_dict(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


def _month_end(year: int, month: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return nxt - timedelta(days=1)


def _months_back(end: date, months: int) -> date:
    """The first day of the six-month (``months``) window that ends on the month-end ``end``."""
    index = end.year * 12 + end.month - 1 - (months - 1)
    return date(index // 12, index % 12 + 1, 1)


def parse_period(text: str) -> Window:
    """``2026H1``, ``2026H2``, ``2026`` or ``2026-01..2026-06`` (whole months, inclusive)."""
    t = text.strip()
    if m := re.fullmatch(r"(\d{4})H([12])", t):
        year, half = int(m[1]), int(m[2])
        return Window(date(year, 6 * half - 5, 1), _month_end(year, 6 * half))
    if m := re.fullmatch(r"(\d{4})", t):
        return Window(date(int(m[1]), 1, 1), date(int(m[1]), 12, 31))
    if m := re.fullmatch(r"(\d{4})-(\d{2})\.\.(\d{4})-(\d{2})", t):
        y1, m1, y2, m2 = (int(g) for g in m.groups())
        if not (1 <= m1 <= 12 and 1 <= m2 <= 12):
            raise PeriodError(f"period {text!r}: months run from 01 to 12")
        window = Window(date(y1, m1, 1), _month_end(y2, m2))
        if window.end < window.start:
            raise PeriodError(f"period {text!r}: it ends before it starts")
        return window
    raise PeriodError(
        f"period {text!r}: write a half-year (2026H1), a year (2026) or months (2026-01..2026-06)"
    )


def six_month_windows(period: Window, rolling: bool) -> list[Window]:
    """The six-month windows a period is judged over.

    Fixed: the calendar halves that make up the period (it must be whole halves). Rolling: the
    six months ending at each calendar quarter end inside the period (they may reach back
    before the period's start: that is what a rolling six months is).
    """
    if rolling:
        ends = [
            _month_end(y, m)
            for y in range(period.start.year, period.end.year + 1)
            for m in (3, 6, 9, 12)
            if period.start <= _month_end(y, m) <= period.end
        ]
        if not ends:
            raise PeriodError(f"the period {period.start}..{period.end} holds no quarter's end")
        return [Window(_months_back(e, 6), e) for e in ends]
    halves = [
        Window(date(y, 6 * h - 5, 1), _month_end(y, 6 * h))
        for y in range(period.start.year, period.end.year + 1)
        for h in (1, 2)
    ]
    inside = [w for w in halves if period.start <= w.start and w.end <= period.end]
    if not inside or inside[0].start != period.start or inside[-1].end != period.end:
        raise PeriodError(
            f"a fixed six-month period is made of calendar halves (Jan–Jun, Jul–Dec): "
            f"{period.start}..{period.end} is not; give whole halves or use the rolling window"
        )
    return inside
