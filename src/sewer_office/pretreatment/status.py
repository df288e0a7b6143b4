"""Where a required report stands, as the facility and the office read it.

A report is *submitted* when its signatory signs it (40 CFR 403.12(l); the signature is the
submission under CROMERR, 40 CFR 3.2000): from that moment its due date is met, pending the
office's review — "submitted, in review", never "overdue". The review settles it: accepted,
the due is received (on the day of the signature); rejected, the due is open again and the
facility reads the office's reason. A due date with no signed report is "due" until its day
and "overdue" after it.

:func:`with_status` annotates a query of due dates in one query (for the lists);
:func:`status_of` reads the annotations (or queries, for a single due date).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from .models import ReportDue

#: The signed versions of a due date (``reports`` stand above this app: it reads them through
#: their relation, ``ReportDue.reports``, and imports nothing of theirs).
_SIGNED = "reports__signature"
_REVIEW = "reports__review"
#: ``reports.choices.Decision.REJECTED``
_REJECTED = "rejected"

RECEIVED = "received"
IN_REVIEW = "in_review"
OVERDUE = "overdue"
DUE = "due"

LABELS = {
    RECEIVED: "received",
    IN_REVIEW: "submitted, in review",
    OVERDUE: "overdue",
    DUE: "due",
}


@dataclass(frozen=True)
class DueStatus:
    """One due date's standing: its code, its words, and what explains it."""

    code: str
    signed_at: datetime | None = None
    report_id: int | None = None
    rejected_reason: str = ""

    @property
    def label(self) -> str:
        return LABELS[self.code]

    @property
    def late(self) -> bool:
        return self.code == OVERDUE

    @property
    def in_review(self) -> bool:
        return self.code == IN_REVIEW

    @property
    def text(self) -> str:
        """The sentence the pages show (in town time)."""
        if self.code == IN_REVIEW and self.signed_at is not None:
            when = timezone.localtime(self.signed_at)
            return f"submitted, in review (signed {when:%Y-%m-%d %H:%M})"
        if self.rejected_reason and self.code in (DUE, OVERDUE):
            return f"{LABELS[self.code]} again: the office rejected the report ({self.rejected_reason})"
        return LABELS[self.code]


def with_status(qs: QuerySet[ReportDue]) -> QuerySet[ReportDue]:
    """``qs`` with the signature awaiting review (its time and report) and the reason of the
    latest rejection, for :func:`status_of`."""
    pending = ReportDue.objects.filter(
        pk=OuterRef("pk"), **{f"{_SIGNED}__isnull": False, f"{_REVIEW}__isnull": True}
    ).order_by(f"-{_SIGNED}__signed_at", "-reports__id")
    rejected = ReportDue.objects.filter(
        pk=OuterRef("pk"), **{f"{_REVIEW}__decision": _REJECTED}
    ).order_by(f"-{_REVIEW}__reviewed_at", "-reports__id")
    return qs.annotate(
        pending_signed_at=Subquery(pending.values(f"{_SIGNED}__signed_at")[:1]),
        pending_report_id=Subquery(pending.values("reports__id")[:1]),
        rejected_reason=Subquery(rejected.values(f"{_REVIEW}__reason")[:1]),
    )


def status_of(due: ReportDue, today: date | None = None) -> DueStatus:
    """The standing of ``due`` on ``today`` (the town's today by default)."""
    if not hasattr(due, "pending_signed_at"):
        due = with_status(ReportDue.objects.filter(pk=due.pk)).get()
    day = today or timezone.localdate()
    if due.received_on is not None:
        return DueStatus(RECEIVED)
    signed_at: Any = getattr(due, "pending_signed_at", None)
    if signed_at is not None:
        return DueStatus(IN_REVIEW, signed_at=signed_at, report_id=due.pending_report_id)  # type: ignore[attr-defined]
    reason = getattr(due, "rejected_reason", None) or ""
    return DueStatus(OVERDUE if due.due_on < day else DUE, rejected_reason=reason)


def attach_status(dues: Any, today: date | None = None) -> list[ReportDue]:
    """The due dates, each with ``.status`` (a :class:`DueStatus`), for the templates."""
    out = list(dues)
    for d in out:
        d.status = status_of(d, today)
    return out


def awaiting_review(qs: QuerySet[ReportDue]) -> QuerySet[ReportDue]:
    """The due dates of ``qs`` whose report is signed and not yet reviewed."""
    return qs.filter(**{f"{_SIGNED}__isnull": False, f"{_REVIEW}__isnull": True}).distinct()
