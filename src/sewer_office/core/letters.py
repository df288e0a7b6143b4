"""The letters engine: every letter and document the office sends, from templates the Town edits.

One module for every app. An app describes each kind of letter it sends as a
:class:`LetterKind` (its merge fields, the ones the law makes required, a bundled template,
how a record gives the merge values) and :func:`register`\\ s it when its ``AppConfig.ready()``
imports its letters module. The office edits the wording (:class:`~.models.LetterTemplate`,
a new version per edit) and the letterhead (:class:`~.models.Letterhead`) at ``/letters/``.

Why templates with *required* fields: what the law requires a letter to say (the citation,
the period for correction, a deadline, amounts, certification texts) is computed by the
software and handed to the template as a merge value; a template that does not print every
required value is refused, so the wording can change but the legal content cannot be edited
away.

Why documents of record are kept as bytes (:func:`issue`): a letter that was sent must stay
the letter that was sent. It is rendered once, stored with its SHA-256 and the versions of the
template and letterhead it used, and served from storage from then on: a later edit of the
template changes the next letter, never one already issued.

How a letter is typeset (the letterhead and the one PDF loop) is :mod:`.letter_pdf`'s.

Template markup: the body is the Django template language with autoescape off and no
``{% load %}``, ``{% include %}``, ``{% extends %}``, ``{% ssi %}`` or ``{% debug %}``. After
rendering, each line is one block: ``## text`` a title, ``# text`` a heading, ``~ text``
small print, ``| a | b`` a table row (``|| a | b`` its header row), a blank line a gap, any
other line a paragraph. A merge value may hold several lines with their own prefixes (an
invoice's lines), which expand in place.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpResponse
from django.template import Context, Engine, Template, TemplateSyntaxError
from django.template.base import VariableNode
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.jurisdictions import jurisdiction_of

from . import audit
from .imported import is_imported
from .letter_pdf import Block, Head, current_letterhead, head_of, render_pdf, town_head
from .letter_versions import current_template
from .models import IssuedDocument

if TYPE_CHECKING:
    from django.db.models import QuerySet

#: Tags a template may not use: they would reach outside the template (files, other
#: templates, tag libraries) or dump the context.
FORBIDDEN_TAGS = ("load", "include", "extends", "ssi", "debug")
_FORBIDDEN = re.compile(r"{%-?\s*(" + "|".join(FORBIDDEN_TAGS) + r")\b")


def signer(user: Actor | None) -> str:
    """A user's name as signed under a letter: the full name, else the login."""
    person = person_or_none(user)
    if person is None:
        return ""
    return str(person.get_full_name() or person.get_username())


def long_date(value: date | datetime | None) -> str:
    """A date written out as a letter says it ("March 4, 2026"); a moment in town time."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        value = value.date()
    return f"{value:%B} {value.day}, {value.year}"


def lines(*parts: str | None) -> str:
    """Several lines as one merge value (each keeps its own markup prefix); empty ones dropped."""
    return "\n".join(p for p in parts if p)


# --- kinds of letter ------------------------------------------------------------------------


@dataclass(frozen=True)
class LetterKind:
    """A kind of letter or document: what the editor lists and what a record gives it."""

    key: str
    name: str
    fields: Mapping[str, str]
    required: tuple[str, ...]
    default_body: str
    context: Callable[[Any], Mapping[str, str]]
    #: The records a preview may use, newest first (a queryset; a publication that covers a
    #: year gives a list of objects with a ``pk``).
    records: Callable[[], QuerySet[Any] | Sequence[Any]]
    title: Callable[[Any], str]
    filename: Callable[[Any], str]
    #: The moment written into the PDF (its creation date); by default the record's
    #: ``issued_at``/``created_at``, else now (so a record's letter is the same bytes each time).
    created: Callable[[Any], datetime] | None = field(default=None, compare=False)
    #: Whether the letterhead heads it (a report a facility signs carries the facility's words,
    #: not the Town's letterhead).
    letterhead: bool = True

    def moment(self, record: Any) -> datetime:
        if self.created is not None:
            return self.created(record)
        for attr in ("issued_at", "created_at"):
            value = getattr(record, attr, None)
            if isinstance(value, datetime):
                return value
        return timezone.now()


_KINDS: dict[str, LetterKind] = {}


def register(kind: LetterKind) -> LetterKind:
    """Make a kind known (each app's letters module calls it at import). The bundled template
    must itself pass the checks an office edit must pass."""
    problems = check_body(kind, kind.default_body)
    if problems:
        raise ValueError(f"{kind.key}: bundled template refused: {'; '.join(problems)}")
    unknown = set(kind.required) - set(kind.fields)
    if unknown:
        raise ValueError(f"{kind.key}: required fields not described: {sorted(unknown)}")
    _KINDS[kind.key] = kind
    return kind


def kind(key: str) -> LetterKind:
    try:
        return _KINDS[key]
    except KeyError:
        raise KeyError(f"no letter kind {key!r} is registered") from None


def kinds() -> list[LetterKind]:
    """Every registered kind, by name."""
    return sorted(_KINDS.values(), key=lambda k: k.name)


# --- templates ------------------------------------------------------------------------------

_ENGINE = Engine(autoescape=False, libraries={}, debug=False)


def _compile(body: str) -> Template:
    match = _FORBIDDEN.search(body)
    if match:
        raise ValidationError(
            f"The template may not use {{% {match.group(1)} %}}: it would reach outside the "
            "letter. Allowed: {{ field }}, {% if %}, {% for %}, filters.",
            code="forbidden_tag",
        )
    try:
        return _ENGINE.from_string(body)
    except TemplateSyntaxError as e:
        raise ValidationError(f"The template does not parse: {e}", code="syntax") from e


def _top_level_fields(template: Template) -> set[str]:
    """Fields printed by a top-level ``{{ field }}`` without a filter (one inside an
    ``{% if %}``, a comment or behind a filter could print nothing, so it does not count)."""
    found: set[str] = set()
    for node in template.nodelist:
        if isinstance(node, VariableNode):
            expr = node.filter_expression
            var = getattr(expr.var, "var", None)
            if isinstance(var, str) and not expr.filters:
                found.add(var)
    return found


def check_body(kind_: LetterKind, body: str) -> list[str]:
    """What is wrong with ``body`` as a template of ``kind_`` (empty: nothing)."""
    try:
        template = _compile(body)
    except ValidationError as e:
        return list(e.messages)
    missing = [f for f in kind_.required if f not in _top_level_fields(template)]
    if missing:
        return [
            "Required merge fields missing (each must appear as {{ field }} on its own, outside "
            "{% if %}, {% for %} and comments, with no filter): " + ", ".join(missing)
        ]
    return []


def validate_body(kind_: LetterKind, body: str, preview: Any = None) -> None:
    """Refuse a template with a forbidden tag, a missing required field, or (with ``preview``)
    one that fails to render on that record — a ValidationError that says which."""
    problems = check_body(kind_, body)
    if problems:
        raise ValidationError(problems)
    if preview is not None:
        try:
            blocks_of(body, kind_.context(preview))
        except Exception as e:  # the message is shown to the editor, the template refused
            raise ValidationError(
                f"The template fails on the preview record {preview}: {e}", code="render"
            ) from e


def blocks_of(body: str, values: Mapping[str, str]) -> list[Block]:
    """Render ``body`` with ``values`` and read the result line by line into blocks."""
    text = _compile(body).render(Context(dict(values), autoescape=False))
    return parse_blocks(text)


def parse_blocks(text: str) -> list[Block]:
    """The markup: ``## `` title, ``# `` heading, ``~ `` small, ``|| `` / ``| `` table rows,
    blank line gap (consecutive blank lines make one), anything else a paragraph."""
    blocks: list[Block] = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        stripped = line.lstrip()
        if not stripped:
            if blocks and blocks[-1][0] != "gap":
                blocks.append(("gap", ""))
            continue
        if stripped.startswith("## "):
            blocks.append(("title", stripped[3:].strip()))
        elif stripped.startswith("# "):
            blocks.append(("heading", stripped[2:].strip()))
        elif stripped.startswith("~ "):
            blocks.append(("small", stripped[2:].strip()))
        elif stripped.startswith("||"):
            blocks.append(("rowhead", _cells(stripped[2:])))
        elif stripped.startswith("|"):
            blocks.append(("row", _cells(stripped[1:])))
        elif stripped == "---":
            blocks.append(("page", ""))
        else:
            blocks.append(("text", line.strip()))
    while blocks and blocks[-1][0] == "gap":
        blocks.pop()
    while blocks and blocks[0][0] == "gap":
        blocks.pop(0)
    return blocks


def _cells(text: str) -> str:
    parts = [c.strip() for c in text.strip().removesuffix("|").split("|")]
    return "\t".join(parts)


def compose(key: str, record: Any, *, body: str | None = None) -> list[Block]:
    """The letter's blocks: the current template (or ``body``, for a preview) with the record's
    merge values."""
    k = kind(key)
    if body is None:  # the record's town's wording
        stored = current_template(key, jurisdiction=jurisdiction_of(record))
        body = stored.body if stored is not None else k.default_body
    return blocks_of(body, k.context(record))


def render(key: str, record: Any, *, body: str | None = None, head: Head | None = None) -> bytes:
    """The PDF of ``record``'s letter as the templates stand now (previews, and documents that
    are not of record such as a statement or a yearly list)."""
    k = kind(key)
    return render_pdf(
        compose(key, record, body=body),
        title=k.title(record),
        created=k.moment(record),
        letterhead=k.letterhead,
        head=head or (town_head(jurisdiction_of(record)) if k.letterhead else None),
    )


# --- documents of record --------------------------------------------------------------------


def _record_key(record: Any) -> tuple[Any, str]:
    from django.contrib.contenttypes.models import ContentType

    return ContentType.objects.get_for_model(record), str(record.pk)


def issued(key: str, record: Any) -> IssuedDocument | None:
    """The document of record issued for ``record`` as ``key``, if any."""
    ct, pk = _record_key(record)
    return IssuedDocument.objects.filter(kind=key, content_type=ct, object_id=pk).first()


def issue(
    key: str,
    record: Any,
    *,
    actor: Actor | None,
    reason: str = "",
    at: datetime | None = None,
    content: bytes | None = None,
    rendered_at: datetime | None = None,
) -> IssuedDocument:
    """Render ``record``'s letter once and keep it: bytes, SHA-256, the template and letterhead
    versions, who and when; audited. Idempotent: a second call returns the stored document
    unchanged (never a new rendering). ``at`` back-dates it (history being loaded).

    ``content`` keeps bytes already rendered and bound elsewhere (a signed report's PDF, whose
    hash its signature binds) as they are; the versions recorded are those current at
    ``rendered_at``."""
    existing = issued(key, record)
    if existing is not None:
        return existing
    k = kind(key)
    ct, pk = _record_key(record)
    town = jurisdiction_of(record)  # each member town's letters: its wording, its letterhead
    template = current_template(key, at=rendered_at, jurisdiction=town)
    letterhead = current_letterhead(at=rendered_at, jurisdiction=town) if k.letterhead else None
    if content is None:
        body = template.body if template is not None else k.default_body
        content = render_pdf(
            blocks_of(body, k.context(record)),
            title=k.title(record),
            created=k.moment(record),
            letterhead=k.letterhead,
            head=head_of(letterhead, town) if k.letterhead else None,
        )
    with transaction.atomic():
        return audit.create_recorded(
            IssuedDocument,
            {
                "kind": key,
                "content_type": ct,
                "object_id": pk,
                "title": k.title(record)[:200],
                "filename": k.filename(record)[:200],
                "content": content,
                "sha256": hashlib.sha256(content).hexdigest(),
                "template": template,
                "letterhead": letterhead,
                "issued_by": person_or_none(actor),
                "issued_at": at or timezone.now(),
            },
            actor=actor,
            at=at,
            action="issue_document",
            reason=reason or f"{k.name} issued as a document of record",
        )


def issued_or_issue(key: str, record: Any, *, actor: Actor | None) -> IssuedDocument:
    """The stored document; for a record issued before documents were kept, issue it now
    ("issued on first request", audited as such). A record made outside the office and
    imported (:mod:`.imported`) has none to issue: a letter rendered now would look as if the
    office had made it (404; its scanned paper is among its files)."""
    stored = issued(key, record)
    if stored is not None:
        return stored
    if is_imported(record):
        raise Http404(
            f"{record} is an imported record, made outside the office: the office issued no "
            f"{kind(key).name.lower()} for it. The paper record's scan is among its files."
        )
    return issue(
        key,
        record,
        actor=actor,
        reason="issued on first request (recorded before documents of record were kept)",
    )


def pdf_response(document: IssuedDocument, *, inline: bool = True) -> HttpResponse:
    """The stored bytes as a PDF response, with their SHA-256 in a header."""
    response = HttpResponse(bytes(document.content), content_type="application/pdf")
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{document.filename}"'
    response["X-Content-SHA256"] = document.sha256
    return response


def bytes_response(content: bytes, filename: str, *, inline: bool = True) -> HttpResponse:
    """A rendered (not stored) PDF as a response."""
    response = HttpResponse(content, content_type="application/pdf")
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


def iter_fields(k: LetterKind) -> Iterator[tuple[str, str, bool]]:
    """(field, what it holds, required) for the editor."""
    for name, description in k.fields.items():
        yield name, description, name in k.required
