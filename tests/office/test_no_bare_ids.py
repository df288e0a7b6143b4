"""No form asks for a bare record number: every form and filter of the office is walked (each
``forms``/``filters`` module imported; a filter set only the API uses is left out: its
clients pass ids), and a field is refused when it is a number box for a
record — its name ends in ``_id`` or is the name of a foreign key of the office's models —
or when its label, help text or placeholder says "(id)", "id of" or "… id". The list pages
never show django-filter's "[invalid name]" label."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import django_filters
import pytest
from django import forms
from django.apps import apps
from django.db import models

import sewer_office

from .factories import Town

pytestmark = pytest.mark.django_db

#: what says "type the number of a record" (a label or help text; a placeholder "person id")
ID_WORDS = re.compile(r"\(id\)|\bid of\b", re.IGNORECASE)
ID_PLACEHOLDER = re.compile(r"^\w+ id$", re.IGNORECASE)


def _import_form_modules() -> None:
    for info in pkgutil.walk_packages(sewer_office.__path__, "sewer_office."):
        leaf = info.name.rsplit(".", 1)[-1]
        if ".migrations" in info.name or ".demo" in info.name:
            continue
        if "form" in leaf or "filter" in leaf:
            importlib.import_module(info.name)


def _subclasses(base: type) -> list[type]:
    out: list[type] = []
    todo: list[type] = [base]
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        for sub in subs:
            todo.append(sub)
            if sub.__module__.startswith("sewer_office."):
                out.append(sub)
    return out


def _fk_names() -> set[str]:
    return {
        f.name
        for m in apps.get_models()
        if m.__module__.startswith("sewer_office.")
        for f in m._meta.get_fields()
        if isinstance(f, models.ForeignKey | models.OneToOneField)
    }


def _fields_of(cls: type) -> dict[str, forms.Field]:
    if issubclass(cls, django_filters.FilterSet):
        model = getattr(cls, "_meta").model  # noqa: B009  (set by FilterSet's metaclass)
        if model is None:
            return {}
        fs = cls(None, queryset=model._default_manager.none(), request=None)
        return dict(fs.form.fields)
    return dict(getattr(cls, "base_fields", {}))


def _bare(name: str, field: forms.Field, fks: set[str]) -> str | None:
    if isinstance(field.widget, forms.HiddenInput):
        return None  # not asked of anyone: the page fills it
    number = isinstance(field, forms.IntegerField) or isinstance(field.widget, forms.NumberInput)
    if number and (name.endswith("_id") or name in fks):
        return f"a number box for a record ({type(field).__name__}, {type(field.widget).__name__})"
    for w in (str(field.label or ""), str(field.help_text or "")):
        if ID_WORDS.search(w):
            return f"says to type an id: {w!r}"
    placeholder = str(getattr(field.widget, "attrs", {}).get("placeholder", ""))
    if ID_PLACEHOLDER.match(placeholder.strip()):
        return f"says to type an id: {placeholder!r}"
    return None


def _page_code() -> str:
    """The source of the office's page views (``views.py`` and ``views/``)."""
    root = Path(sewer_office.__file__).parent
    files = [*root.glob("*/views.py"), *root.glob("*/views/*.py")]
    return "\n".join(f.read_text() for f in files)


def _shown(cls: type, pages: str) -> bool:
    """A form is shown to people; a filter set only if a page uses it (the API's filters
    take ids by design: ``?person=12``; a page's subclass is walked on its own)."""
    if not issubclass(cls, django_filters.FilterSet):
        return True
    return re.search(rf"\b{cls.__name__}\b", pages) is not None


def bare_id_fields() -> list[str]:
    _import_form_modules()
    fks = _fk_names()
    pages = _page_code()
    found = []
    for cls in _subclasses(forms.BaseForm) + _subclasses(django_filters.FilterSet):
        if not _shown(cls, pages):
            continue
        for name, field in _fields_of(cls).items():
            why = _bare(name, field, fks)
            if why:
                found.append(f"{cls.__module__}.{cls.__qualname__}.{name}: {why}")
    return sorted(set(found))


def test_the_check_sees_a_bare_id_field() -> None:
    """The check itself: a number box named after a foreign key, or labelled as an id."""
    fks = _fk_names()
    assert "establishment" in fks
    assert _bare("establishment", forms.IntegerField(), fks)
    assert _bare("x", forms.CharField(label="Facility (id)"), fks)
    assert _bare("x", forms.CharField(help_text="id of the follow-up inspection"), fks)
    assert _bare("x", forms.CharField(widget=forms.TextInput({"placeholder": "person id"})), fks)
    assert _bare("count", forms.IntegerField(label="Count"), fks) is None
    assert _bare("ident", forms.CharField(label="Meter id"), fks) is None  # its own name
    assert _bare("slug", forms.IntegerField(widget=forms.HiddenInput), fks) is None
    assert _bare("person_id", forms.CharField(widget=forms.NumberInput()), fks)


def test_no_form_or_filter_asks_for_a_bare_id(town: Town) -> None:
    offenders = bare_id_fields()
    assert not offenders, "\n".join(offenders)


LIST_PAGES = (
    "/reports/",
    "/inspections/",
    "/permits/",
    "/monitoring/results/",
    "/enforcement/",
    "/enforcement/schedules/",
    "/pretreatment/",
    "/grease/",
    "/meters/",
    "/billing/payments/",
    "/billing/invoices/",
    "/registry/properties/",
    "/registry/establishments/",
    "/registry/persons/",
    "/portal/links/",
)


@pytest.mark.parametrize("username", ["clerk", "owner"])
def test_no_list_page_shows_an_invalid_name(town: Town, login: Any, username: str) -> None:
    c = login(username)
    shown = []
    for url in LIST_PAGES:
        r = c.get(url)
        if r.status_code != 200:
            continue  # a page not for this role
        html = r.content.decode()
        shown += [f"{url}: {bad}" for bad in ("[invalid name]", "(id)") if bad in html]
    assert not shown, "\n".join(shown)
