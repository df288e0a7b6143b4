"""The shared steps of the demo's enforcement stories: who acts, the anchor, finding a
violation's finding, issuing, serving and correcting — each back-dated with ``at=``.

The stories of :mod:`.enforcement` and :mod:`.enforcement_money` both tell theirs with a
:class:`Story`; it stands in its own module so that neither imports the other for it.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from sewer_office.accounts.actors import Actor
from sewer_office.core.services import perform
from sewer_office.enforcement import notices, services
from sewer_office.enforcement.grounds import MEASURED_KINDS, NOT_VIOLATIONS
from sewer_office.enforcement.models import Finding, Violation
from sewer_office.findings.opinions import OPINION_STATUSES, record_opinion
from sewer_office.findings.words import describe
from sewer_office.registry.models import Establishment

from .town import TOWN, Town


def at(day: date, hour: int = 10) -> datetime:
    """``day`` at ``hour`` o'clock, town time."""
    return datetime.combine(day, time(hour), tzinfo=TOWN)


class Story:
    """The demo's users and anchor, and the steps every violation shares."""

    def __init__(self, town: Town) -> None:
        self.town = town
        self.anchor = town.anchor
        self.su = town.users["superintendent"]
        self.clerk = town.users["clerk"]
        self.inspector = town.users["inspector"]
        self.acme_user = town.users["acme"]
        self.stages: dict[str, Violation] = {}

    def day(self, days_ago: int) -> date:
        return self.anchor - timedelta(days=days_ago)

    def finding(self, est: Establishment, kind: str, citation: str, latest: date) -> Finding | None:
        """The latest finding of ``kind`` citing ``citation`` observed by ``latest``, free, that
        can be a violation (never a compliant, no-limit, inconclusive or abnormal-strength one)."""
        taken = Violation.objects.filter(finding__isnull=False).values("finding_id")
        return (
            Finding.objects.filter(
                establishment=est,
                kind=kind,
                citation__startswith=citation,
                current=True,
                observed_at__lt=at(latest + timedelta(days=1), 0),
            )
            .exclude(pk__in=taken)
            .exclude(status__in=NOT_VIOLATIONS)
            .order_by("-observed_at", "-id")
            .first()
        )

    def open(
        self,
        est: Establishment,
        *,
        on: date,
        finding_kind: str,
        kind: str,
        section: str,
        description: str,
    ) -> Violation:
        """Open from Acme's finding of that kind when there is one, else by hand. A result
        under review (§ 196-19 D) is a violation only once the Superintendent has recorded the
        opinion that harm is likely, so the story records it first, as the office would."""
        found = self.finding(est, finding_kind, section, on)
        if found is not None:
            if found.status in OPINION_STATUSES and found.kind in MEASURED_KINDS:
                record_opinion(
                    found,
                    self.su,
                    harm_likely=True,
                    reasons=(
                        f"{description}: at this concentration, against the flows of the "
                        "receiving sewer and the plant's capacity, harm to the treatment "
                        "process is likely."
                    ),
                    at=at(on, 10),
                )
            # the nature as the notice will state it: the finding in plain words
            return services.open_from_finding(
                self.su, found, description=describe(found), at=at(on, 11)
            )
        return services.open_violation(
            self.su,
            kind=kind,
            section=section,
            description=description,
            person=est.operator,
            establishment=est,
            observed_on=on,
            at=at(on, 11),
        )

    def issue(self, v: Violation, on: date, nature: str, period: int | None = None) -> Violation:
        data: dict[str, object] = {"nature": nature}
        if period is not None:
            data["period_days"] = period
        return perform(v, "issue_notice", self.su, data, at=at(on, 9))

    def serve(self, v: Violation, on: date, method: str = "certified_mail") -> Violation:
        """Serve the current notice so that service completes on ``on``: in person that day,
        or by certified mail mailed the day before (not before its issue) and its delivery on
        ``on`` recorded from the return receipt — the clock runs from delivery (§ 196-22 A)."""
        if method != "certified_mail":
            data: dict[str, object] = {"served_on": on, "service_method": method}
            return perform(v, "serve", self.clerk, data, at=at(on, 15))
        notice = notices.current_notice(v)
        assert notice is not None
        v = self.mail(v, max(notice.issued_on, on - timedelta(days=1)))
        delivery = {"delivered_on": on, "delivery_proof": "return_receipt"}
        return perform(v, "record_delivery", self.clerk, delivery, at=at(on, 16))

    def mail(self, v: Violation, on: date) -> Violation:
        """Mail the current notice by certified mail on ``on``: not yet served — no deadline
        and no clock until its delivery is recorded (§ 196-22 A)."""
        data = {
            "served_on": on,
            "service_method": "certified_mail",
            "receipt_number": f"7022 0410 0000 {v.pk:04d} {on:%m%d}",
        }
        return perform(v, "serve", self.clerk, data, at=at(on, 15))

    def clocks(self, on: date) -> None:
        """The daily run (``sewer-use flag-overdue``) of ``on``, early in the morning."""
        services.advance_clocks(on, at=at(on, 6))

    def report(self, v: Violation, on: date, text: str, by: Actor | None = None) -> Violation:
        data = {"reported_on": on, "description": text}
        return perform(v, "report_correction", by or self.clerk, data, at=at(on, 14))

    def deadline(self, v: Violation) -> date:
        notice = notices.current_notice(v)
        assert notice is not None and notice.deadline is not None
        return notice.deadline
