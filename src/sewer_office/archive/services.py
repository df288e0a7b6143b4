"""Importing records of the past: checked in full, then written at once — or nothing.

:func:`import_records` reads a bundle (:mod:`.bundle`), checks every row (:mod:`.rows`) and,
when no row is refused and the bundle was never imported before, writes in one transaction:

- the :class:`~.models.RecordImport` and its one audit event (``import_records``) with the
  bundle's SHA-256, its counts and its documents;
- each record as the paper has it — its own dates, its state — with an office number where its
  kind numbers records (``BSP-1998-00042``: the paper's number is kept beside it, and found by
  the search box), and its audit event (``import_record``, saying it was made outside the
  office, from where, in which import): its timeline starts with the import;
- its :class:`~sewer_office.core.models.ImportedRecord` (the provenance every page shows);
- its scanned documents, attached with their SHA-256 (each attachment audited as any other);
- an approval's conditions and limits with it (a limit as
  :func:`sewer_office.monitoring.sampling.add_discharge_limit` records one).

Records in an open state continue in the office from where they are: an approval granted on
paper and expiring next year is flagged by ``sewer-use flag-overdue`` when its term runs out,
and renewed by filing its renewal as for any approval.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import Forbidden
from sewer_office.core.models import ImportedRecord
from sewer_office.core.storage import files_of_transaction
from sewer_office.inspections.choices import InspectionState
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.models import DischargeLimit
from sewer_office.permits.models import ApprovalCondition, IndustrialDischargeApproval
from sewer_office.permits.models.base import Application

from .bundle import Bundle, UnusableFile
from .models import RecordImport
from .rows import Plan, Planned, Problem, plan

__all__ = ["IMPORTERS", "ImportReport", "UnusableFile", "import_records", "may_import"]

#: Who brings records of the past in: the clerk, the engineer and the Superintendent.
IMPORTERS = (CLERK, ENGINEER, SUPERINTENDENT)


def may_import(user: Actor) -> bool:
    return has_role(user, *IMPORTERS)


@dataclass
class ImportReport:
    """What an import did or would do: a row for every row read, new or refused."""

    name: str
    sha256: str
    dry_run: bool = False
    stored: bool = False
    refused_reason: str = ""  # the whole bundle refused (imported before)
    batch: RecordImport | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.refused_reason

    @property
    def new(self) -> int:
        return sum(1 for r in self.rows if r["status"] == "new")

    @property
    def refused(self) -> int:
        return sum(1 for r in self.rows if r["status"] == "refused")

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sha256": self.sha256,
            "dry_run": self.dry_run,
            "stored": self.stored,
            "import_id": self.batch.pk if self.batch is not None else None,
            "refused_reason": self.refused_reason or None,
            "new": self.new,
            "refused": self.refused,
            "counts": self.counts,
            "rows": self.rows,
            "notes": self.notes,
        }


def _check_actor(actor: Actor) -> None:
    """The command line at the server (None) acts for the office; a user must import."""
    if actor is not None and not may_import(actor):
        raise Forbidden(
            "Importing records of the past is for the clerk, the engineer and the Superintendent."
        )


def _report_rows(report: ImportReport, found: Plan) -> None:
    """A row of the report for each row read: new (what it creates) or refused (why)."""
    by_row: dict[tuple[str, int], list[Problem]] = {}
    for p in found.problems:
        by_row.setdefault((p.file, p.row), []).append(p)
    planned = {(p.file, p.row): p for p in found.all_rows()}
    keys = sorted(set(by_row) | set(planned), key=lambda k: (_FILE_INDEX.get(k[0], 99), k[1]))
    for key in keys:
        problems = by_row.get(key)
        item = planned.get(key)
        if problems:
            report.rows.append(
                {
                    "file": key[0],
                    "row": key[1],
                    "status": "refused",
                    "number": item.number if item is not None else "",
                    "errors": [{"field": p.field, "message": p.message} for p in problems],
                }
            )
        elif item is not None:
            report.rows.append(
                {
                    "file": key[0],
                    "row": key[1],
                    "status": "new",
                    "number": item.number,
                    "what": item.label(),
                    "state": item.state,
                    "state_label": _state_label(item),
                    "record": _office_number(item.created) if item.created is not None else None,
                    "url": item.created.get_absolute_url()
                    if item.created is not None and hasattr(item.created, "get_absolute_url")
                    else None,
                }
            )


def _state_label(item: Planned) -> str:
    """The state's words (a condition or a limit: "")."""
    if not item.state:
        return ""
    workflow = getattr(item.model, "WORKFLOW", None)
    if workflow is not None:
        return str(workflow.label(item.state))
    if item.model is Inspection:
        return str(InspectionState(item.state).label)
    return item.state


def _office_number(obj: Any) -> str:
    return str(getattr(obj, "number", "") or obj)


def _counts(found: Plan) -> dict[str, int]:
    counts: dict[str, int] = {}
    for p in found.all_rows():
        counts[p.file] = counts.get(p.file, 0) + 1
    return counts


def import_records(
    bundle: Bundle,
    actor: Actor,
    *,
    source: str = "",
    dry_run: bool = False,
    today: date | None = None,
) -> ImportReport:
    """Check every row of ``bundle``; unless ``dry_run`` or a row is refused, write it all in
    one transaction (see the module). ``source`` is where the paper records are kept, for the
    rows that do not say. :class:`UnusableFile` for a bundle that cannot be read at all."""
    _check_actor(actor)
    report = ImportReport(name=bundle.name, sha256=bundle.sha256, dry_run=dry_run)
    earlier = RecordImport.objects.filter(sha256=bundle.sha256).first()
    if earlier is not None:
        report.refused_reason = _already(earlier)
        return report
    if dry_run:
        found = plan(bundle, default_source=source, today=today)
        _finish_report(report, found)
        return report
    try:
        with files_of_transaction(), transaction.atomic():
            found = plan(bundle, default_source=source, today=today)
            if not found.ok:
                _finish_report(report, found)
                return report
            report.batch = _write(bundle, found, actor, source)
            report.stored = True
    except IntegrityError:
        earlier = RecordImport.objects.filter(sha256=bundle.sha256).first()
        if earlier is None:
            raise
        report.refused_reason = _already(earlier)
        return report
    _finish_report(report, found)
    return report


_FILE_INDEX = {
    name: i
    for i, name in enumerate(
        (
            "permits.csv",
            "approvals.csv",
            "approval_conditions.csv",
            "approval_limits.csv",
            "inspections.csv",
            "violations.csv",
        )
    )
}


def _finish_report(report: ImportReport, found: Plan) -> None:
    report.problems = list(found.problems)
    report.counts = _counts(found)
    report.notes = list(found.notes)
    _report_rows(report, found)


def _already(earlier: RecordImport) -> str:
    when = timezone.localdate(earlier.imported_at)
    return (
        f"these records were imported already: import #{earlier.pk} ({earlier.name}) on "
        f"{when}, by {earlier.imported_by_name} (the same SHA-256)"
    )


# --- writing ------------------------------------------------------------------------------------


def _write(bundle: Bundle, found: Plan, actor: Actor, source: str) -> RecordImport:
    """Everything ``found`` plans, in the caller's transaction: the records, then the import
    that brought them (written once, with what it attached)."""
    user = person_or_none(actor)
    now = timezone.now()
    name = bundle.name[: RecordImport._meta.get_field("name").max_length or 300]
    attached: dict[str, list[str]] = {}
    for p in found.records:
        record = _create(p)
        reason = _reason(p, name, bundle.sha256)
        after = audit.snapshot(record)
        if p.conditions:
            after["conditions"] = [c.fields for c in p.conditions]
        audit.record(
            actor=actor,
            action="import_record",
            obj=record,
            after=after,
            citation=p.citation,
            state_to=p.state,
            reason=reason,
            at=now,
        )
        ImportedRecord.objects.create(
            content_type=ContentType.objects.get_for_model(record),
            object_id=str(record.pk),
            original_number=p.number,
            made_on=p.made_on,
            source=p.source,
            batch_name=name,
            batch_sha256=bundle.sha256,
            file=p.file,
            row=p.row,
            as_written=p.as_written,
            imported_at=now,
            imported_by=user,
        )
        for limit in p.limits:
            limit.created = audit.create_recorded(
                DischargeLimit,
                {**limit.fields["values"], "approval": record},
                actor=actor,
                action="import_discharge_limit",
                citation=limit.citation,
                reason=f"a limit of {_office_number(record)}, imported with it ({reason})",
                at=now,
            )
        for doc in p.documents:
            attach(
                record,
                SimpleUploadedFile(doc, bundle.documents[doc]),
                actor,
                title=f"{doc} (scan of the paper record)",
                at=now,
                kinds=DOCUMENT_KINDS,
            )
            attached.setdefault(doc, []).append(_office_number(record))
    batch = RecordImport.objects.create(
        name=name,
        sha256=bundle.sha256,
        source=source.strip(),
        counts=_counts(found),
        documents=[
            {
                "name": doc,
                "size": len(bundle.documents[doc]),
                "sha256": hashlib.sha256(bundle.documents[doc]).hexdigest(),
                "records": records,
            }
            for doc, records in sorted(attached.items())
        ],
        imported_at=now,
        imported_by=user,
    )
    audit.record(
        actor=actor,
        action="import_records",
        obj=batch,
        after={
            "name": batch.name,
            "sha256": batch.sha256,
            "counts": batch.counts,
            "documents": len(batch.documents),
            "source": batch.source,
        },
        reason=f"records of the past, made outside the office, imported from {batch.name}",
        at=now,
    )
    return batch


def _reason(p: Planned, name: str, sha256: str) -> str:
    paper = f"number on paper {p.number}; " if p.number else ""
    return (
        f"Imported record, made outside the office{f' on {p.made_on}' if p.made_on else ''}: "
        f"{paper}from {p.source}; import {name} ({p.file} row {p.row}, SHA-256 "
        f"{sha256[:16]}…)"
    )


def _create(p: Planned) -> Any:
    """The record of ``p`` as the paper has it (an application numbered as the office numbers
    its applications; an approval with its conditions)."""
    fields = dict(p.fields)
    if p.model is IndustrialDischargeApproval and p.renews is not None:
        fields["renews"] = p.renews.created if isinstance(p.renews, Planned) else p.renews
    record = p.model(**fields)
    if isinstance(record, Application):
        record.state = p.state
        record.submitted_by = None
        record.save()
        record.assign_number()
        record.save(update_fields=["number"])
    else:
        record.save()
    if isinstance(record, IndustrialDischargeApproval):
        for c in p.conditions:
            c.created = ApprovalCondition.objects.create(approval=record, **c.fields)
    p.created = record
    return record
