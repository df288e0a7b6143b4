"""What the check finds, and what every row gives whatever its file.

:class:`Plan` is the check's answer: the records the rows would create (:class:`Planned`) and
every :class:`Problem`. :class:`Context` is what one check carries from row to row (the registry
looked up once, the numbers already imported, the approvals listed so far). :func:`paper_record`
reads the columns every file has: the paper number (not imported twice), where the paper is kept
and the scanned documents the row names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from sewer_office.archive.bundle import Bundle
from sewer_office.core import filetypes
from sewer_office.core.attachments import DOCUMENT_KINDS
from sewer_office.core.models import ImportedRecord
from sewer_rules.hostile import shorten

from .columns import FILE_ORDER
from .lookups import Registry
from .values import RowError, as_written


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


@dataclass
class Context:
    """One check's state, from row to row."""

    bundle: Bundle
    default_source: str
    today: date
    registry: Registry = field(default_factory=Registry)
    plan: Plan = field(default_factory=Plan)
    #: (content type id, paper number) already imported → the import's name
    imported_numbers: dict[tuple[int, str], str] = field(default_factory=dict)
    #: the approvals of approvals.csv read so far, by paper number
    approvals: dict[str, Planned] = field(default_factory=dict)
    #: the paper numbers approvals.csv lists, its refused rows' too
    listed_approvals: set[str] = field(default_factory=set)
    checked_documents: dict[str, str | None] = field(default_factory=dict)

    def problem(self, file: str, row: int, column: str, message: str) -> None:
        self.plan.problems.append(Problem(file, row, column, message))


def paper_record(
    ctx: Context,
    file: str,
    row_no: int,
    row: dict[str, str],
    model: type[models.Model],
    *,
    what: str,
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
        as_written=as_written(row),
        what=what,
    )


def _document_problem(ctx: Context, name: str) -> str | None:
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
