"""permits.csv: the permits of every kind but the industrial approvals, one kind per row.

A row's kind says which columns it reads (:data:`~.columns.PERMIT_FIELDS`); a value in another
kind's column is refused rather than lost. An application still waiting on something the office
does on filing (its fee, the check of its design) is refused: it is filed in the office instead.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sewer_office.core.town_law import town_of
from sewer_office.permits import rules as permit_rules
from sewer_office.permits.kinds import KINDS
from sewer_office.registry.models import Building, Property
from sewer_rules.hostile import shorten
from sewer_rules.parameters import ParameterError

from .columns import PERMIT_FIELDS, PERMIT_KIND_COLUMNS, PERMIT_REQUIRED
from .context import Context, paper_record
from .values import RowError, choice, model_value, not_future, past_day

#: States an application cannot be imported in, and why: what it waits for (the filing fee, the
#: check of its design) is the office's to do on an application filed there.
REFUSED_STATES: dict[str, dict[str, str]] = {
    "building-sewer": {
        "submitted": "an application awaiting its filing fee is filed in the office as a new "
        "application (§ 196-18 B: the fee in force on the day it is filed is assessed then)",
        "plan_review": "an application whose plans are still under review is filed in the "
        "office with its design, which the engineer's checks read (§ 196-18 D, F, G, H)",
    },
    "subdivision": {
        "submitted": "an application awaiting its fee is filed in the office as a new "
        "application (the fee is assessed and invoiced there, § 196-23)"
    },
}
#: Kinds whose applicant, when the row leaves it empty, is the facility's operator.
OPERATOR_APPLIES = ("grinder", "interceptor")


def permit(ctx: Context, row_no: int, row: dict[str, str]) -> None:
    slug = row.get("kind", "")
    if slug == "industrial":
        raise RowError("kind", "industrial discharge approvals go in approvals.csv")
    if slug not in PERMIT_FIELDS:
        raise RowError("kind", f"'{shorten(slug)}' is not one of {', '.join(PERMIT_FIELDS)}")
    kind = KINDS[slug]
    model = kind.model
    p = paper_record(ctx, "permits.csv", row_no, row, model, what=kind.label, number_required=True)
    p.state = choice(row, "state", [s.value for s in kind.workflow.states])
    refused = REFUSED_STATES.get(slug, {}).get(p.state)
    if refused:
        raise RowError("state", f"not importable as {p.state}: {refused}")
    mine = PERMIT_FIELDS[slug]
    for column in PERMIT_KIND_COLUMNS:
        if row.get(column) and column not in mine:
            raise RowError(column, f"not a field of a {kind.label.lower()}: leave it empty")
    for column in PERMIT_REQUIRED[slug]:
        if not row.get(column):
            raise RowError(column, f"required for a {kind.label.lower()}")
    filed_on = past_day(row, "filed_on", ctx.today)
    establishment = ctx.registry.facility(row) if "facility" in mine else None
    prop = ctx.registry.prop(row)
    if establishment is not None:
        own = establishment.building.property
        if prop is not None and prop.pk != own.pk:
            raise RowError(
                "parcel", f"{establishment.name} is on {own.parcel_id}, not {prop.parcel_id}"
            )
        prop = own
    if prop is None:
        raise RowError("parcel", "required: the tax parcel id (or SBL) of the property")
    applicant = ctx.registry.person(row, "applicant", "applicant_id")
    if applicant is None:
        if slug in OPERATOR_APPLIES and establishment is not None:
            applicant = establishment.operator.current()
        else:
            raise RowError("applicant", "required: the applicant's name as in the registry")
    fields: dict[str, Any] = {
        "applicant": applicant,
        "property": prop,
        "filed_on": filed_on,
        "description": row.get("description", ""),
    }
    for column, name in mine.items():
        if name == "establishment":
            fields[name] = establishment
        elif name == "building":
            fields[name] = _building(prop, row, required=slug == "flushing")
        else:
            fields[name] = model_value(model, name, row, column)
            if isinstance(fields[name], date) and column != "planned_on":
                not_future(column, fields[name], ctx.today)
    if slug == "grinder":  # what the rules say of it, as on filing (none before the article)
        try:
            fields["rule_check"] = permit_rules.grinder_check(
                town_of(prop), fields["motor_hp"], filed_on
            )
        except ParameterError:
            fields["rule_check"] = {}
    decided = fields.get("decided_on")
    p.fields = fields
    p.made_on = decided if isinstance(decided, date) else filed_on
    p.citation = model.CITATION
    ctx.plan.records.append(p)


def _building(prop: Property, row: dict[str, str], *, required: bool) -> Building | None:
    name = row.get("building", "")
    buildings = list(prop.buildings.all())
    if name:
        named = [b for b in buildings if b.name.lower() == name.lower()]
        if len(named) != 1:
            raise RowError(
                "building",
                f"{prop.parcel_id} has {'no' if not named else 'several'} building named "
                f"{shorten(name)} (its buildings: {', '.join(b.name for b in buildings) or 'none'})",
            )
        return named[0]
    if not required:
        return None
    if len(buildings) == 1:
        return buildings[0]
    raise RowError(
        "building",
        f"{prop.parcel_id} has {len(buildings)} buildings: name the one "
        f"({', '.join(b.name for b in buildings) or 'none registered'})",
    )
