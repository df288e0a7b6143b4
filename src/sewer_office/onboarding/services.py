"""Services of the onboarding app: the column mappings kept, an import applied, a row of the
review queue resolved or dismissed. Each checks the role and writes its audit events in the
same transaction as its change.

Who: the clerk, who keeps the registry, the engineer and the Superintendent (the staff roles
that import the town's records). ``actor`` None is the command line at the server, which acts
for the office (``sewer-use import-facilities`` without ``--as``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput, OfficeError
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Property

from .choices import ReviewState, RowOutcome
from .importing import (
    BY_NAME,
    REQUIRED,
    MappingSpec,
    Plan,
    Planner,
    header_key,
    plan_import,
    values_key,
    word_key,
)
from .models import ColumnMapping, FacilityImport, ReviewItem
from .spreadsheet import Sheet
from .writing import Writer

IMPORT_ROLES = (CLERK, ENGINEER, SUPERINTENDENT)
#: The advisory lock that keeps two imports (or resolutions) from registering one operator twice.
LOCK_KEY = 196_150_001


def require_importer(actor: Actor | None) -> None:
    if actor is not None and not has_role(actor, *IMPORT_ROLES):
        raise Forbidden(
            "Importing users and facilities is the clerk's, the engineer's or the "
            "Superintendent's work."
        )


def _lock() -> None:
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


# --- column mappings ---------------------------------------------------------------------------


def save_mapping(
    actor: Actor,
    *,
    name: str,
    header: list[str],
    columns: dict[str, str],
    kind_values: dict[str, str],
    mapping: ColumnMapping | None = None,
) -> ColumnMapping:
    """Create (or, given ``mapping`` or an existing ``name``, update) a column mapping, audited.
    Refused: a required field without its column, a column the header lacks, one column for
    two fields, a word mapped to what is not a kind."""
    require_importer(actor)
    name = " ".join(name.split())
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["Name the mapping (e.g. the file's source: “Town list 2026”)."]
    columns = {t: c for t, c in columns.items() if c}
    for target in REQUIRED:
        if target not in columns:
            errors.setdefault(target, []).append(f"{BY_NAME[target].label}: choose its column.")
    used: dict[str, str] = {}
    for target, column in columns.items():
        if target not in BY_NAME:
            errors.setdefault("__all__", []).append(f"{target}: not a field of the import.")
        elif column not in header:
            errors.setdefault(target, []).append(f"{column!r} is not a column of the file.")
        elif column in used:
            errors.setdefault(target, []).append(
                f"{column!r} is already the column of {BY_NAME[used[column]].label}."
            )
        used.setdefault(column, target)
    words: dict[str, str] = {}
    for word, kind in kind_values.items():
        if not kind:
            continue
        if kind not in EstablishmentKind.values:
            errors.setdefault("kind", []).append(f"{word!r}: {kind!r} is not a kind.")
        elif word_key(word):
            words[word_key(word)] = kind
    if errors:
        raise InvalidInput(errors)
    fields = {
        "name": name,
        "header": list(header),
        "header_key": header_key(header),
        "columns": columns,
        "kind_values": words,
    }
    with transaction.atomic():
        existing = mapping
        if existing is None:
            existing = ColumnMapping.objects.select_for_update().filter(name=name).first()
        elif ColumnMapping.objects.filter(name=name).exclude(pk=existing.pk).exists():
            raise InvalidInput({"name": [f"A mapping named {name!r} exists already."]})
        if existing is None:
            return audit.create_recorded(
                ColumnMapping,
                {**fields, "created_by": person_or_none(actor)},
                actor=actor,
                action="create_column_mapping",
            )
        locked = ColumnMapping.objects.select_for_update().get(pk=existing.pk)
        return audit.change_recorded(locked, fields, actor=actor, action="change_column_mapping")


def delete_mapping(actor: Actor, mapping: ColumnMapping) -> None:
    """Delete a mapping, audited (the imports made with it keep their own copy of it)."""
    require_importer(actor)
    with transaction.atomic():
        locked = ColumnMapping.objects.select_for_update().get(pk=mapping.pk)
        audit.record(
            actor=actor,
            action="delete_column_mapping",
            obj=locked,
            before=audit.snapshot(locked),
        )
        locked.delete()


def mapping_for_header(header: list[str]) -> ColumnMapping | None:
    """The saved mapping chosen for a file with this header (the same set of column names),
    the one changed last when several are."""
    return (
        ColumnMapping.objects.filter(header_key=header_key(header))
        .order_by("-updated_at", "-id")
        .first()
    )


# --- an import refused ------------------------------------------------------------------------


class ImportRefused(OfficeError):
    """Refused rows (bad data): nothing is written; ``plan`` lists them by row and field."""

    status_code = 400

    def __init__(self, plan: Plan) -> None:
        n = len(plan.errors)
        super().__init__(
            f"{plan.source_name}: refused, nothing written ({n} error{'s' if n != 1 else ''})"
        )
        self.plan = plan


class PlanChanged(OfficeError):
    """The registry changed since the preview: the new plan is shown, not applied."""

    status_code = 409

    def __init__(self, plan: Plan) -> None:
        super().__init__(
            "The registry changed since this preview (or the file or mapping did): look at the "
            "preview again and apply it if it is right. Nothing was written."
        )
        self.plan = plan


# --- an import applied -------------------------------------------------------------------------


@dataclass
class Applied:
    facility_import: FacilityImport
    plan: Plan


def preview(sheet: Sheet, mapping: MappingSpec, actor: Actor) -> Plan:
    """What applying would do (nothing written)."""
    require_importer(actor)
    return plan_import(sheet, mapping)


def apply_import(
    sheet: Sheet,
    mapping: MappingSpec,
    actor: Actor,
    *,
    digest: str,
    expected: str = "",
) -> Applied:
    """Apply ``sheet`` through ``mapping``: planned again here, inside the transaction; refused
    whole (:class:`ImportRefused`) when any row is; refused (:class:`PlanChanged`) when
    ``expected`` (the preview's fingerprint) is given and the plan differs; refused
    (:class:`~sewer_office.core.errors.Blocked`) when nothing would change. Otherwise the new
    and changed facilities, their operators and buildings, and the unmatched rows queued for
    review, with one audit event for the import (file name, SHA-256, counts)."""
    require_importer(actor)
    with transaction.atomic():
        _lock()
        plan = plan_import(sheet, mapping)
        if plan.refused:
            raise ImportRefused(plan)
        if expected and plan.fingerprint() != expected:
            raise PlanChanged(plan)
        if not plan.has_work:
            raise Blocked(
                f"{sheet.source_name}: nothing to change — every row is in the registry as the "
                "file says, or already in the review queue. Nothing was written."
            )
        counts = plan.counts
        imp = audit.create_recorded(
            FacilityImport,
            {
                "source_name": sheet.source_name[:255],
                "sha256": digest,
                "sheet": sheet.sheet,
                "mapping_name": mapping.name,
                "mapping": mapping.snapshot(),
                "imported_by": person_or_none(actor),
                "imported_at": timezone.now(),
                "row_count": len(plan.rows),
                "new_count": counts[RowOutcome.NEW],
                "changed_count": counts[RowOutcome.CHANGED],
                "unchanged_count": counts[RowOutcome.UNCHANGED] + counts[RowOutcome.QUEUED_BEFORE],
                "queued_count": counts[RowOutcome.UNMATCHED],
                "persons_new_count": len(plan.new_persons),
            },
            actor=actor,
            action="import_facilities",
        )
        writer = Writer(plan, actor, f"facilities import #{imp.pk} ({sheet.source_name})")
        outcomes: list[dict[str, Any]] = []
        for row in plan.rows:
            est = writer.row(row)
            item_id = row.queued_item
            if row.outcome == RowOutcome.UNMATCHED:
                item = audit.create_recorded(
                    ReviewItem,
                    {
                        "facility_import": imp,
                        "row": row.row,
                        "values": row.values,
                        "values_key": values_key(row.values),
                        "reason": row.reason[:300],
                    },
                    actor=actor,
                    action="queue_for_review",
                    reason=f"no parcel found: {row.reason}",
                )
                item_id = item.pk
            outcomes.append(
                {
                    "row": row.row,
                    "outcome": str(row.outcome),
                    "outcome_label": row.outcome_label,
                    "facility": row.name,
                    "establishment": est.pk if est is not None else None,
                    "property": row.property_label,
                    "review_item": item_id,
                    "reason": row.reason,
                    "changes": row.changes(),
                    "notes": row.notes,
                }
            )
        imp.outcomes = outcomes
        imp.save(update_fields=["outcomes"])
    return Applied(imp, plan)


# --- the review queue --------------------------------------------------------------------------


def resolve_review_item(item: ReviewItem, prop: Property, actor: Actor) -> ReviewItem:
    """Create (or match) the facility of a queued row on the parcel the clerk chose, with its
    operator and building as an import would, and close the item, audited. The row is checked
    again as it stands now (a facility code taken since is refused)."""
    require_importer(actor)
    with transaction.atomic():
        _lock()
        locked = ReviewItem.objects.select_for_update().get(pk=item.pk)
        if locked.state != ReviewState.OPEN:
            raise Blocked(f"Item #{locked.pk} is {locked.get_state_display().lower()} already.")
        imp = locked.facility_import
        spec = MappingSpec.from_snapshot(imp.mapping)
        planner = Planner(spec, imp.source_name)
        values = {k: str(v) for k, v in locked.values.items()}
        row = planner.row(locked.row, values, property_id=prop.pk)
        if row.errors:
            errors: dict[str, list[str]] = {}
            for column, message in row.errors:
                errors.setdefault("__all__", []).append(f"{column}: {message}")
            raise InvalidInput(errors)
        writer = Writer(
            planner.plan, actor, f"review item #{locked.pk} of facilities import #{imp.pk}"
        )
        est = writer.row(row)
        assert est is not None
        return audit.change_recorded(
            locked,
            {
                "state": ReviewState.RESOLVED,
                "resolved_property": prop,
                "resolved_establishment": est,
                "decided_by": person_or_none(actor),
                "decided_at": timezone.now(),
            },
            actor=actor,
            action="resolve_review_item",
            reason=f"{est.name} (#{est.pk}) at {prop}: {row.outcome}",
        )


def dismiss_review_item(item: ReviewItem, reason: str, actor: Actor) -> ReviewItem:
    """Set a queued row aside, with the reason (nothing is created), audited."""
    require_importer(actor)
    reason = reason.strip()
    if not reason:
        raise InvalidInput({"reason": ["Say why the row is set aside."]})
    with transaction.atomic():
        locked = ReviewItem.objects.select_for_update().get(pk=item.pk)
        if locked.state != ReviewState.OPEN:
            raise Blocked(f"Item #{locked.pk} is {locked.get_state_display().lower()} already.")
        return audit.change_recorded(
            locked,
            {
                "state": ReviewState.DISMISSED,
                "decided_by": person_or_none(actor),
                "decided_at": timezone.now(),
                "decision_note": reason,
            },
            actor=actor,
            action="dismiss_review_item",
            reason=reason,
        )
