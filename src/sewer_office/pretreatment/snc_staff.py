"""The criteria of significant noncompliance that staff decide, not the counts: (D) an
imminent endangerment or a halt, (H) any other violation the Control Authority deems
significant (criteria (D) and (H) of 40 CFR 403.8(f)(2)(viii)). Recorded by a decider with the reasons, carried
from one period's determination to the next until withdrawn, and stored beside the counted
criteria of :mod:`.snc`."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_rules.federal.snc_criteria import criterion
from sewer_rules.federal.snc_scope import ANY_USER

from . import snc_scope as scoping
from .models import SNCDetermination
from .services import DECIDERS, _require, _today
from .snc_violations import _open_violation_once

#: ``criterion`` is also the name of :func:`record_staff_criterion`'s parameter (the brief's).
_criterion_citation = criterion


#: The criteria of 40 CFR 403.8(f)(2)(viii) the Control Authority determines and staff record
#: (the rules cannot compute them from stored results; (E) comes from compliance schedules).
STAFF_CRITERIA: dict[str, str] = {
    "C": "caused, alone or with other discharges, interference or pass through, including "
    "endangering the health of POTW personnel or the general public",
    "D": "caused imminent endangerment to the public or the environment, or resulted in the "
    "exercise of the Control Authority's emergency authority",
    "G": "failure to accurately report noncompliance",
    "H": "any other violation that will adversely affect the operation or implementation of "
    "the local pretreatment program",
}


def _carried_staff_criteria(prev: SNCDetermination | None) -> list[dict[str, str]]:
    """The staff criteria (C), (D), (G), (H) of the determination a re-computation supersedes
    ((E) is read again from the compliance schedules)."""
    if prev is None:
        return []
    return [s for s in prev.staff_criteria if s.get("criterion") in STAFF_CRITERIA]


def record_staff_criterion(
    determination: SNCDetermination,
    criterion: str,
    facts: str,
    on: date | None,
    actor: Actor,
    *,
    at: datetime | None = None,
) -> SNCDetermination:
    """Record that the facility of ``determination`` met criterion (C), (D), (G) or (H) of
    40 CFR 403.8(f)(2)(viii) on ``on`` (a day of the period), as the Control Authority found
    from ``facts``. A new determination supersedes the one in force (never edited), in SNC,
    with the criterion, its citation and the facts; the facility's violation of the period is
    opened if it was not in SNC before."""
    _require(
        actor, DECIDERS, "Recording a criterion of significant noncompliance",
        "40 CFR 403.8(f)(2)(viii)",
    )  # fmt: skip
    letter = (criterion or "").strip().upper()
    text = (facts or "").strip()
    errors: dict[str, list[str]] = {}
    if letter not in STAFF_CRITERIA:
        errors["criterion"] = [
            f"'{criterion}' is not a criterion recorded by staff (known: "
            f"{', '.join(STAFF_CRITERIA)} of 40 CFR 403.8(f)(2)(viii))."
        ]
    if not text:
        errors["facts"] = ["State the facts the Control Authority's determination rests on."]
    if on is None:
        errors["on"] = ["The day of the violation is required."]
    elif not determination.period_start <= on <= determination.period_end:
        errors["on"] = [
            f"{on} is outside the period {determination.period_start}..{determination.period_end}."
        ]
    elif on > _today(at):
        errors["on"] = ["The day cannot be in the future."]
    if errors:
        raise InvalidInput(errors)
    assert on is not None
    if letter not in ANY_USER:  # (G): "a Significant Industrial User ... is in SNC if"
        history = scoping.history_of(determination.establishment_id)
        if not history.was_siu(on):
            raise InvalidInput(
                {
                    "criterion": [
                        f"Criterion ({letter}) applies to significant industrial users only "
                        f"(40 CFR 403.8(f)(2)(viii)); {determination.establishment.name} was "
                        f"not one on {on}: {history.why_not(on)}. (C), (D) and (H) apply to "
                        "any industrial user."
                    ]
                }
            )
    citation = str(_criterion_citation(letter))
    with transaction.atomic():
        prev = (
            SNCDetermination.objects.select_for_update()
            .select_related("establishment")
            .get(pk=determination.pk)
        )
        if SNCDetermination.objects.filter(supersedes=prev).exists():
            raise Blocked(
                f"Determination #{prev.pk} has been superseded: record the criterion on the "
                "one in force."
            )
        letters = sorted({*prev.criteria, letter})
        staff = [
            *prev.staff_criteria,
            {
                "criterion": letter,
                "citation": citation,
                "text": text,
                "on": on.isoformat(),
                "by": getattr(actor, "username", ""),
            },
        ]
        violation_id = prev.violation_id or (
            SNCDetermination.objects.filter(
                establishment_id=prev.establishment_id,
                period_start=prev.period_start,
                period_end=prev.period_end,
                violation__isnull=False,
            )
            .values_list("violation_id", flat=True)
            .first()
        )
        det = SNCDetermination.objects.create(
            establishment=prev.establishment,
            period_start=prev.period_start,
            period_end=prev.period_end,
            rolling=prev.rolling,
            snc=True,
            criteria=letters,
            citations=[str(_criterion_citation(c)) for c in letters],
            determinations=prev.determinations,
            reports=prev.reports,
            staff_criteria=staff,
            measurements=prev.measurements,
            parameters_version=prev.parameters_version,
            violation_id=violation_id,
            computed_by=signed_in(actor),
            computed_at=at or timezone.now(),
            supersedes=prev,
        )
        _open_violation_once(actor, det, violation_id, at)
        audit.record(
            actor=actor,
            action="record_snc_criterion",
            obj=det,
            before={"id": prev.pk, "criteria": prev.criteria, "snc": prev.snc},
            after={"criteria": letters, "snc": True, "violation": det.violation_id},
            reason=text,
            citation=citation,
            state_from="snc" if prev.snc else "compliant",
            state_to="snc",
            at=at,
        )
    return det
