"""The checklist of a received baseline monitoring report (40 CFR 403.12(b)) and its finding.

Every baseline report recorded received carries the same checklist of the rule's seven
elements (:mod:`sewer_rules.federal.cfr403_baseline`): for each, given, explained or missing.
The clerk fills it from a paper report; the reports app fills it from a signed report's data
when the office accepts it (a signed report cannot be signed incomplete, so its checklist has
nothing missing). :func:`write_checklist` stores it once, with ``record_received`` and in its
transaction; an element neither given nor explained makes the report incomplete — a violation
of the user's reporting duty, recorded as a BASELINE_INCOMPLETE finding once per due date,
naming the elements with their citations. A report recorded received stays received: the
finding, not a refusal, is how an incomplete paper report is answered (the user is asked for
the rest), so the day it reached the office still counts for the 45 days of 403.8(f)(2)(viii)(F).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import InvalidInput
from sewer_office.core.models import Attachment
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import findings_of, record_finding
from sewer_rules.federal import cfr403_baseline as rule
from sewer_rules.findings import Status

from .choices import ChecklistSource, ReportKind
from .models import BaselineChecklist, ReportDue

CITATION = str(rule.CITATION)


@dataclass(frozen=True)
class Filing:
    """What comes with a baseline report recorded received: the checklist's plain values
    (``{"b1": {"answer": "given", "text": "page 1"}, ...}``), how the report came, the signed
    report it is (``RPT-12``), and the paper report's scan, if stored."""

    entries: Mapping[str, Any]
    source: str = ChecklistSource.PAPER
    report_ref: str = ""
    scan: Any = None


def elements_for(due: ReportDue) -> tuple[rule.Element, ...]:
    return rule.elements_on(due.due_on)


def read(due: ReportDue, filing: Filing | None) -> dict[str, rule.Entry]:
    """The checklist's entries, or InvalidInput naming the field ``checklist`` (a baseline
    report is never recorded received without it) or each element's problem."""
    if due.kind != ReportKind.BASELINE:
        if filing is not None:
            raise InvalidInput({"checklist": [f"Only a baseline report ({CITATION}) has one."]})
        return {}
    if filing is None:
        raise InvalidInput(
            {
                "checklist": [
                    f"A baseline report is recorded received with its checklist of {CITATION}: "
                    "say for each element whether the report gives it, explains why not, or "
                    "lacks it."
                ]
            }
        )
    if filing.source not in ChecklistSource.values:
        raise InvalidInput({"checklist": ["Say whether the report is on paper or signed."]})
    raw = dict(filing.entries)
    if filing.scan is not None:  # a given element with no text of its own is in the scan
        for code, value in raw.items():
            if isinstance(value, Mapping) and value.get("answer") == rule.Answer.GIVEN:
                raw[code] = {"file": scan_title(filing.scan), **value}
    entries, problems = rule.read_entries(raw, elements_for(due))
    if problems:
        raise InvalidInput({"checklist": list(problems.values())})
    return entries


def scan_title(upload: Any) -> str:
    return f"Paper report: {upload.name}"


def _scan(actor: Actor, due: ReportDue, upload: Any, at: datetime | None) -> Attachment | None:
    if upload is None:
        return None
    return attach(due, upload, actor, title=scan_title(upload), at=at, kinds=DOCUMENT_KINDS)


def write_checklist(
    actor: Actor,
    due: ReportDue,
    entries: Mapping[str, rule.Entry],
    filing: Filing,
    received_on: date,
    at: datetime | None = None,
) -> BaselineChecklist:
    """Store the checklist (and the scan) and, when an element is missing, the finding — in
    the caller's transaction (``record_received``'s)."""
    version = rule.version_on(due.due_on)
    scan = _scan(actor, due, filing.scan, at)
    stored: dict[str, dict[str, str]] = {}
    for e in version.elements:
        entry = entries.get(e.code, rule.Entry(rule.Answer.MISSING))
        stored[e.code] = {
            **entry.as_dict(),
            "title": e.title,
            "citation": e.citation,
        }
    lacking = rule.missing(entries, version.elements)
    checklist = audit.create_recorded(
        BaselineChecklist,
        {
            "due": due,
            "establishment": due.establishment,
            "source": filing.source,
            "rule": version.rule,
            "entries": stored,
            "missing": [e.code for e in lacking],
            "report_ref": filing.report_ref,
            "scan": scan,
            "recorded_by": actor,
            **({"recorded_at": at} if at is not None else {}),
        },
        actor=actor,
        action="record_baseline_checklist",
        citation=CITATION,
        at=at,
    )
    if lacking and not findings_of(due).filter(kind=FindingKind.BASELINE_INCOMPLETE).exists():
        record_finding(
            source=due,
            establishment=due.establishment,
            kind=FindingKind.BASELINE_INCOMPLETE,
            status=Status.REVIEW,
            citation=CITATION,
            message=(
                f"Baseline monitoring report due {due.due_on:%Y-%m-%d}, received "
                f"{received_on:%Y-%m-%d}, is not complete ({CITATION}): neither given nor "
                f"explained — {rule.naming(lacking)}."
            ),
            observed_at=at or timezone.now(),
        )
    return checklist


def checklist_of(due: ReportDue) -> BaselineChecklist | None:
    return BaselineChecklist.objects.filter(due=due).first()
