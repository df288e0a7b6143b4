"""approvals.csv and its two companions: industrial discharge approvals, their conditions and
their limits.

An approval is read first; approval_conditions.csv and approval_limits.csv then name it by its
paper number. A renewal names the approval it renews, listed above it in approvals.csv or already
in the office. A limit is checked with the others of its facility (in the office and in this
import) so that two limits of the same parameter and type are never in force on the same day.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.contenttypes.models import ContentType

from sewer_office.core.models import ImportedRecord
from sewer_office.core.town_law import town_of
from sewer_office.monitoring.choices import LimitType
from sewer_office.monitoring.models import DischargeLimit
from sewer_office.permits import rules as permit_rules
from sewer_office.permits.choices import DischargeKind
from sewer_office.permits.kinds import KINDS
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.models.industrial import CONDITION_KINDS
from sewer_office.permits.services.industrial import declared_source
from sewer_office.registry.models import Establishment
from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits
from sewer_rules.hostile import shorten

from .context import Context, Planned, paper_record
from .values import (
    RowError,
    as_written,
    choice,
    fits,
    left_empty,
    model_value,
    not_future,
    optional_date,
    past_day,
)

#: The approvals' states that are decisions to grant.
GRANTED = ("approved", "approved_with_conditions")


def _concentrations(row: dict[str, str]) -> dict[str, str]:
    """``copper=0.5; zinc=1.2`` → {"copper": "0.5", "zinc": "1.2"}."""
    out: dict[str, str] = {}
    for part in row.get("concentrations", "").split(";"):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise RowError(
                "concentrations", f"'{shorten(part.strip())}': write analyte=value; analyte=value"
            )
        try:
            Decimal(value.strip())
        except InvalidOperation:
            raise RowError(
                "concentrations", f"{name.strip()}: '{shorten(value.strip())}' is not a number"
            ) from None
        out[name.strip()] = value.strip()
    return out


def approval(ctx: Context, row_no: int, row: dict[str, str]) -> None:
    model = IndustrialDischargeApproval
    kind = KINDS["industrial"]
    p = paper_record(
        ctx, "approvals.csv", row_no, row, model, what=kind.label, number_required=True
    )
    p.state = choice(row, "state", [s.value for s in kind.workflow.states])
    establishment = ctx.registry.facility(row)
    if establishment is None:
        raise RowError("facility", "required: the facility's code (or its name)")
    applicant = (
        ctx.registry.person(row, "applicant", "applicant_id") or establishment.operator.current()
    )
    discharge_kind = choice(row, "discharge_kind", DischargeKind.values)
    filed_on = past_day(row, "filed_on", ctx.today)
    decided_on = optional_date(row, "decided_on")
    not_future("decided_on", decided_on, ctx.today)
    term = row.get("term_years", "")
    expires_on = optional_date(row, "expires_on")
    years: int | None = None
    if term:
        if not term.isdigit() or int(term) < 1 or int(term) > 99:
            raise RowError("term_years", f"'{shorten(term)}' is not a number of years")
        years = int(term)
    if p.state in (*GRANTED, "rejected"):
        if decided_on is None:
            raise RowError(
                "decided_on",
                f"required for an approval {p.state.replace('_', ' ')}: the day of the decision",
            )
        if decided_on < filed_on:
            raise RowError("decided_on", f"{decided_on} is before the request ({filed_on})")
    else:
        left_empty(
            row,
            ("decided_on", "term_years", "expires_on"),
            f"an approval {kind.workflow.label(p.state).lower()} has no decision yet: leave it empty",
        )
    if p.state in GRANTED:
        assert decided_on is not None
        if years is not None and expires_on is None:
            expires_on = permit_rules.approval_expiry(decided_on, years)
        if expires_on is not None and expires_on < decided_on:
            raise RowError("expires_on", f"{expires_on} is before the decision ({decided_on})")
    elif years is not None or expires_on is not None:
        raise RowError(
            "term_years" if years is not None else "expires_on",
            "only a granted approval has a term",
        )
    concentrations = _concentrations(row)
    evaluation: dict[str, Any] = {}
    if p.state in ("submitted", "under_review") and concentrations:
        probe = IndustrialDischargeApproval(discharge_kind=discharge_kind)
        evaluation = permit_rules.evaluate_declared_discharge(
            town=town_of(establishment),
            on=filed_on,
            concentrations=concentrations,
            flow_gpd=model_value(model, "flow_gpd", row),
            temperature_f=model_value(model, "temperature_f", row),
            source=declared_source(probe),
        )
        if evaluation.get("errors"):
            first = evaluation["errors"][0]
            raise RowError("concentrations", f"{first['parameter']}: {first['message']}")
    renews: Any = None
    if row.get("renews"):
        renews = _renewed(ctx, row["renews"], establishment)
    p.fields = {
        "applicant": applicant,
        "property": establishment.building.property,
        "establishment": establishment,
        "discharge_kind": discharge_kind,
        "flow_gpd": model_value(model, "flow_gpd", row),
        "temperature_f": model_value(model, "temperature_f", row),
        "concentrations": concentrations,
        "categorical_category": model_value(model, "categorical_category", row),
        "evaluation": evaluation,
        "filed_on": filed_on,
        "decided_on": decided_on,
        "term_years": years,
        "expires_on": expires_on,
        "description": row.get("description", ""),
    }
    p.renews = renews
    p.made_on = decided_on or filed_on
    p.citation = "§ 196-16 F" if discharge_kind == DischargeKind.COOLING_WATER else "§ 196-16 E"
    ctx.plan.records.append(p)
    ctx.approvals[p.number] = p


def _renewed(ctx: Context, number: str, establishment: Establishment) -> Any:
    """The approval a row renews: one listed above it in approvals.csv (by its paper number), or
    one in the office (by its office number), granted, of the same facility."""
    earlier = ctx.approvals.get(number)
    if earlier is not None:
        if earlier.fields["establishment"].pk != establishment.pk or earlier.state not in GRANTED:
            raise RowError(
                "renews", f"{shorten(number)} is not a granted approval of {establishment.name}"
            )
        return earlier
    if number in ctx.listed_approvals:
        raise RowError("renews", f"{shorten(number)} (in approvals.csv) has a problem of its own")
    found = IndustrialDischargeApproval.objects.filter(number=number).first()
    if found is None:
        found = next(
            (
                r.record
                for r in ImportedRecord.objects.filter(
                    content_type=ContentType.objects.get_for_model(IndustrialDischargeApproval),
                    original_number=number,
                )
            ),
            None,
        )
    if found is None:
        raise RowError(
            "renews",
            f"no approval {shorten(number)}: name one listed above in approvals.csv, or an "
            "approval of the office",
        )
    if found.establishment_id != establishment.pk or not found.approved:
        raise RowError(
            "renews", f"{found.number} is not a granted approval of {establishment.name}"
        )
    return found


def _approval_of(ctx: Context, row: dict[str, str]) -> Planned:
    """The approval of approvals.csv a condition's or a limit's row names."""
    number = row.get("approval", "")
    if not number:
        raise RowError("approval", "required: the approval's number as in approvals.csv")
    found = ctx.approvals.get(number)
    if found is None:
        listed = number in ctx.listed_approvals
        raise RowError(
            "approval",
            f"{shorten(number)} {'has a problem of its own' if listed else 'is not in approvals.csv'}",
        )
    return found


# --- approval_conditions.csv --------------------------------------------------------------------


def condition(ctx: Context, row_no: int, row: dict[str, str]) -> None:
    approval = _approval_of(ctx, row)
    if approval.state != "approved_with_conditions":
        raise RowError(
            "approval",
            f"{approval.number} is {approval.state.replace('_', ' ')}: only an approval approved "
            "with conditions has conditions (§ 196-19 E(1))",
        )
    key = choice(row, "kind", CONDITION_KINDS)
    text = row.get("text", "")
    if not text:
        raise RowError("text", "required: the condition as the approval states it")
    _label, citation = CONDITION_KINDS[key]
    p = Planned(
        file="approval_conditions.csv",
        row=row_no,
        model=approval.model,
        fields={"kind": key, "text": text, "citation": citation},
        number=approval.number,
        what=f"Condition ({citation}) of",
        as_written=as_written(row),
    )
    approval.conditions.append(p)
    ctx.plan.attached.append(p)


def granted_conditions(ctx: Context) -> None:
    """An approval approved with conditions states at least one (as the office's form asks)."""
    for p in ctx.approvals.values():
        if p.state == "approved_with_conditions" and not p.conditions:
            ctx.problem(
                p.file,
                p.row,
                "state",
                f"{p.number} is approved with conditions: list them in approval_conditions.csv",
            )


# --- approval_limits.csv ------------------------------------------------------------------------


def limit(ctx: Context, row_no: int, row: dict[str, str]) -> None:
    approval = _approval_of(ctx, row)
    if approval.state not in GRANTED:
        raise RowError(
            "approval", f"{approval.number} is not granted: only a granted approval sets limits"
        )
    establishment: Establishment = approval.fields["establishment"]
    if not establishment.code:
        raise RowError(
            "approval",
            f"{establishment.name} has no facility code: give it one first (limits are read by it)",
        )
    limit_type = choice(row, "limit_type", LimitType.values)
    start = optional_date(row, "effective_from") or approval.fields["decided_on"]
    end = optional_date(row, "effective_to") or approval.fields["expires_on"]
    candidate = DischargeLimit(
        establishment=establishment,
        parameter=row.get("parameter", ""),
        limit_type=limit_type,
        value=row.get("value", ""),
        unit=row.get("unit", ""),
        effective_from=start,
        effective_to=end,
        citation=row.get("citation", "") or "§ 196-16 E",
    )
    for name in ("parameter", "value", "unit", "citation"):
        fits(DischargeLimit, name, getattr(candidate, name))
    record = candidate.as_record()
    try:
        PermitLimits.from_records([record])
    except PermitLimitError as e:
        column, message = _limit_field(str(e))
        raise RowError(column, message) from None
    existing = [
        lim.as_record()
        for lim in DischargeLimit.objects.filter(establishment=establishment).select_related(
            "establishment", "approval"
        )
    ]
    others = [
        lim.fields["record"]
        for a in ctx.approvals.values()
        for lim in a.limits
        if a.fields["establishment"].pk == establishment.pk
    ]
    try:
        PermitLimits.from_records([*existing, *others, record])
    except PermitLimitError:
        raise RowError(
            "effective_from",
            f"another {limit_type.replace('_', ' ')} limit of {record['parameter']} at "
            f"{establishment.code} is in force on some of the same days",
        ) from None
    fields = {
        f.attname: getattr(candidate, f.attname)
        for f in DischargeLimit._meta.concrete_fields
        if f.attname not in ("id", "approval_id", "created_at", "updated_at")
    }
    p = Planned(
        file="approval_limits.csv",
        row=row_no,
        model=DischargeLimit,
        fields={"values": fields, "record": record},
        number=approval.number,
        what=f"Limit ({record['parameter']} {limit_type.replace('_', ' ')}) of",
        citation=candidate.citation,
        as_written=as_written(row),
    )
    approval.limits.append(p)
    ctx.plan.attached.append(p)


def _limit_field(message: str) -> tuple[str, str]:
    """The column and the words of a limits error (``... field 'unit': ...``)."""
    _head, sep, rest = message.partition("field '")
    if sep:
        column, _q, words = rest.partition("': ")
        return column, words or rest
    return "parameter", message
