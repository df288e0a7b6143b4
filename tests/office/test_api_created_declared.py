"""A view of the API that answers ``201 Created`` says so in its schema.

drf-spectacular documents a custom POST action's response as 200 unless ``201`` is named, so
an action that creates a record (an addendum, a photo, a correction) and answers 201 would
break the published schema for every client generated from it. The hostile-input run finds
this only when the demo happens to hold a record the action accepts; this reads the source.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sewer_office

OFFICE = Path(sewer_office.__file__).parent


def _created_without_201() -> list[str]:
    found: list[str] = []
    for path in sorted(OFFICE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "HTTP_201_CREATED" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.FunctionDef) or node.name == "create":
                continue  # a viewset's create is documented as 201 by drf-spectacular itself
            body = ast.get_source_segment(text, node) or ""
            if "HTTP_201_CREATED" not in body or "def " in body.split("\n", 1)[1]:
                continue
            schemas = [
                ast.get_source_segment(text, d) or ""
                for d in node.decorator_list
                if "extend_schema" in (ast.get_source_segment(text, d) or "")
            ]
            if not any("201" in s for s in schemas):
                found.append(f"{path.relative_to(OFFICE)}:{node.lineno} {node.name}")
    return found


def test_every_view_answering_201_declares_it() -> None:
    assert _created_without_201() == []
