"""inspections.csv: inspections scheduled, completed or cancelled, each with its inspector.

What a row may fill follows its state: a scheduled or a cancelled inspection did not take place
(no start, no observations), a completed one did, before today. The inspector is an office
account; one still to perform a scheduled inspection must be allowed to.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from sewer_office.accounts.roles import has_role
from sewer_office.inspections.checklists import FACILITY_KINDS
from sewer_office.inspections.choices import InspectionKind, InspectionState
from sewer_office.inspections.models import Inspection
from sewer_office.inspections.services import PERFORMERS

from .context import Context, paper_record
from .values import RowError, choice, fits, left_empty, moment, yes


def inspection(ctx: Context, row_no: int, row: dict[str, str]) -> None:
    p = paper_record(
        ctx, "inspections.csv", row_no, row, Inspection, what="Inspection", number_required=False
    )
    kind = choice(row, "kind", InspectionKind.values)
    p.state = choice(row, "state", InspectionState.values)
    establishment = ctx.registry.facility(row)
    prop = ctx.registry.prop(row)
    if establishment is None and prop is None:
        raise RowError("facility", "name the facility (or the property, parcel) inspected")
    if kind in FACILITY_KINDS and establishment is None:
        raise RowError("facility", "this kind of inspection is of a facility: name it")
    on_easement = yes(row, "on_easement")
    if on_easement and not row.get("location"):
        raise RowError("location", "describe where on the easement the works lie (§ 196-21 B)")
    inspector = ctx.registry.user(row, "inspector")
    unscheduled = yes(row, "unscheduled")
    scheduled_for = moment(row, "scheduled_for")
    started = moment(row, "started_at")
    ended = moment(row, "ended_at")
    fields: dict[str, Any] = {
        "kind": kind,
        "unscheduled": unscheduled,
        "establishment": establishment,
        "property": prop,
        "location": row.get("location", ""),
        "on_easement": on_easement,
        "inspector": inspector,
        "scheduled_by": None,
        "notes": row.get("notes", ""),
        "state": p.state,
    }
    if p.state == InspectionState.SCHEDULED:
        left_empty(
            row,
            ("started_at", "ended_at", "observations", "credential", "cancel_reason"),
            "a scheduled inspection has not taken place: leave it empty",
        )
        if not unscheduled and scheduled_for is None:
            raise RowError(
                "scheduled_for", "required for a scheduled inspection (or mark it unscheduled)"
            )
        if not has_role(inspector, *PERFORMERS):
            raise RowError(
                "inspector",
                f"{inspector.get_username()} cannot perform it: a scheduled inspection is "
                "performed by the Superintendent, the engineer or the Building Inspector",
            )
        fields["scheduled_for"] = scheduled_for
        p.made_on = timezone.localdate(scheduled_for) if scheduled_for else None
    elif p.state == InspectionState.COMPLETED:
        if started is None:
            raise RowError("started_at", "required: when the inspection took place")
        if started > timezone.now():
            raise RowError(
                "started_at", "in the future: a completed inspection took place before today"
            )
        if ended is not None and ended < started:
            raise RowError("ended_at", "before the start")
        if row.get("cancel_reason"):
            raise RowError("cancel_reason", "the inspection was completed, not cancelled")
        credential = row.get("credential", "")
        fields.update(
            {
                "scheduled_for": scheduled_for or (None if unscheduled else started),
                "started_at": started,
                "ended_at": ended,
                "completed_at": ended or started,
                "observations": row.get("observations", ""),
                "credentials_presented": bool(credential),
                "credential": credential,
            }
        )
        p.made_on = timezone.localdate(started)
    else:  # cancelled
        if not row.get("cancel_reason"):
            raise RowError("cancel_reason", "required: why the inspection was cancelled")
        left_empty(
            row,
            ("started_at", "ended_at", "observations", "credential"),
            "a cancelled inspection did not take place: leave it empty",
        )
        fields["scheduled_for"] = scheduled_for
        fields["cancel_reason"] = row["cancel_reason"]
        p.made_on = timezone.localdate(scheduled_for) if scheduled_for else None
    for name in ("location", "credential"):
        fits(Inspection, name, fields.get(name, ""))
    p.fields = fields
    p.citation = "§ 196-21 B" if on_easement else "§ 196-21 A"
    ctx.plan.records.append(p)
