"""Entry under § 196-21: who may enter with the Town, and what a refusal of entry makes.

§ 196-21 A: the Superintendent and other duly authorized employees of the Town "and/or" of
EPA, DEC and the Dutchess County Department of Health, "bearing proper credentials and
identification, shall be permitted to enter all properties" for inspection, observation,
measurement, sampling and testing. § 196-21 B admits the Town's staff (only) to the Town's
easements. So:

- an agency inspector is recorded on an inspection with agency, name and credential, never on
  an easement inspection (B is the Town's staff only);
- a refusal of entry to an inspector who showed credentials is a failure of the duty to
  permit entry: it is recorded (who refused, when, what was asked, the credentials shown) and
  becomes a finding citing § 196-21 A (or B), from which a violation can be opened
  (:mod:`sewer_office.enforcement.grounds` counts an inspection finding a duty not met).

Both are recorded by the Town's inspectors (the Superintendent, the engineer, the Building
Inspector), on an inspection not yet completed (a completed one is never edited), in one
transaction with the audit event.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.core.errors import InvalidInput
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import record_finding

from .choices import Agency, InspectionState
from .models import AgencyInspector, EntryRefusal, Inspection
from .services import _require_state, require_performer

#: A refusal of entry is a finding to review (like a failed checklist item), a duty not met.
REFUSAL_STATUS = "review"


def add_agency_inspector(
    inspection: Inspection,
    actor: Actor,
    *,
    agency: str,
    name: str,
    credential: str,
    at: datetime | None = None,
) -> AgencyInspector:
    """Record an EPA, DEC or County Health inspector taking part, with the credential shown."""
    require_performer(actor, "Recording another agency's inspector")
    _require_state(inspection, InspectionState.SCHEDULED, "Recording another agency's inspector")
    errors: dict[str, list[str]] = {}
    if inspection.on_easement:
        errors["agency"] = [
            "§ 196-21 B admits only the Town's staff to the Town's easements: another agency's "
            "inspector cannot be recorded on an easement inspection."
        ]
    elif agency not in Agency.values:
        known = ", ".join(f"{a.value} ({a.label})" for a in Agency)
        errors["agency"] = [f"'{agency}' is not an agency § 196-21 A names (known: {known})."]
    if not name.strip():
        errors["name"] = ["Name the inspector."]
    if not credential.strip():
        errors["credential"] = [
            "Record the credential and identification shown: § 196-21 A admits inspectors "
            "'bearing proper credentials and identification'."
        ]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        AgencyInspector,
        {
            "inspection": inspection,
            "agency": agency,
            "name": name.strip(),
            "credential": credential.strip(),
            "recorded_by": actor,
            "recorded_at": at or timezone.now(),
        },
        actor=actor,
        action="add_agency_inspector",
        citation="§ 196-21 A",
        at=at,
    )


def record_refusal(
    inspection: Inspection,
    actor: Actor,
    *,
    refused_by: str,
    refused_at: datetime | None,
    asked: str,
    credentials_shown: str,
    at: datetime | None = None,
) -> EntryRefusal:
    """Record a refusal of entry and the finding it makes (§ 196-21 A, or B on an easement)."""
    require_performer(actor, "Recording a refusal of entry")
    _require_state(inspection, InspectionState.SCHEDULED, "Recording a refusal of entry")
    now = at or timezone.now()
    errors: dict[str, list[str]] = {}
    if not refused_by.strip():
        errors["refused_by"] = ["Name who refused entry, and in what capacity."]
    if refused_at is None:
        errors["refused_at"] = ["Say when entry was refused."]
    elif refused_at > now:
        errors["refused_at"] = ["A refusal cannot be recorded before it happened."]
    if not asked.strip():
        errors["asked"] = ["Say what was asked: entry to what, for inspection or sampling."]
    if not credentials_shown.strip():
        errors["credentials_shown"] = [
            "Record the credentials and identification shown: § 196-21 A obliges the owner to "
            "admit inspectors 'bearing proper credentials and identification', so a refusal "
            "without them is no violation."
        ]
    if errors:
        raise InvalidInput(errors)
    assert refused_at is not None
    citation = inspection.entry_citation
    with transaction.atomic():
        refusal = audit.create_recorded(
            EntryRefusal,
            {
                "inspection": inspection,
                "refused_by": refused_by.strip(),
                "refused_at": refused_at,
                "asked": asked.strip(),
                "credentials_shown": credentials_shown.strip(),
                "citation": citation,
                "recorded_by": actor,
                "recorded_at": now,
            },
            actor=actor,
            action="record_entry_refusal",
            citation=citation,
            at=at,
        )
        record_finding(
            source=inspection,  # shown with the inspection's findings, page and report
            establishment=inspection.establishment,
            kind=FindingKind.INSPECTION,
            status=REFUSAL_STATUS,
            citation=citation,
            message=(
                f"Entry refused by {refusal.refused_by} on "
                f"{timezone.localtime(refused_at):%Y-%m-%d %H:%M} ({inspection.number}, "
                f"{inspection.subject}): asked {refusal.asked}; credentials shown: "
                f"{refusal.credentials_shown}."
            ),
            observed_at=refused_at,
        )
    return refusal
