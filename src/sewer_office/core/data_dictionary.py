"""The data dictionary of an export, generated from the code so that it cannot go stale.

For every table the export holds (:func:`.export_tables.export_tables`): what it is (the first
paragraph of the model's docstring), the law it serves (the model's ``CITATION``, the
citations of its docstring and of its columns' comments, or "office record-keeping"), how the
office guards its rows (:mod:`.protection.records`), and every column: its name in the CSV
and JSON files, its kind and how it is written, whether it may be empty, its choices, the
table a foreign key points to, and its meaning — the ``#:`` comment above the field in the
model's source (read with :mod:`ast`), its ``help_text``, or its label. Then what the export
leaves out, and why.

``sewer-use export-all --dictionary-only FILE`` writes it alone (``make data-dictionary``
regenerates ``docs/data-dictionary.md``, which a test compares with this generator). What a
model's source says of it (its docstring, the comment above a field) is read by
:mod:`.model_source`.
"""

from __future__ import annotations

import ast
import inspect
import re
from functools import cache
from typing import Any

from django.db import models

from .export_format import DICTIONARY, FILE_LIST
from .export_tables import (
    CARRIED,
    Table,
    export_tables,
    kind_of,
    label_of,
    left_out_listed,
)
from .model_source import (
    clean,
    comment_above,
    docstring,
    field_comment,
    first_paragraph,
    source_tree,
    targets_of,
)
from .protection import records as guards

#: What a table serves when it cites no law.
NO_LAW = "office record-keeping"
REGENERATE = "make data-dictionary (sewer-use export-all --dictionary-only docs/data-dictionary.md)"

_PART = r"\((?:\d+|[a-z]+)\)"
_ITEM = rf"[A-Z](?:{_PART})*(?:[–-](?:[A-Z]|{_PART}))?"
_ARTICLE = re.compile(
    rf"§ 196-\d\d(?: [A-Z][A-Z\-]+(?: [A-Z][A-Z\-]+)*(?![A-Za-z(])| {_ITEM}(?:, {_ITEM})*"
    rf"(?![A-Za-z(]))?"
)
_FEDERAL = re.compile(r"\d+ CFR \d+(?:\.\d+)?(?:\((?:[0-9]+|[a-z]+|[A-Z])\))*")


#: How each kind of column is written in the CSV and the JSON files.
KIND_TEXT: dict[str, str] = {
    "integer": "integer",
    "boolean": "boolean: JSON true/false; CSV `true`/`false`",
    "text": "text",
    "decimal": "exact decimal, written as a string (`12.50`): never a binary float",
    "float": "floating-point number",
    "date": "date, ISO 8601 (`2026-12-06`)",
    "datetime": "instant, ISO 8601 with its UTC offset (`2026-12-06T14:05:00.123456+00:00`)",
    "time": "time of day, ISO 8601",
    "duration": "duration, ISO 8601 (`P1DT02H00M00S`)",
    "uuid": "UUID text",
    "json": "JSON: in the JSON file the value itself, in the CSV its JSON text (object keys in "
    "sorted order)",
    "file": "an uploaded file's stored name; the file is `files/media/<name>` (see files.csv)",
    "bytes": "bytes kept in the database, written as a file: the value is its path in the "
    "export (`files/records/...`); empty when there are no bytes",
}


def citations(text: str) -> list[str]:
    """The article and federal citations ``text`` makes, in order, once each."""
    flat = " ".join(text.split())
    found = [m.group(0) for m in _ARTICLE.finditer(flat)]
    found += [m.group(0) for m in _FEDERAL.finditer(flat)]
    return list(dict.fromkeys(found))


def _merge(*lists: list[str]) -> list[str]:
    return list(dict.fromkeys(c for cites in lists for c in cites))


@cache
def _guard_comments() -> dict[str, str]:
    """The comment above each entry of :data:`.protection.records.PROTECTED`, by model."""
    path = inspect.getsourcefile(guards)
    if not path:  # pragma: no cover - the module is a file
        return {}
    tree, lines = source_tree(path)
    out: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.AnnAssign | ast.Assign) and "PROTECTED" in targets_of(node)):
            continue
        value = node.value
        if not isinstance(value, ast.Tuple):
            continue
        for element in value.elts:
            if not (isinstance(element, ast.Call) and element.args):
                continue
            first = element.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                out[first.value] = clean(comment_above(lines, element.lineno, "#"))
    return out


def guard(model: type[models.Model]) -> dict[str, str]:
    """How the office guards the table's rows (docs/record-guards.md)."""
    name = str(model._meta.label)
    spec = guards.spec_of(name)
    if spec is None:
        if name in guards.FREE:
            return {"placement": "free", "note": guards.FREE[name]}
        return {"placement": "", "note": ""}
    if spec.append_only:
        what = ["nothing of legal content changes once written"]
    else:
        what = []
        if spec.when:
            what.append(f"rows where {spec.when}")
        if spec.workflow:
            what.append(f"`{spec.workflow}` moves only as its workflow declares")
        if spec.transitions:
            what.append("moves " + ", ".join(f"`{c}` {a}→{b}" for c, a, b in spec.transitions))
        if spec.filled_once():
            what.append("filled once: " + ", ".join(f"`{c}`" for c in spec.filled_once()))
        if spec.with_move:
            what.append(
                "with a move: " + ", ".join(f"`{c}` (with `{d}`)" for c, d in spec.with_move)
            )
        if spec.settled:
            what.append(f"settled when {spec.settled}")
    if spec.bookkeeping:
        what.append("bookkeeping: " + ", ".join(f"`{c}`" for c in spec.bookkeeping))
    note = "; ".join(what)
    comment = _guard_comments().get(name, "")
    placement = "append-only" if spec.append_only else "guarded"
    if comment:
        note = f"{note}. {comment[:1].upper()}{comment[1:]}"
    return {"placement": placement, "note": note}


def _label(f: models.Field[Any, Any]) -> str:
    """The field's label when it says more than its name."""
    verbose = str(f.verbose_name)
    if verbose.lower() == f.name.replace("_", " ").lower():
        return ""
    return verbose


def _m2m_source(model: type[models.Model]) -> tuple[type[models.Model], models.Field[Any, Any]]:
    """The model and many-to-many field an auto-created link table serves."""
    for f in model._meta.get_fields():
        if f.is_relation and f.many_to_one:
            related = f.related_model
            if isinstance(related, type):
                for m2m in related._meta.local_many_to_many:
                    if m2m.remote_field.through is model:
                        return related, m2m
    raise LookupError(f"{model._meta.label}: no many-to-many field uses it")


def describe_column(model: type[models.Model], f: models.Field[Any, Any]) -> dict[str, Any]:
    meaning = field_comment(model, f.name) or clean(str(f.help_text or ""))
    label = _label(f)
    choices = [[str(v), str(t)] for v, t in (f.flatchoices or [])]
    cites = _merge(
        citations(meaning),
        citations(label),
        *(citations(t) for _, t in choices),
    )
    out: dict[str, Any] = {
        "column": f.attname,
        "kind": kind_of(f),
        "database_type": f.get_internal_type(),
        "primary_key": bool(f.primary_key),
        "null": bool(f.null),
        "blank": bool(f.blank),
        "unique": bool(f.unique),
        "label": label,
        "meaning": meaning,
        "choices": choices,
        "references": None,
        "law": cites,
    }
    if getattr(f, "max_length", None) and out["kind"] == "text":
        out["max_length"] = f.max_length
    if isinstance(f, models.DecimalField):
        out["digits"], out["decimal_places"] = f.max_digits, f.decimal_places
    if f.is_relation and f.related_model is not None and isinstance(f.related_model, type):
        target = f.related_model
        out["references"] = {
            "table": label_of(target),
            "column": f.target_field.attname,  # type: ignore[attr-defined]
        }
    return out


def describe(table: Table) -> dict[str, Any]:
    model = table.model
    label = table.label
    law: list[str]
    if label in CARRIED:
        meaning, law = CARRIED[label], []
    elif model._meta.auto_created:
        owner, m2m = _m2m_source(model)
        comment = field_comment(owner, m2m.name)
        meaning = (
            f"Links {label_of(owner)} to {label_of(m2m.related_model)}: the many-to-many "  # type: ignore[arg-type]
            f"field `{m2m.name}` of {label_of(owner)}." + (f" {comment}" if comment else "")
        )
        law = citations(comment)
    else:
        doc = docstring(model)
        meaning = first_paragraph(doc)
        law = _merge(citations(str(getattr(model, "CITATION", "") or "")), citations(doc))
    columns = [describe_column(model, f) for f in table.columns]
    law = _merge(law, *(c["law"] for c in columns))
    return {
        "table": label,
        "model": str(model._meta.label),
        "db_table": table.db_table,
        "name": str(model._meta.verbose_name),
        "files": [table.path("csv"), table.path("json")],
        "meaning": meaning,
        "law": law or [NO_LAW],
        "guard": guard(model),
        "columns": columns,
        "columns_left_out": [{"column": c, "why": why} for c, why in table.left_out],
    }


def dictionary() -> dict[str, Any]:
    """The data dictionary as data (what ``data-dictionary.json`` holds)."""
    tables_out, columns_out = left_out_listed()
    return {
        "format": "sewer-use-data-dictionary",
        "version": 1,
        "kinds": KIND_TEXT,
        "tables": [describe(t) for t in export_tables()],
        "tables_left_out": tables_out,
        "columns_left_out": columns_out,
    }


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _column_row(c: dict[str, Any]) -> str:
    kind = c["kind"]
    if c.get("max_length"):
        kind += f" ≤ {c['max_length']}"
    if "digits" in c:
        kind += f" ({c['digits']}, {c['decimal_places']})"
    if c["primary_key"]:
        kind += ", primary key"
    elif c["unique"]:
        kind += ", unique"
    empty = "null" if c["null"] else ("blank" if c["blank"] and c["kind"] == "text" else "")
    meaning = [c["label"]] if c["label"] else []
    if c["meaning"]:
        meaning.append(c["meaning"])
    if c["references"]:
        ref = c["references"]
        meaning.append(f"→ `{ref['table']}`.`{ref['column']}`")
    if c["choices"]:
        meaning.append("one of: " + ", ".join(f"`{v}` ({t})" for v, t in c["choices"]))
    law = "; ".join(c["law"])
    return (
        f"| `{c['column']}` | {_cell(kind)} | {empty} | {_cell(' — '.join(meaning))} | "
        f"{_cell(law)} |"
    )


def markdown(data: dict[str, Any] | None = None) -> str:
    """The dictionary as Markdown (``data-dictionary.md``)."""
    data = data or dictionary()
    out = [
        "# Data dictionary",
        "",
        f"<!-- Generated from the code: do not edit. Regenerate with {REGENERATE}. -->",
        "",
        "Every table of a sewer-use export (`sewer-use export-all DIR`, docs/leaving.md): what "
        "it holds, the law it serves, how the office guards its rows, and every column. Each "
        "table is two files, `tables/<table>.csv` (a header of the column names, then one "
        "row a line) and `tables/<table>.json` (a JSON array, one object a line, typed "
        "exactly); the JSON is the one to load when types matter. Every table's primary key "
        "is `id` unless said otherwise; a foreign key holds the primary key of the row it "
        "points to (→). A generic reference (`content_type_id` with `object_id`) names its "
        "table through `contenttypes.contenttype` (app label and model) and its row by "
        "primary key, as text.",
        "",
        "A null is empty in the CSV and `null` in the JSON; in the CSV an empty text and a "
        "null look alike, the JSON tells them apart. The stored files are listed in "
        f"`{FILE_LIST}.csv` with their size, SHA-256 and the record they belong to.",
        "",
        "## How values are written",
        "",
        "| Kind | Written as |",
        "| --- | --- |",
    ]
    out += [f"| {kind} | {_cell(text)} |" for kind, text in data["kinds"].items()]
    out += [
        "",
        "## Tables",
        "",
        "| Table | What it holds | Law |",
        "| --- | --- | --- |",
    ]
    for t in data["tables"]:
        anchor = t["table"].replace(".", "").replace("_", "")
        summary = t["meaning"] or t["name"]
        out.append(
            f"| [`{t['table']}`](#{anchor}) | {_cell(summary)} | {_cell('; '.join(t['law']))} |"
        )
    for t in data["tables"]:
        out += ["", f"### {t['table']}", ""]
        out.append(f"**{t['name']}** (database table `{t['db_table']}`). {t['meaning']}".rstrip())
        out += ["", f"- Law: {'; '.join(t['law'])}"]
        if t["guard"]["placement"]:
            out.append(f"- Guard: {t['guard']['placement']} — {t['guard']['note']}")
        out.append(f"- Files: `{t['files'][0]}`, `{t['files'][1]}`")
        for gone in t["columns_left_out"]:
            out.append(f"- Left out: `{gone['column']}` — {gone['why']}")
        out += [
            "",
            "| Column | Kind | Empty | Meaning | Law |",
            "| --- | --- | --- | --- | --- |",
        ]
        out += [_column_row(c) for c in t["columns"]]
    out += [
        "",
        "## Left out",
        "",
        "Not in the export, and why (secrets, and what only signs a browser or a program in):",
        "",
        "| Table | Why |",
        "| --- | --- |",
    ]
    out += [f"| `{t['table']}` | {_cell(t['why'])} |" for t in data["tables_left_out"]]
    out += ["", "| Column | Why |", "| --- | --- |"]
    out += [
        f"| `{c['table']}`.`{c['column']}` | {_cell(c['why'])} |" for c in data["columns_left_out"]
    ]
    out += [
        "",
        "The audit key (which signs the audit events) is never in the database: carry it "
        "separately to verify the audit chain (`sewer-use verify-audit`) or to bring the "
        "export back (`sewer-use import-all DIR`).",
        "",
    ]
    return "\n".join(out)


def generated() -> tuple[str, dict[str, Any]]:
    """The Markdown and the JSON of the dictionary, for an export (:data:`DICTIONARY`)."""
    data = dictionary()
    return markdown(data), data


__all__ = ["DICTIONARY", "dictionary", "generated", "markdown"]
