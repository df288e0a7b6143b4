"""40 CFR 403.8(f)(2)(viii) (F) — required reports provided late.

40 CFR 403.8(f)(2)(viii): "(F) Failure to provide within 45 days after the due date, any
required reports ...;"

Computed from each report's due and received dates (``snc.report_late_days``: day 45 is on
time); a report not yet received is late by the days from its due date to the day judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .snc_criteria import criterion


@dataclass(frozen=True)
class Report:
    """A required report (periodic compliance, baseline, 90-day ...) and when it came."""

    facility: str
    report: str
    due: date
    received: date | None


@dataclass(frozen=True)
class ReportDetermination:
    report: Report
    as_of: date
    late_days: int
    limit_days: int

    @property
    def snc(self) -> bool:
        return self.late_days > self.limit_days

    def as_dict(self) -> dict[str, object]:
        r = self.report
        return {
            "facility": r.facility,
            "report": r.report,
            "due": r.due.isoformat(),
            "received": r.received.isoformat() if r.received else None,
            "days_late": self.late_days,
            "snc": self.snc,
            "criteria": ["F"] if self.snc else [],
            "citations": [str(criterion("F"))],
        }
