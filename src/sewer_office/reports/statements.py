"""The facility's part of a baseline report (40 CFR 403.12(b)) before it is assembled: its
statement (permits, operations, flows, standards, explanations of what does not apply) and
the files it sends with it (a process diagram, a laboratory's report). Both are the
facility's to write while the report is open; the office reviews the signed report
(:mod:`.services`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from sewer_office.accounts.access import can_see
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import (
    is_staff_member,
)
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.pretreatment import status
from sewer_office.pretreatment.choices import ReportKind
from sewer_office.pretreatment.models import ReportDue
from sewer_office.reports import baseline
from sewer_office.reports.models import (
    BaselineStatement,
)

#: The facility's statement for its baseline report, by field (see ``BaselineStatement``).
STATEMENT_FIELDS = (
    "permits_held",
    "operations",
    "sic_codes",
    "production_rate",
    "standards_applicable",
    "average_flow_gpd",
    "maximum_flow_gpd",
    "meets_standards",
    "additional_measures",
    "compliance_schedule",
)


def _open_for_the_facility(actor: Actor, due: ReportDue, what: str) -> None:
    """The facility's own accounts write its report (the office reviews it), while it is open."""
    if not can_see(actor, due):
        raise Forbidden("This report is another facility's.")
    if is_staff_member(actor):
        raise Forbidden(f"{what} is the facility's: the office reviews the signed report.")
    if due.received_on is not None:
        raise Blocked(f"This report was already received on {due.received_on}.")
    if status.status_of(due).in_review:
        raise Blocked("A signed report of this due date is in the office's review.")


def save_statement(actor: Actor, due: ReportDue, values: Mapping[str, Any]) -> BaselineStatement:
    """Record the facility's statement for its baseline report (each change audited); a
    report assembled before keeps the statement it was assembled with.

    ``values`` is the statement form's cleaned data, kept a mapping on purpose: the ten
    :data:`STATEMENT_FIELDS` and one ``explain_<code>`` per element of ``baseline.ITEMS`` (or an
    ``explanations`` mapping from the API), whose keys come from the rule's items, not from a
    class a TypedDict could name."""
    if due.kind != ReportKind.BASELINE:
        raise Blocked("Only a baseline report (40 CFR 403.12(b)) has this statement.")
    _open_for_the_facility(actor, due, "The baseline statement")
    clean = {k: values.get(k) for k in STATEMENT_FIELDS}
    for k, v in clean.items():
        if isinstance(v, str):
            clean[k] = v.strip()
    errors: dict[str, list[str]] = {}
    clean["explanations"] = _explanations(values, errors)
    for k in ("average_flow_gpd", "maximum_flow_gpd"):
        flow = clean[k]
        if flow is not None and flow < 0:
            errors[k] = ["A flow is zero or more gallons per day."]
    avg, peak = clean["average_flow_gpd"], clean["maximum_flow_gpd"]
    if avg is not None and peak is not None and peak < avg:
        errors["maximum_flow_gpd"] = ["The maximum daily flow is at least the average."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        ReportDue.objects.select_for_update().get(pk=due.pk)
        found = BaselineStatement.objects.filter(due=due).first()
        if found is None:
            return audit.create_recorded(
                BaselineStatement,
                {"due": due, "updated_by": actor, **clean},
                actor=actor,
                action="record_baseline_statement",
                citation="40 CFR 403.12(b)",
            )
        before = audit.snapshot(found)
        for k, v in clean.items():
            setattr(found, k, v)
        found.updated_by = signed_in(actor)
        found.save()
        audit.record(
            actor=actor,
            action="record_baseline_statement",
            obj=found,
            before=before,
            after=audit.snapshot(found),
            citation="40 CFR 403.12(b)",
        )
    return found


def _explanations(values: Mapping[str, Any], errors: dict[str, list[str]]) -> dict[str, str]:
    """Why an element does not apply or is not given, by element code: from ``explanations``
    (a mapping) or the form's ``explain_<code>`` fields; empty ones are left out."""
    given = dict(values.get("explanations") or {})
    for item in baseline.ITEMS:
        if f"explain_{item.code}" in values:
            given[item.code] = values[f"explain_{item.code}"]
    codes = {item.code for item in baseline.ITEMS}
    unknown = sorted(str(k) for k in given if k not in codes)
    if unknown:
        errors["explanations"] = [f"Not an element of 40 CFR 403.12(b): {', '.join(unknown)}."]
    return {
        k: str(v).strip() for k, v in sorted(given.items()) if k in codes and str(v or "").strip()
    }


def attach_files(actor: Actor, due: ReportDue, uploads: list[Any], kind: str) -> list[Any]:
    """Files sent with the report (a process diagram, a laboratory's report…): stored with
    their SHA-256 on the due date; the next assembled report lists them in its data."""
    _open_for_the_facility(actor, due, "Sending a file with a report")
    if kind not in baseline.ATTACHMENT_KINDS:
        raise InvalidInput({"kind": ["Choose what the file is."]})
    if not uploads:
        raise InvalidInput({"files": ["Choose a file to send."]})
    with files_of_transaction(), transaction.atomic():
        return [
            attach(due, f, actor, title=f"{kind}: {f.name}", kinds=DOCUMENT_KINDS) for f in uploads
        ]
