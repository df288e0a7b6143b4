"""The rows of an import of records of the past, read and checked: what each would create.

Every row of every file is checked before anything is written (:func:`plan`); a problem is
listed with its file, row (the header is row 1) and field, and one problem anywhere refuses the
whole import. The columns of each file, what each means and the rules are documented in
``docs/past-records.md``; :data:`COLUMNS` is their list here (a column not listed refuses the
file, so that a misspelt column never silently loses what it holds).

Who and where are matched, never created: a person by ``*_id`` or by name (exactly one of the
registry's, once merged duplicates are followed), a property by its tax parcel id or SBL, a
facility by its facility code or name, an inspector by an office account's user name. A record
that names someone the registry lacks is refused, naming the row: register the person (or the
facility) first, then import.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from sewer_office.accounts.roles import has_role
from sewer_office.core import filetypes
from sewer_office.core.attachments import DOCUMENT_KINDS
from sewer_office.core.errors import InvalidInput
from sewer_office.core.models import ImportedRecord
from sewer_office.enforcement import grounds
from sewer_office.enforcement import rules as enforcement_rules
from sewer_office.enforcement.models import Violation
from sewer_office.inspections.checklists import FACILITY_KINDS
from sewer_office.inspections.choices import InspectionKind, InspectionState
from sewer_office.inspections.models import Inspection
from sewer_office.inspections.services import PERFORMERS
from sewer_office.monitoring.choices import LimitType
from sewer_office.monitoring.models import DischargeLimit
from sewer_office.permits import rules as permit_rules
from sewer_office.permits.choices import DischargeKind
from sewer_office.permits.kinds import KINDS
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.models.industrial import CONDITION_KINDS
from sewer_office.permits.services.industrial import declared_source
from sewer_office.registry.models import Building, Establishment, Person, Property
from sewer_rules.enforcement_guide import GuideError
from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits
from sewer_rules.hostile import control_character, shorten
from sewer_rules.parameters import ParameterError

from .bundle import Bundle, UnusableFile

# --- the files' columns -------------------------------------------------------------------------

#: Columns every file of records may have.
COMMON = ("number", "documents", "source")

#: The columns of permits.csv each kind reads besides the common ones (column → model field).
#: A value in a column the row's kind does not read is refused (it would be lost).
PERMIT_FIELDS: dict[str, dict[str, str]] = {
    "building-sewer": {
        "permit_class": "permit_class",
        "service_use": "service_use",
        "industrial_wastes": "industrial_wastes",
        "building": "building",
        "reuses_old_sewer": "reuses_old_sewer",
        "fee_paid_on": "fee_paid_on",
        "fee_receipt": "fee_receipt",
        "fee_waived_on": "fee_waived_on",
        "fee_waiver_authority": "fee_waiver_authority",
        "plans_approved_on": "plans_approved_on",
        "road_opening_number": "road_opening_number",
        "road_opening_issued_on": "road_opening_issued_on",
        "ready_on": "ready_on",
        "inspected_on": "inspected_on",
        "connected_on": "connected_on",
        "supervised_by": "supervised_by",
    },
    "private-system": {
        "system_type": "system_type",
        "design_flow_gpd": "design_flow_gpd",
        "health_approval_ref": "health_approval_ref",
        "health_approved_on": "health_approved_on",
        "completion_ref": "completion_ref",
        "completed_on": "completed_on",
        "forms_filed_on": "forms_filed_on",
        "co_number": "co_number",
        "co_issued_on": "co_issued_on",
        "connection_required_on": "connection_required_on",
        "abandoned_on": "abandoned_on",
        "filled_with": "filled_with",
    },
    "subdivision": {
        "name": "name",
        "lots": "lots",
        "smallest_lot_acres": "smallest_lot_acres",
        "estimated_cost": "estimated_cost",
        "provision": "provision",
        "fee_paid_on": "fee_paid_on",
        "fee_receipt": "fee_receipt",
        "health_approval_ref": "health_approval_ref",
        "health_approved_on": "health_approved_on",
        "plans_approved_on": "plans_approved_on",
        "filed_with_planning_board_on": "filed_with_planning_board_on",
    },
    "grinder": {
        "facility": "establishment",
        "make_model": "make_model",
        "motor_hp": "motor_hp",
        "decided_on": "decided_on",
    },
    "interceptor": {
        "facility": "establishment",
        "interceptor_kind": "kind",
        "basis": "basis",
        "unit_type": "unit_type",
        "capacity": "capacity",
        "location": "location",
        "accessible": "accessible",
        "installed_on": "installed_on",
        "health_approval_ref": "health_approval_ref",
        "approved_on": "approved_on",
    },
    "flushing": {
        "building": "building",
        "planned_on": "planned_on",
        "water_source": "water_source",
        "water_unpolluted": "water_unpolluted",
        "tri_municipal_notified_on": "tri_municipal_notified_on",
        "acknowledged_on": "acknowledged_on",
        "flushed_on": "flushed_on",
    },
}
#: The kind's columns that a row of that kind must fill.
PERMIT_REQUIRED: dict[str, tuple[str, ...]] = {
    "building-sewer": ("permit_class",),
    "private-system": ("system_type",),
    "subdivision": ("name", "lots", "smallest_lot_acres", "estimated_cost", "provision"),
    "grinder": ("make_model", "motor_hp"),
    "interceptor": ("facility", "interceptor_kind", "basis"),
    "flushing": ("planned_on", "water_source", "tri_municipal_notified_on"),
}
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

_PERMIT_KIND_COLUMNS = sorted({c for cols in PERMIT_FIELDS.values() for c in cols})

COLUMNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # file: (required columns, optional columns)
    "permits.csv": (
        ("kind", "number", "state", "filed_on"),
        (
            *COMMON,
            "applicant",
            "applicant_id",
            "parcel",
            "description",
            *_PERMIT_KIND_COLUMNS,
        ),
    ),
    "approvals.csv": (
        ("number", "state", "facility", "discharge_kind", "filed_on"),
        (
            *COMMON,
            "applicant",
            "applicant_id",
            "flow_gpd",
            "temperature_f",
            "concentrations",
            "categorical_category",
            "decided_on",
            "term_years",
            "expires_on",
            "renews",
            "description",
        ),
    ),
    "approval_conditions.csv": (("approval", "kind", "text"), ()),
    "approval_limits.csv": (
        ("approval", "parameter", "limit_type", "value", "unit"),
        ("effective_from", "effective_to", "citation"),
    ),
    "inspections.csv": (
        ("kind", "state", "inspector"),
        (
            *COMMON,
            "facility",
            "parcel",
            "location",
            "on_easement",
            "unscheduled",
            "scheduled_for",
            "started_at",
            "ended_at",
            "notes",
            "observations",
            "credential",
            "cancel_reason",
        ),
    ),
    "violations.csv": (
        ("kind", "section", "description", "observed_on", "state"),
        (*COMMON, "person", "person_id", "facility", "parcel", "closed_on"),
    ),
}

#: The states a violation may be imported in: the workflow's start and its two ends. A notice
#: served on paper, with its correction clock, is not re-created: import the violation open and
#: record the notice in the office, or import it closed.
VIOLATION_STATES = ("open", "corrected", "dismissed")
#: The approvals' states that are decisions to grant.
GRANTED = ("approved", "approved_with_conditions")

YES = {"yes", "y", "true", "1", "x"}
NO = {"no", "n", "false", "0", ""}


# --- what the check finds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One refusal: the file, the row (header = 1) and the column, and why."""

    file: str
    row: int
    field: str
    message: str


@dataclass
class Planned:
    """A record a row will create, with what the import writes beside it."""

    file: str
    row: int
    model: type[models.Model]
    fields: dict[str, Any]
    number: str = ""  # as written on paper
    state: str = ""
    made_on: date | None = None
    source: str = ""
    documents: list[str] = field(default_factory=list)
    as_written: dict[str, str] = field(default_factory=dict)
    citation: str = ""
    what: str = ""  # "Building sewer permit", "Inspection"...
    #: An approval's: the paper number (in this import) or the office's approval it renews.
    renews: Any = None
    conditions: list[Planned] = field(default_factory=list)
    limits: list[Planned] = field(default_factory=list)
    #: Set when written: the record created.
    created: Any = None

    def label(self) -> str:
        paper = f" {self.number}" if self.number else ""
        return f"{self.what}{paper}"


@dataclass
class Plan:
    """What the whole import would create, and every problem found."""

    records: list[Planned] = field(default_factory=list)
    #: conditions and limits, also reachable from their approval
    attached: list[Planned] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: rows read per file
    rows: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: document name → SHA-256 is the writer's; here: the documents some row names
    used_documents: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.problems

    def all_rows(self) -> list[Planned]:
        return sorted([*self.records, *self.attached], key=lambda p: (FILE_ORDER[p.file], p.row))


FILE_ORDER = {name: i for i, name in enumerate(COLUMNS)}


class RowError(Exception):
    """A problem of one field of the row being read."""

    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


# --- reading a CSV file ---------------------------------------------------------------------------


def read_csv(name: str, text: str) -> list[tuple[int, dict[str, str]]]:
    """(row, {column: stripped text}) of each record of ``name`` (row 1 = the header; a record
    over several lines counts once); the header checked against :data:`COLUMNS`
    (:class:`UnusableFile` for a missing or unknown column)."""
    required, optional = COLUMNS[name]
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise UnusableFile(f"{name}: empty file (no header)") from None
    except csv.Error as e:
        raise UnusableFile(f"{name}: unreadable as CSV: {e}") from None
    columns = [h.strip().lower() for h in header]
    known = set(required) | set(optional)
    for c in columns:
        if c and c not in known:
            raise UnusableFile(
                f"{name}: unknown column '{shorten(c)}' (the columns are: "
                f"{', '.join([*required, *optional])})"
            )
    seen = set()
    for c in columns:
        if c and c in seen:
            raise UnusableFile(f"{name}: column '{c}' twice")
        seen.add(c)
    for c in required:
        if c not in columns:
            raise UnusableFile(f"{name}: missing required column '{c}'")
    out: list[tuple[int, dict[str, str]]] = []
    try:
        for number, cells in enumerate(reader, start=2):
            if not any(cell.strip() for cell in cells):
                continue  # a blank line
            if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns) :]):
                raise UnusableFile(
                    f"{name}: row {number}: {len(cells)} cells, more than the "
                    f"{len(columns)} columns of the header"
                )
            row = {
                c: (cells[i].strip() if i < len(cells) else "") for i, c in enumerate(columns) if c
            }
            out.append((number, row))
    except csv.Error as e:
        raise UnusableFile(f"{name}: unreadable as CSV: {e}") from None
    if not out:
        raise UnusableFile(f"{name}: a header but no rows")
    return out


# --- values -----------------------------------------------------------------------------------


def _date(row: dict[str, str], column: str, *, required: bool = False) -> date | None:
    text = row.get(column, "")
    if not text:
        if required:
            raise RowError(column, "required (a date, YYYY-MM-DD)")
        return None
    try:
        return date.fromisoformat(text) if len(text) == 10 else _bad_date(column, text)
    except ValueError:
        return _bad_date(column, text)


def _day(row: dict[str, str], column: str) -> date:
    """A required date."""
    value = _date(row, column, required=True)
    if value is None:  # _date refuses an empty one
        raise RowError(column, "required (a date, YYYY-MM-DD)")
    return value


def _bad_date(column: str, text: str) -> date:
    raise RowError(column, f"'{shorten(text)}' is not a date written YYYY-MM-DD")


def _moment(row: dict[str, str], column: str, *, required: bool = False) -> datetime | None:
    """A date (taken at 00:00) or a date and time (``YYYY-MM-DD HH:MM``), in town time."""
    text = row.get(column, "")
    if not text:
        if required:
            raise RowError(column, "required (YYYY-MM-DD or YYYY-MM-DD HH:MM)")
        return None
    try:
        if len(text) == 10:
            value = datetime.combine(date.fromisoformat(text), time())
        else:
            value = datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:
        raise RowError(
            column, f"'{shorten(text)}' is not a date (YYYY-MM-DD) or a moment (YYYY-MM-DD HH:MM)"
        ) from None
    if value.tzinfo is None:
        return timezone.make_aware(value)
    return value


def _yes(row: dict[str, str], column: str) -> bool:
    text = row.get(column, "").lower()
    if text in YES:
        return True
    if text in NO:
        return False
    raise RowError(column, f"'{shorten(text)}': write yes or no")


def _choice(
    row: dict[str, str], column: str, choices: Iterable[str], *, required: bool = True
) -> str:
    text = row.get(column, "")
    allowed = list(choices)
    if not text:
        if required:
            raise RowError(column, f"required: one of {', '.join(allowed)}")
        return ""
    if text not in allowed:
        lowered = text.lower()
        if lowered in allowed:
            return lowered
        raise RowError(column, f"'{shorten(text)}' is not one of {', '.join(allowed)}")
    return text


def _not_future(column: str, value: date | None, today: date) -> None:
    if value is not None and value > today:
        raise RowError(
            column, f"{value} is in the future: a record of the past is dated before today"
        )


def _max_length(model: type[models.Model], name: str) -> int:
    f = model._meta.get_field(name)
    return int(getattr(f, "max_length", 0) or 0)


def _model_value(model: type[models.Model], name: str, column: str, text: str) -> Any:
    """``text`` as the value of ``model``'s field ``name``, checked as the field checks it."""
    f = model._meta.get_field(name)
    assert isinstance(f, models.Field)
    if not text:
        if isinstance(f, models.BooleanField):
            return False
        if f.null:
            return None
        if isinstance(f, models.CharField | models.TextField):
            return ""
        raise RowError(column, "required")
    if isinstance(f, models.BooleanField):
        return _yes({column: text}, column)
    if isinstance(f, models.DateField):
        return _date({column: text}, column)
    if f.choices:
        values = [str(v) for v, _label in f.flatchoices]
        if text not in values:
            raise RowError(column, f"'{shorten(text)}' is not one of {', '.join(values)}")
    try:
        return f.clean(text, None)
    except ValidationError as e:
        raise RowError(column, " ".join(str(m) for m in e.messages)) from None


# --- who and where ----------------------------------------------------------------------------


class Registry:
    """The registry's persons, properties, facilities and the office's accounts, looked up once
    per distinct value of an import."""

    def __init__(self) -> None:
        self._persons: dict[str, Person] = {}
        self._properties: dict[str, Property] = {}
        self._facilities: dict[str, Establishment] = {}
        self._users: dict[str, Any] = {}

    def person(self, row: dict[str, str], name_col: str, id_col: str) -> Person | None:
        """The person ``row`` names (None when both columns are empty)."""
        name = " ".join(row.get(name_col, "").split())
        pid = row.get(id_col, "")
        if pid:
            if not pid.isdigit():
                raise RowError(id_col, f"'{shorten(pid)}' is not a person's number")
            person = Person.objects.filter(pk=int(pid)).first()
            if person is None:
                raise RowError(id_col, f"no person #{pid} in the registry")
            if name and name.lower() != person.name.lower():
                raise RowError(name_col, f"person #{pid} is {person.name}, not {shorten(name)}")
            return person.current()
        if not name:
            return None
        key = name.lower()
        if key not in self._persons:
            found = list(Person.objects.filter(name__iexact=name, merged_into__isnull=True)[:3])
            if not found:
                merged = Person.objects.filter(name__iexact=name).first()
                if merged is None:
                    raise RowError(
                        name_col,
                        f"no person named {shorten(name)} in the registry: register the person "
                        f"first (or give {id_col})",
                    )
                found = [merged.current()]
            if len(found) > 1:
                raise RowError(
                    name_col,
                    f"{len(found) if len(found) < 3 else 'several'} persons are named "
                    f"{shorten(name)}: give {id_col} (the person's number in the registry)",
                )
            self._persons[key] = found[0]
        return self._persons[key]

    def prop(self, row: dict[str, str], column: str = "parcel") -> Property | None:
        text = row.get(column, "")
        if not text:
            return None
        if text not in self._properties:
            found = Property.objects.filter(parcel_id=text).first()
            if found is None:
                by_sbl = list(Property.objects.filter(sbl=text)[:2])
                if len(by_sbl) > 1:
                    raise RowError(
                        column, f"SBL {shorten(text)} names several parcels: give the tax parcel id"
                    )
                found = by_sbl[0] if by_sbl else None
            if found is None:
                raise RowError(column, f"no property with the tax parcel id or SBL {shorten(text)}")
            self._properties[text] = found
        return self._properties[text]

    def facility(self, row: dict[str, str], column: str = "facility") -> Establishment | None:
        text = row.get(column, "")
        if not text:
            return None
        key = text.upper()
        if key not in self._facilities:
            found = (
                Establishment.objects.select_related("building__property").filter(code=key).first()
            )
            if found is None:
                named = list(
                    Establishment.objects.select_related("building__property").filter(
                        name__iexact=text
                    )[:2]
                )
                if len(named) > 1:
                    raise RowError(
                        column,
                        f"several facilities are named {shorten(text)}: give the facility code",
                    )
                found = named[0] if named else None
            if found is None:
                raise RowError(column, f"no facility with the code or name {shorten(text)}")
            self._facilities[key] = found
        return self._facilities[key]

    def user(self, row: dict[str, str], column: str) -> Any:
        name = row.get(column, "")
        if not name:
            raise RowError(column, "required: the user name of an office account")
        if name not in self._users:
            user = get_user_model().objects.filter(username=name).first()
            if user is None:
                raise RowError(
                    column,
                    f"no office account '{shorten(name)}': create one for the inspector (it may "
                    "stay inactive) or name an existing one",
                )
            self._users[name] = user
        return self._users[name]


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


# --- the check ----------------------------------------------------------------------------------


@dataclass
class _Context:
    bundle: Bundle
    default_source: str
    today: date
    registry: Registry = field(default_factory=Registry)
    plan: Plan = field(default_factory=Plan)
    #: (content type id, paper number) already imported → the import's name
    imported_numbers: dict[tuple[int, str], str] = field(default_factory=dict)
    approvals: dict[str, Planned] = field(default_factory=dict)
    checked_documents: dict[str, str | None] = field(default_factory=dict)
    #: the paper numbers each file lists, its refused rows' too
    seen: dict[str, set[str]] = field(default_factory=dict)

    def problem(self, file: str, row: int, column: str, message: str) -> None:
        self.plan.problems.append(Problem(file, row, column, message))


def plan(bundle: Bundle, *, default_source: str = "", today: date | None = None) -> Plan:
    """Read and check every row of ``bundle``: what it would create and every problem."""
    ctx = _Context(bundle, default_source.strip(), today or timezone.localdate())
    if ("approval_conditions.csv" in bundle.csv or "approval_limits.csv" in bundle.csv) and (
        "approvals.csv" not in bundle.csv
    ):
        raise UnusableFile(
            f"{bundle.name}: approval_conditions.csv and approval_limits.csv name approvals of "
            "approvals.csv, which is missing"
        )
    readers: dict[str, Callable[[_Context, int, dict[str, str]], None]] = {
        "permits.csv": _permit,
        "approvals.csv": _approval,
        "approval_conditions.csv": _condition,
        "approval_limits.csv": _limit,
        "inspections.csv": _inspection,
        "violations.csv": _violation,
    }
    files = [(name, read_csv(name, bundle.csv[name])) for name in COLUMNS if name in bundle.csv]
    _load_imported_numbers(ctx, files)
    for name, rows in files:
        ctx.plan.rows[name] = len(rows)
        for number, row in rows:
            ctx.seen.setdefault(name, set()).add(row.get("number", ""))
            bad = _control_characters(row)
            if bad:
                for column, message in bad:
                    ctx.problem(name, number, column, message)
                continue
            try:
                readers[name](ctx, number, row)
            except RowError as e:
                ctx.problem(name, number, e.column, e.message)
    _granted_conditions(ctx)
    unused = sorted(set(bundle.documents) - ctx.plan.used_documents)
    if unused:
        ctx.plan.notes.append(
            f"{len(unused)} document(s) in {'documents/'} no row names, not imported: "
            + ", ".join(shorten(u, 60) for u in unused[:10])
            + (" ..." if len(unused) > 10 else "")
        )
    if bundle.ignored:
        ctx.plan.notes.append(
            "not read (not a file of records or a document): "
            + ", ".join(shorten(i, 60) for i in bundle.ignored[:10])
        )
    return ctx.plan


def _control_characters(row: dict[str, str]) -> list[tuple[str, str]]:
    out = []
    for column, text in row.items():
        found = control_character(text)
        if found is not None:
            out.append((column, f"holds the control character {found}, which no record may"))
    return out


def _load_imported_numbers(
    ctx: _Context, files: list[tuple[str, list[tuple[int, dict[str, str]]]]]
) -> None:
    """The paper numbers of this import that an earlier import brought in already."""
    numbers = {row["number"] for _name, rows in files for _n, row in rows if row.get("number")}
    if not numbers:
        return
    wanted = sorted(numbers)
    for i in range(0, len(wanted), 500):
        for ct, number, batch in ImportedRecord.objects.filter(
            original_number__in=wanted[i : i + 500]
        ).values_list("content_type_id", "original_number", "batch_name"):
            ctx.imported_numbers[(ct, number)] = batch


def _common(
    ctx: _Context,
    file: str,
    row_no: int,
    row: dict[str, str],
    model: type[models.Model],
    *,
    number_required: bool,
) -> Planned:
    """What every row gives: its paper number (not already imported), source, documents."""
    number = row.get("number", "")
    if number_required and not number:
        raise RowError("number", "required: the number written on the paper record")
    limit = ImportedRecord._meta.get_field("original_number").max_length or 100
    if len(number) > limit:
        raise RowError("number", f"longer than the {limit} characters kept")
    if number:
        ct = ContentType.objects.get_for_model(model).pk
        earlier = ctx.imported_numbers.get((ct, number))
        if earlier is not None:
            raise RowError(
                "number",
                f"{model._meta.verbose_name} {shorten(number)} was imported already (with "
                f"{shorten(earlier, 60)})",
            )
        twice = [p for p in ctx.plan.records if p.model is model and p.number == number]
        if twice:
            raise RowError(
                "number", f"{shorten(number)} is also row {twice[0].row} of {twice[0].file}"
            )
    source = row.get("source", "") or ctx.default_source
    if not source:
        raise RowError(
            "source", "say where the paper record is kept (or give a source for the whole import)"
        )
    docs = [d.strip() for d in row.get("documents", "").split(";") if d.strip()]
    for d in docs:
        problem = _document_problem(ctx, d)
        if problem:
            raise RowError("documents", problem)
        ctx.plan.used_documents.add(d)
    return Planned(
        file=file,
        row=row_no,
        model=model,
        fields={},
        number=number,
        source=source,
        documents=docs,
        as_written={k: v for k, v in row.items() if v},
    )


def _document_problem(ctx: _Context, name: str) -> str | None:
    if name not in ctx.checked_documents:
        data = ctx.bundle.documents.get(name)
        if data is None:
            problem: str | None = f"{shorten(name)} is not in documents/"
        else:
            found = filetypes.sniff(data[: filetypes.HEAD_BYTES])
            problem = (
                None
                if found is not None and found.kind in DOCUMENT_KINDS
                else f"{shorten(name)}: not a PDF, PNG, JPEG or TIFF file (its content, not its "
                "name, is checked): scan or save the paper as PDF"
            )
        ctx.checked_documents[name] = problem
    return ctx.checked_documents[name]


# --- permits.csv --------------------------------------------------------------------------------


def _permit(ctx: _Context, row_no: int, row: dict[str, str]) -> None:
    slug = row.get("kind", "")
    if slug == "industrial":
        raise RowError("kind", "industrial discharge approvals go in approvals.csv")
    if slug not in PERMIT_FIELDS:
        raise RowError("kind", f"'{shorten(slug)}' is not one of {', '.join(PERMIT_FIELDS)}")
    kind = KINDS[slug]
    model = kind.model
    p = _common(ctx, "permits.csv", row_no, row, model, number_required=True)
    p.what = kind.label
    p.state = _choice(row, "state", [s.value for s in kind.workflow.states])
    refused = REFUSED_STATES.get(slug, {}).get(p.state)
    if refused:
        raise RowError("state", f"not importable as {p.state}: {refused}")
    mine = PERMIT_FIELDS[slug]
    for column in _PERMIT_KIND_COLUMNS:
        if row.get(column) and column not in mine:
            raise RowError(column, f"not a field of a {kind.label.lower()}: leave it empty")
    for column in PERMIT_REQUIRED[slug]:
        if not row.get(column):
            raise RowError(column, f"required for a {kind.label.lower()}")
    filed_on = _day(row, "filed_on")
    _not_future("filed_on", filed_on, ctx.today)
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
            fields[name] = _model_value(model, name, column, row.get(column, ""))
            if isinstance(fields[name], date) and column not in ("planned_on",):
                _not_future(column, fields[name], ctx.today)
    if slug == "grinder":  # what the rules say of it, as on filing (none before the article)
        try:
            fields["rule_check"] = permit_rules.grinder_check(fields["motor_hp"], filed_on)
        except ParameterError:
            fields["rule_check"] = {}
    decided = fields.get("decided_on")
    p.fields = fields
    p.made_on = decided if isinstance(decided, date) else filed_on
    p.citation = model.CITATION
    ctx.plan.records.append(p)


# --- approvals.csv ------------------------------------------------------------------------------


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


def _approval(ctx: _Context, row_no: int, row: dict[str, str]) -> None:
    model = IndustrialDischargeApproval
    kind = KINDS["industrial"]
    p = _common(ctx, "approvals.csv", row_no, row, model, number_required=True)
    p.what = kind.label
    p.state = _choice(row, "state", [s.value for s in kind.workflow.states])
    establishment = ctx.registry.facility(row)
    if establishment is None:
        raise RowError("facility", "required: the facility's code (or its name)")
    applicant = (
        ctx.registry.person(row, "applicant", "applicant_id") or establishment.operator.current()
    )
    discharge_kind = _choice(row, "discharge_kind", DischargeKind.values)
    filed_on = _day(row, "filed_on")
    _not_future("filed_on", filed_on, ctx.today)
    decided_on = _date(row, "decided_on")
    _not_future("decided_on", decided_on, ctx.today)
    term = row.get("term_years", "")
    expires_on = _date(row, "expires_on")
    years: int | None = None
    if term:
        if not term.isdigit() or int(term) < 1 or int(term) > 99:
            raise RowError("term_years", f"'{shorten(term)}' is not a number of years")
        years = int(term)
    decided_states = (*GRANTED, "rejected")
    if p.state in decided_states:
        if decided_on is None:
            raise RowError(
                "decided_on",
                f"required for an approval {p.state.replace('_', ' ')}: the day of the decision",
            )
        if decided_on < filed_on:
            raise RowError("decided_on", f"{decided_on} is before the request ({filed_on})")
    else:
        for column in ("decided_on", "term_years", "expires_on"):
            if row.get(column):
                raise RowError(
                    column,
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
        flow = _model_value(model, "flow_gpd", "flow_gpd", row.get("flow_gpd", ""))
        temp = _model_value(model, "temperature_f", "temperature_f", row.get("temperature_f", ""))
        probe = IndustrialDischargeApproval(discharge_kind=discharge_kind)
        evaluation = permit_rules.evaluate_declared_discharge(
            on=filed_on,
            concentrations=concentrations,
            flow_gpd=flow,
            temperature_f=temp,
            source=declared_source(probe),
        )
        if evaluation.get("errors"):
            first = evaluation["errors"][0]
            raise RowError("concentrations", f"{first['parameter']}: {first['message']}")
    renews: Any = None
    if row.get("renews"):
        renews = _renewed(ctx, row["renews"], establishment)
    fields: dict[str, Any] = {
        "applicant": applicant,
        "property": establishment.building.property,
        "establishment": establishment,
        "discharge_kind": discharge_kind,
        "flow_gpd": _model_value(model, "flow_gpd", "flow_gpd", row.get("flow_gpd", "")),
        "temperature_f": _model_value(
            model, "temperature_f", "temperature_f", row.get("temperature_f", "")
        ),
        "concentrations": concentrations,
        "categorical_category": _model_value(
            model,
            "categorical_category",
            "categorical_category",
            row.get("categorical_category", ""),
        ),
        "evaluation": evaluation,
        "filed_on": filed_on,
        "decided_on": decided_on,
        "term_years": years,
        "expires_on": expires_on,
        "description": row.get("description", ""),
    }
    p.fields = fields
    p.renews = renews
    p.made_on = decided_on or filed_on
    p.citation = "§ 196-16 F" if discharge_kind == DischargeKind.COOLING_WATER else "§ 196-16 E"
    ctx.plan.records.append(p)
    ctx.approvals[p.number] = p


def _renewed(ctx: _Context, number: str, establishment: Establishment) -> Any:
    """The approval a row renews: one listed above it in approvals.csv (by its paper number), or
    one in the office (by its office number), granted, of the same facility."""
    earlier = ctx.approvals.get(number)
    if earlier is not None:
        if earlier.fields["establishment"].pk != establishment.pk or earlier.state not in GRANTED:
            raise RowError(
                "renews", f"{shorten(number)} is not a granted approval of {establishment.name}"
            )
        return earlier
    if number in ctx.seen.get("approvals.csv", set()):
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


def _approval_of(ctx: _Context, row: dict[str, str]) -> Planned:
    number = row.get("approval", "")
    if not number:
        raise RowError("approval", "required: the approval's number as in approvals.csv")
    found = ctx.approvals.get(number)
    if found is None:
        listed = number in ctx.seen.get("approvals.csv", set())
        raise RowError(
            "approval",
            f"{shorten(number)} {'has a problem of its own' if listed else 'is not in approvals.csv'}",
        )
    return found


def _condition(ctx: _Context, row_no: int, row: dict[str, str]) -> None:
    approval = _approval_of(ctx, row)
    if approval.state != "approved_with_conditions":
        raise RowError(
            "approval",
            f"{approval.number} is {approval.state.replace('_', ' ')}: only an approval approved "
            "with conditions has conditions (§ 196-19 E(1))",
        )
    key = _choice(row, "kind", CONDITION_KINDS)
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
        as_written={k: v for k, v in row.items() if v},
    )
    approval.conditions.append(p)
    ctx.plan.attached.append(p)


def _granted_conditions(ctx: _Context) -> None:
    """An approval approved with conditions states at least one (as the office's form asks)."""
    for p in ctx.approvals.values():
        if p.state == "approved_with_conditions" and not p.conditions:
            ctx.problem(
                p.file,
                p.row,
                "state",
                f"{p.number} is approved with conditions: list them in approval_conditions.csv",
            )


def _limit(ctx: _Context, row_no: int, row: dict[str, str]) -> None:
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
    limit_type = _choice(row, "limit_type", LimitType.values)
    start = _date(row, "effective_from") or approval.fields["decided_on"]
    end = _date(row, "effective_to") or approval.fields["expires_on"]
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
        cap = _max_length(DischargeLimit, name)
        if len(str(getattr(candidate, name))) > cap:
            raise RowError(name, f"longer than the {cap} characters kept")
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
        as_written={k: v for k, v in row.items() if v},
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


# --- inspections.csv ----------------------------------------------------------------------------


def _inspection(ctx: _Context, row_no: int, row: dict[str, str]) -> None:
    p = _common(ctx, "inspections.csv", row_no, row, Inspection, number_required=False)
    p.what = "Inspection"
    kind = _choice(row, "kind", InspectionKind.values)
    p.state = _choice(row, "state", InspectionState.values)
    establishment = ctx.registry.facility(row)
    prop = ctx.registry.prop(row)
    if establishment is None and prop is None:
        raise RowError("facility", "name the facility (or the property, parcel) inspected")
    if kind in FACILITY_KINDS and establishment is None:
        raise RowError("facility", "this kind of inspection is of a facility: name it")
    on_easement = _yes(row, "on_easement")
    if on_easement and not row.get("location"):
        raise RowError("location", "describe where on the easement the works lie (§ 196-21 B)")
    inspector = ctx.registry.user(row, "inspector")
    unscheduled = _yes(row, "unscheduled")
    scheduled_for = _moment(row, "scheduled_for")
    started = _moment(row, "started_at")
    ended = _moment(row, "ended_at")
    now = timezone.now()
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
        for column in ("started_at", "ended_at", "observations", "credential", "cancel_reason"):
            if row.get(column):
                raise RowError(column, "a scheduled inspection has not taken place: leave it empty")
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
        if started > now:
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
        for column in ("started_at", "ended_at", "observations", "credential"):
            if row.get(column):
                raise RowError(column, "a cancelled inspection did not take place: leave it empty")
        fields["scheduled_for"] = scheduled_for
        fields["cancel_reason"] = row["cancel_reason"]
        p.made_on = timezone.localdate(scheduled_for) if scheduled_for else None
    for name in ("location", "credential"):
        cap = _max_length(Inspection, name)
        if len(str(fields.get(name, ""))) > cap:
            raise RowError(name, f"longer than the {cap} characters kept")
    p.fields = fields
    p.citation = "§ 196-21 B" if on_easement else "§ 196-21 A"
    ctx.plan.records.append(p)


# --- violations.csv ----------------------------------------------------------------------------


def _violation(ctx: _Context, row_no: int, row: dict[str, str]) -> None:
    p = _common(ctx, "violations.csv", row_no, row, Violation, number_required=False)
    p.what = "Violation"
    p.state = _choice(row, "state", VIOLATION_STATES)
    observed = _day(row, "observed_on")
    _not_future("observed_on", observed, ctx.today)
    closed = _date(row, "closed_on")
    if closed is not None:
        if p.state == "open":
            raise RowError("closed_on", "an open violation is not closed: leave it empty")
        _not_future("closed_on", closed, ctx.today)
        if closed < observed:
            raise RowError("closed_on", f"{closed} is before the violation was found ({observed})")
    try:
        cited = enforcement_rules.section(row.get("section", ""))
    except InvalidInput as e:  # the citation cannot be read
        raise RowError("section", " ".join(e.errors.get("section", [e.message]))) from None
    no_duty = grounds.section_refusal(cited)
    if no_duty is not None:
        raise RowError("section", no_duty)
    try:
        kinds = dict(enforcement_rules.kind_choices(observed))
    except GuideError as e:  # no response guide on that day (before the article)
        raise RowError("observed_on", shorten(str(e), 200)) from None
    kind = row.get("kind", "")
    if kind not in kinds:
        raise RowError(
            "kind",
            f"'{shorten(kind)}' is not a kind of the response guide (known: {', '.join(kinds)})",
        )
    damage = enforcement_rules.is_damage(cited)
    if damage and p.state == "open":
        raise RowError(
            "state",
            "§ 196-20 is referred for arrest at once, without a correction period: open it in "
            "the office (which records the referral), or import it corrected or dismissed",
        )
    person = ctx.registry.person(row, "person", "person_id")
    if person is None:
        raise RowError(
            "person", "required: the person responsible (§ 196-15 PERSON), as in the registry"
        )
    establishment = ctx.registry.facility(row)
    prop = ctx.registry.prop(row)
    if establishment is None and prop is None:
        raise RowError("facility", "name the facility or the property (parcel) concerned")
    description = row.get("description", "")
    if not description:
        raise RowError("description", "required: the nature of the violation")
    p.fields = {
        "kind": "damage" if damage else kind,
        "section": cited,
        "description": description,
        "person": person,
        "establishment": establishment,
        "property": prop,
        "observed_on": observed,
        "opened_by": None,
        "opened_at": timezone.make_aware(datetime.combine(observed, time())),
        "state": p.state,
    }
    p.made_on = observed
    p.citation = cited
    ctx.plan.records.append(p)
