"""The violation a facility in significant noncompliance gets: one a period, of kind
``significant_noncompliance`` in the enforcement app (its response guide), opened through the
enforcement services with the grounds the determination names (the duty of 40 CFR 403.12 for
late reports, of 40 CFR 403.8(f)(1)(iv) for missed milestones). Shared by the computation
(:mod:`.snc`) and the staff's criteria (:mod:`.snc_staff`)."""

from __future__ import annotations

from datetime import datetime, time
from typing import Any

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.enforcement import services as enforcement
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import record_finding
from sewer_rules.citations import CitationError, read_cited
from sewer_rules.findings import Status

from . import snc_scope as scoping
from .models import SNCDetermination

#: The provision a late report breaks (the approval's reporting condition), and a milestone
#: missed by more than 90 days (the order imposing the compliance schedule).
_REPORT_DUTY = "40 CFR 403.12"


_SCHEDULE_DUTY = "40 CFR 403.8(f)(1)(iv)"


def _snc_grounds(det: SNCDetermination) -> list[str]:
    """The provisions broken that put the facility in significant noncompliance, in order
    and once each: the authority of each limit exceeded (criteria A, B; the approval's
    condition or the article's limit), the reporting duty of a report late (F), the order of a
    milestone missed (E). A limit whose authority is not a citation is left out here (its text
    stays in the finding's message)."""
    grounds: list[str] = []
    for d in det.determinations:
        if d["snc"] and d.get("limit_authority"):
            try:
                grounds.append(str(read_cited(str(d["limit_authority"]))[0]))
            except CitationError:
                continue
    if any(r["snc"] for r in det.reports):
        grounds.append(_REPORT_DUTY)
    if any(s["criterion"] == "E" for s in scoping.applying(det.staff_criteria)):
        grounds.append(_SCHEDULE_DUTY)
    return list(dict.fromkeys(grounds))


def _open_snc_violation(actor: Actor, det: SNCDetermination, at: datetime | None) -> Any:
    """The SNC finding of ``det`` and the violation opened from it (the guide's kind
    ``significant_noncompliance``), citing 40 CFR 403.8(f)(2)(viii) and the first provision
    broken; the finding's message names every provision broken."""
    letters = ", ".join(f"({c})" for c in det.criteria)
    counted = [
        f"{d['parameter']} {d['limit_type']} {d['limit']} {d['unit']}: {d['exceeding']} of "
        f"{d['measurements']} exceeding"
        + (f", {d['trc_exceeding']} at or above TRC" if d["trc_exceeding"] is not None else "")
        for d in det.determinations
        if d["snc"]
    ]
    late = [
        f"{r['report']} due {r['due']}: {r['days_late']} days late" for r in det.reports if r["snc"]
    ]
    late += [f"({s['criterion']}) {s['text']}" for s in scoping.applying(det.staff_criteria)]
    grounds = _snc_grounds(det)
    finding = record_finding(
        source=det,
        establishment=det.establishment,
        kind=FindingKind.SNC,
        status=Status.PROHIBITED,
        citation="; ".join(["40 CFR 403.8(f)(2)(viii)", *grounds[:1]]),
        message=(
            f"Significant noncompliance {det.period_start}..{det.period_end}: 40 CFR "
            f"403.8(f)(2)(viii) {letters}. "
            + "; ".join(counted + late)
            + (f". Provisions broken: {', '.join(grounds)}." if grounds else "")
        ),
        observed_at=min(
            timezone.make_aware(datetime.combine(det.period_end, time(23, 59))),
            at or timezone.now(),
        ),
        parameters_version=det.parameters_version,
    )
    return enforcement.open_from_finding(actor, finding, at=at)


def _open_violation_once(
    actor: Actor, det: SNCDetermination, violation_id: int | None, at: datetime | None
) -> bool:
    """Link ``det`` to the violation of its facility × period, opening it when ``det`` is in
    SNC and none was opened yet (one violation per facility and period). True when opened."""
    if not det.snc or violation_id is not None:
        return False
    det.violation = _open_snc_violation(actor, det, at)
    det.save(update_fields=["violation"])
    return True
