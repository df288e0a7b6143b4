"""Recording an approval's terms as an individual control mechanism (40 CFR
403.8(f)(1)(iii)(B)): its conditions of the control-mechanism kinds, its self-monitoring
requirements, and the identifier EPA's ICIS-NPDES gives it.

Conditions and self-monitoring requirements are records of legal weight kept append-only (the
database refuses a change, :mod:`sewer_office.core.protection`): they are added while the
approval is still before the engineer, never edited, and never added once it is decided — what
was issued stays what was issued; a change of terms is a new approval (§ 196-16 E). The
engineer reviews the request and the Superintendent may impose conditions (§ 196-19 E(1)), so
both record them. Each service checks who acts, validates, and writes the record and its audit
event on the approval's timeline in one transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.permits import rules
from sewer_office.permits.choices import MonitoringFrequency, SampleType
from sewer_office.permits.models.industrial import (
    CONTROL_TERMS,
    ApprovalCondition,
    IndustrialDischargeApproval,
    SelfMonitoringRequirement,
)

#: Who records the terms: the engineer (§ 196-16 E) and the Superintendent (§ 196-19 E(1)).
RECORDERS = frozenset({ENGINEER, SUPERINTENDENT})
#: Who records the ICIS-NPDES identifier once it is assigned: the program's staff and the clerk.
ID_RECORDERS = frozenset({ENGINEER, SUPERINTENDENT, CLERK})
#: States in which terms may still be added: before the decision.
OPEN_STATES = ("submitted", "under_review")
#: The longest text of one condition (a page of terms; longer belongs in an attachment).
TEXT_LIMIT = 4000
ICIS_ID_LENGTH = 9


def may_record_terms(user: Actor, approval: IndustrialDischargeApproval) -> bool:
    return approval.state in OPEN_STATES and has_role(user, *RECORDERS)


def may_record_icis_id(user: Actor, approval: IndustrialDischargeApproval) -> bool:
    return (
        not approval.icis_permit_id
        and approval.state not in ("rejected", "withdrawn")
        and has_role(user, *ID_RECORDERS)
    )


def _check_open(actor: Actor, approval: IndustrialDischargeApproval, what: str) -> None:
    if not has_role(actor, *RECORDERS):
        raise Forbidden(
            f"{what}: reserved to the engineer and the Superintendent (§ 196-16 E; § 196-19 E(1))."
        )
    if approval.state not in OPEN_STATES:
        raise Blocked(
            f"{approval.number} is {approval.state_label.lower()}: its terms were fixed when it "
            "was decided and are kept as issued. A change of terms is a new approval "
            "(§ 196-16 E)."
        )


def _locked(approval: IndustrialDischargeApproval, actor: Actor, what: str) -> Any:
    locked = IndustrialDischargeApproval.objects.select_for_update().get(pk=approval.pk)
    _check_open(actor, locked, what)  # again, under the lock: decided meanwhile?
    return locked


def record_terms(
    actor: Actor,
    approval: IndustrialDischargeApproval,
    terms: dict[str, str],
    *,
    at: datetime | None = None,
) -> list[ApprovalCondition]:
    """Add conditions of the control-mechanism kinds (``terms``: kind → text; empty texts are
    skipped). Refused: an unknown kind, no text at all, a text too long, and slug control
    required and found unnecessary on the same approval (40 CFR 403.8(f)(1)(iii)(B)(6))."""
    what = "Recording the terms of an approval"
    _check_open(actor, approval, what)
    errors: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    for kind, text in terms.items():
        if kind not in CONTROL_TERMS:
            errors[kind] = [f"Unknown kind of term {kind!r}."]
            continue
        clean = (text or "").strip()
        if len(clean) > TEXT_LIMIT:
            errors[kind] = [f"At most {TEXT_LIMIT} characters (this has {len(clean)})."]
        elif clean:
            texts[kind] = clean
    if not texts and not errors:
        errors["__all__"] = ["State at least one term."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        locked = _locked(approval, actor, what)
        kinds = set(locked.conditions.values_list("kind", flat=True)) | set(texts)
        if {"slug_control", "slug_not_necessary"} <= kinds:
            field = "slug_not_necessary" if "slug_not_necessary" in texts else "slug_control"
            raise InvalidInput(
                {
                    field: [
                        "Slug control cannot be both required and found unnecessary on one "
                        "approval (40 CFR 403.8(f)(1)(iii)(B)(6)): record one or the other."
                    ]
                }
            )
        made = []
        for kind, text in texts.items():
            citation = CONTROL_TERMS[kind][1]
            condition = ApprovalCondition.objects.create(
                approval=locked, kind=kind, text=text, citation=citation
            )
            audit.record(
                actor=actor,
                action="record_condition",
                obj=locked,
                after={"kind": kind, "text": text, "citation": citation},
                citation=citation,
                at=at,
            )
            made.append(condition)
    return made


def add_self_monitoring(
    actor: Actor,
    approval: IndustrialDischargeApproval,
    *,
    parameter: str,
    sampling_point: str,
    sample_type: str,
    frequency: str,
    at: datetime | None = None,
) -> SelfMonitoringRequirement:
    """Add a pollutant the user must sample and report, where, how and how often (40 CFR
    403.8(f)(1)(iii)(B)(4)). The parameter is stored by its canonical name; a pollutant that
    must be grab-sampled (40 CFR 403.12(g)(3)) cannot be required as a composite."""
    what = "Recording a self-monitoring requirement"
    _check_open(actor, approval, what)
    errors: dict[str, list[str]] = {}
    found = rules.analyte(parameter or "")
    if found is None:
        errors["parameter"] = [
            f"Unknown pollutant {(parameter or '').strip()[:60]!r}: name one the laboratory "
            "files use (e.g. copper, BOD, pH)."
        ]
    point = (sampling_point or "").strip()
    if not point:
        errors["sampling_point"] = ["Name the sampling location (e.g. the control manhole)."]
    elif len(point) > 80:
        errors["sampling_point"] = ["At most 80 characters."]
    if sample_type not in SampleType.values:
        errors["sample_type"] = ["Choose grab or composite."]
    elif found is not None and found[2] == "grab" and sample_type == "composite":
        errors["sample_type"] = [
            f"{found[1]} is sampled by grab samples (40 CFR 403.12(g)(3)), not composites."
        ]
    if frequency not in MonitoringFrequency.values:
        errors["frequency"] = ["Choose how often the sample is taken."]
    if errors:
        raise InvalidInput(errors)
    assert found is not None
    with transaction.atomic():
        locked = _locked(approval, actor, what)
        if locked.self_monitoring.filter(
            parameter=found[0], sampling_point=point, sample_type=sample_type, frequency=frequency
        ).exists():
            raise InvalidInput({"parameter": ["This requirement is already recorded."]})
        row = SelfMonitoringRequirement.objects.create(
            approval=locked,
            parameter=found[0],
            sampling_point=point,
            sample_type=sample_type,
            frequency=frequency,
        )
        citation = "40 CFR 403.8(f)(1)(iii)(B)(4)"
        audit.record(
            actor=actor,
            action="add_self_monitoring",
            obj=locked,
            after={
                "parameter": row.parameter,
                "sampling_point": row.sampling_point,
                "sample_type": row.sample_type,
                "frequency": row.frequency,
            },
            citation=citation,
            at=at,
        )
    return row


def icis_id_problem(value: str) -> str | None:
    """What is wrong with an ICIS-NPDES permit identifier (the XSD's String9FixedTypeBase:
    exactly nine characters, no asterisk; a space inside is a typing slip), or None."""
    if len(value) != ICIS_ID_LENGTH:
        return f"Exactly {ICIS_ID_LENGTH} characters (this has {len(value)}), e.g. NYP000123."
    if "*" in value:
        return "No asterisk: ICIS-NPDES reads '*' as 'clear this value'."
    if any(ch.isspace() or not ch.isprintable() for ch in value):
        return "No spaces or invisible characters."
    return None


def record_icis_permit_id(
    actor: Actor,
    approval: IndustrialDischargeApproval,
    value: str,
    *,
    at: datetime | None = None,
) -> IndustrialDischargeApproval:
    """Record the identifier EPA's ICIS-NPDES (or the State) gave this control mechanism,
    once: the column is filled once and never changed (the database refuses a change), like
    the other facts an approval records."""
    if not has_role(actor, *ID_RECORDERS):
        raise Forbidden(
            "Recording the ICIS-NPDES identifier: reserved to the engineer, the Superintendent "
            "and the clerk."
        )
    text = (value or "").strip()
    problem = icis_id_problem(text)
    if problem:
        raise InvalidInput({"icis_permit_id": [problem]})
    with transaction.atomic():
        locked = IndustrialDischargeApproval.objects.select_for_update().get(pk=approval.pk)
        if locked.icis_permit_id:
            raise Blocked(
                f"{locked.number} already has its ICIS-NPDES identifier "
                f"({locked.icis_permit_id}); it is recorded once."
            )
        if locked.state in ("rejected", "withdrawn"):
            raise Blocked(f"{locked.number} is {locked.state_label.lower()}: it has no identifier.")
        before = audit.snapshot(locked)
        locked.icis_permit_id = text
        locked.save(update_fields=["icis_permit_id", "updated_at"])
        audit.record(
            actor=actor,
            action="record_icis_permit_id",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            citation="40 CFR 403.12(i)",
            at=at,
        )
    return locked
