"""Corrections (§ 196-22 A, B): the violator reports the violation corrected, the office
verifies or rejects the report; a verified correction ends the daily fine count
(:mod:`.liability`). What the workflow's ``report``, ``verify`` and ``reject`` transitions do,
inside :func:`sewer_office.core.services.perform`'s transaction."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.inspections.models import Inspection

from .facts import CorrectionReportFacts, RejectionFacts, VerificationFacts
from .models import Correction, Violation
from .notices import current_notice


def pending_correction(violation: Violation) -> Correction | None:
    return next((c for c in violation.corrections.order_by("-id") if c.pending), None)


def effect_report(
    violation: Violation, facts: CorrectionReportFacts, actor: Actor, at: datetime
) -> None:
    """§ 196-22 A: the person's report that it corrected the violation (by page, API or staff)."""
    reported = facts["reported_on"]
    if reported > timezone.localdate(at):
        raise InvalidInput({"reported_on": [f"{reported} is in the future."]})
    if reported < violation.observed_on:
        raise InvalidInput(
            {
                "reported_on": [
                    f"{reported} is before the violation was found ({violation.observed_on})."
                ]
            }
        )
    correction = Correction.objects.create(
        violation=violation,
        notice=current_notice(violation),
        reported_on=reported,
        reported_by=signed_in(actor),
        reported_at=at,
        description=facts["description"].strip(),
        returns_to=violation.state,
    )
    audit.record(
        actor=actor,
        action="report_correction",
        obj=correction,
        after=audit.snapshot(correction),
        citation="§ 196-22 A",
        at=at,
    )


def _decide(
    violation: Violation, actor: Actor, at: datetime, fields: Mapping[str, object], action: str
) -> Correction:
    correction = pending_correction(violation)
    if correction is None:
        raise Blocked("No reported correction awaits a decision.")
    return audit.change_recorded(
        correction, fields, actor=actor, action=action, citation="§ 196-22 B", at=at
    )


def effect_verify(
    violation: Violation, facts: VerificationFacts, actor: Actor, at: datetime
) -> None:
    """§ 196-22 B: the correction verified "to the satisfaction of the Superintendent and/or
    other authorized personnel as cited in § 196-21A". The verification finds the day the
    violation ceased (``ceased_on``: the reported day, the default, when borne out, or another
    day found on inspection — never after the verification, never before the violation was
    found); the fine runs to that day, not to the verification."""
    correction = pending_correction(violation)
    if correction is None:
        raise Blocked("No reported correction awaits verification.")
    if correction.reported_by_id is not None and correction.reported_by_id == actor.pk:
        # the verification ends the fine count: one person never both reports and verifies
        raise Blocked(
            "A correction is verified by someone other than who reported it (the office's "
            f"separation of duties): {correction.reported_by} reported this one on "
            f"{correction.reported_on:%Y-%m-%d}."
        )
    verified = facts["verified_on"]
    if verified < correction.reported_on:
        raise InvalidInput(
            {
                "verified_on": [
                    f"The correction was reported on {correction.reported_on}: it cannot be "
                    f"verified on {verified}, before it was reported."
                ]
            }
        )
    if verified > timezone.localdate(at):
        raise InvalidInput({"verified_on": [f"{verified} is in the future."]})
    ceased = facts["ceased_on"] or correction.reported_on
    if ceased > verified:
        raise InvalidInput(
            {
                "ceased_on": [
                    f"{ceased} is after the verification ({verified}): a verification finds "
                    "only a correction already made."
                ]
            }
        )
    if ceased < violation.observed_on:
        raise InvalidInput(
            {
                "ceased_on": [
                    f"{ceased} is before the violation was found ({violation.observed_on})."
                ]
            }
        )
    inspection = None
    if facts["inspection"]:
        inspection = Inspection.objects.filter(
            pk=facts["inspection"], state="completed", establishment=violation.establishment_id
        ).first()
        if inspection is None:
            raise InvalidInput(
                {"inspection": ["No completed inspection of this facility with that id."]}
            )
    _decide(
        violation,
        actor,
        at,
        {
            "verified_on": verified,
            "ceased_on": ceased,
            "verified_by": actor,
            "inspection": inspection,
            "decision_note": facts["note"].strip(),
        },
        "verify",
    )


def effect_reject(violation: Violation, facts: RejectionFacts, actor: Actor, at: datetime) -> None:
    pending = pending_correction(violation)
    rejected = facts["rejected_on"]
    if pending is not None and rejected < pending.reported_on:
        raise InvalidInput(
            {
                "rejected_on": [
                    f"The correction was reported on {pending.reported_on}: it cannot be "
                    f"rejected on {rejected}, before it was reported."
                ]
            }
        )
    if rejected > timezone.localdate(at):
        raise InvalidInput({"rejected_on": [f"{rejected} is in the future."]})
    correction = _decide(
        violation,
        actor,
        at,
        {"rejected_on": rejected, "rejected_by": actor},
        "reject_correction",
    )
    violation.state = correction.returns_to
