"""What a model's source says of it, read with :mod:`ast`: its docstring as written, and the
``#:`` comment above each field (or the string right after it), as plain prose.

The data dictionary (:mod:`.data_dictionary`) gives each table and column the meaning written
beside it in the code, so that the dictionary cannot go stale; this is how it reads them.
Apart from the dictionary because it is about source files, not tables.
"""

from __future__ import annotations

import ast
import inspect
import re
from functools import cache
from pathlib import Path

from django.db import models

#: A reST role (``:class:`~.models.Permit```): its text is kept, the markup dropped.
_ROLE = re.compile(r":[a-z]+:`~?\.?(?:[\w.]*\.)?([^`]+)`")


def clean(text: str) -> str:
    """Docstring or comment text as plain prose: one line, reST roles and literals undone."""
    text = _ROLE.sub(r"\1", text)
    text = text.replace("``", "`")
    return " ".join(text.split())


@cache
def source_tree(path: str) -> tuple[ast.Module, tuple[str, ...]]:
    text = Path(path).read_text(encoding="utf-8")
    return ast.parse(text), tuple(text.splitlines())


def class_node(cls: type) -> tuple[ast.ClassDef, tuple[str, ...]] | None:
    try:
        path = inspect.getsourcefile(cls)
    except TypeError:
        return None
    if not path or not Path(path).is_file():
        return None
    tree, lines = source_tree(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return node, lines
    return None


def comment_above(lines: tuple[str, ...], lineno: int, mark: str) -> str:
    """The comment lines starting with ``mark`` right above line ``lineno`` (1-based)."""
    out: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].strip().startswith(mark):
        out.insert(0, lines[i].strip()[len(mark) :].strip())
        i -= 1
    return " ".join(out)


def targets_of(statement: ast.stmt) -> list[str]:
    if isinstance(statement, ast.Assign):
        return [t.id for t in statement.targets if isinstance(t, ast.Name)]
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [statement.target.id]
    return []


def field_comment(model: type[models.Model], name: str) -> str:
    """The ``#:`` comment above the field ``name`` (or the string right after it) in the
    source of the class that declares it (the model or one of its bases)."""
    for cls in model.__mro__:
        if cls is models.Model or not isinstance(cls, type) or not issubclass(cls, models.Model):
            continue
        found = class_node(cls)
        if found is None:
            continue
        node, lines = found
        body = node.body
        for i, statement in enumerate(body):
            if name not in targets_of(statement):
                continue
            text = comment_above(lines, statement.lineno, "#:")
            after = body[i + 1] if i + 1 < len(body) else None
            if (
                not text
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                text = after.value.value
            return clean(text)
    return ""


def docstring(model: type[models.Model]) -> str:
    """The model's own docstring as written (Django invents one for a class without)."""
    found = class_node(model)
    if found is None:
        return ""
    return ast.get_docstring(found[0]) or ""


def first_paragraph(text: str) -> str:
    return clean(text.strip().split("\n\n")[0]) if text.strip() else ""
