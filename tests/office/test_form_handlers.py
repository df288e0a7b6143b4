"""Every page that refuses a form goes through the office's one form action, or says why not.

:func:`sewer_office.core.form_actions.form_action` exists because the hand-written steps
(bind, validate, try the service, ``except OfficeError``, ``status=400``) drifted from view to
view. This test reads the office's page modules and fails on a function that still refuses by
hand — an ``except OfficeError`` beside a literal ``status=400`` (or a status taken from the
error) — unless its docstring names ``form_action`` and says why the page does not use it (a
two-step preview/confirm import, a page with several forms, a sign-in flow…), so that the drift
cannot come back unnoticed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

OFFICE = Path(__file__).resolve().parents[2] / "src" / "sewer_office"
FormAction = OFFICE / "core" / "form_actions.py"

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _is_page_module(path: Path) -> bool:
    """A module of pages: named as views (``views.py``, ``*_views.py``, a ``views`` package), or
    one that renders templates itself (``registry/people.py``)."""
    if path == FormAction:
        return False
    named = path.name.startswith("views") or path.stem.endswith("_views")
    in_views_package = path.parent.name == "views"
    source = path.read_text(encoding="utf-8")
    renders = "from django.shortcuts import" in source and "render" in source
    return named or in_views_package or renders


def _page_modules() -> list[Path]:
    return sorted(p for p in OFFICE.rglob("*.py") if _is_page_module(p))


def _catches_office_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    for name in names:
        if isinstance(name, ast.Name) and name.id == "OfficeError":
            return True
        if isinstance(name, ast.Attribute) and name.attr == "OfficeError":
            return True
    return False


def _is_refusal_status(value: ast.expr) -> bool:
    """``400`` written out, or the error's own ``.status_code`` handed to the page."""
    if isinstance(value, ast.Constant) and value.value == 400:
        return True
    return isinstance(value, ast.Attribute) and value.attr == "status_code"


def _sets_refusal_status(node: ast.AST) -> bool:
    """``status=400`` given to a call, or ``status = 400`` (also ``message, status = …``)."""
    if isinstance(node, ast.keyword):
        return node.arg == "status" and _is_refusal_status(node.value)
    if isinstance(node, ast.Assign):
        for target in node.targets:
            pairs: list[tuple[ast.expr, ast.expr]] = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts, strict=False))
            for name, value in pairs:
                if isinstance(name, ast.Name) and name.id == "status" and _is_refusal_status(value):
                    return True
    return False


def _refuses_by_hand(function: Function) -> bool:
    nodes = list(ast.walk(function))
    catches = any(isinstance(n, ast.ExceptHandler) and _catches_office_error(n) for n in nodes)
    return catches and any(_sets_refusal_status(n) for n in nodes)


def _outer_functions(tree: ast.Module) -> Iterator[Function]:
    """Module functions and the methods of module classes (a nested helper belongs to its
    view: the view's docstring answers for it)."""
    for node in tree.body:
        if isinstance(node, Function):
            yield node
        elif isinstance(node, ast.ClassDef):
            yield from (n for n in node.body if isinstance(n, Function))


def hand_written_refusals(path: Path) -> list[str]:
    """The functions of ``path`` that refuse a form by hand without saying why."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(OFFICE.parent)
    found = []
    for function in _outer_functions(tree):
        if not _refuses_by_hand(function):
            continue
        if "form_action" in (ast.get_docstring(function) or ""):
            continue
        found.append(f"{where}:{function.lineno} {function.name}")
    return found


def test_the_scan_sees_the_office_pages() -> None:
    scanned = {str(p.relative_to(OFFICE)) for p in _page_modules()}
    assert {"permits/views.py", "registry/people.py", "billing/views/core.py"} <= scanned
    assert "core/form_actions.py" not in scanned


def test_the_scan_recognises_a_hand_written_refusal(tmp_path: Path) -> None:
    page = tmp_path / "views.py"
    page.write_text(
        "def add(request):\n"
        "    try:\n"
        "        act()\n"
        "    except OfficeError as e:\n"
        "        return render(request, 'x.html', {}, status=400)\n"
        "def change(request):\n"
        "    status = 200\n"
        "    try:\n"
        "        act()\n"
        "    except services.OfficeError as e:\n"
        "        message, status = e.message, e.status_code\n"
        "def preview(request):\n"
        '    """Not through form_action: a two-step preview and confirm."""\n'
        "    try:\n"
        "        act()\n"
        "    except OfficeError as e:\n"
        "        return render(request, 'x.html', {}, status=400)\n",
        encoding="utf-8",
    )
    tree = ast.parse(page.read_text(encoding="utf-8"))
    hand_written = [f.name for f in _outer_functions(tree) if _refuses_by_hand(f)]
    assert hand_written == ["add", "change", "preview"]


def test_every_page_refuses_through_form_action_or_says_why() -> None:
    found = [line for path in _page_modules() for line in hand_written_refusals(path)]
    assert not found, (
        "These views refuse a form by hand (except OfficeError … status=400): use "
        "sewer_office.core.form_actions.form_action, or say in the docstring why it does not "
        "fit (name form_action there):\n" + "\n".join(found)
    )
