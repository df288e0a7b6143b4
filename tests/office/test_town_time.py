"""Moments in the Town's time everywhere a person reads them.

- Every model's ``__str__``: each model of the office is built (not saved) with every
  datetime field at 03:30 UTC on 10 March 2026 — 23:30 on the 9th in New York — and its text
  must not show the UTC day or time. Related records are stand-ins (their text is "·"), so
  that a model's own moments are what is checked; a model whose text needs more of its
  related records than a stand-in gives is listed (it is not silently passed).
- Templates: Django prints an aware datetime in the current time zone (``{{ x }}``,
  ``|date``, ``|time``); what escapes that is ``{% localtime off %}``, ``|utc``, and a
  moment kept as text (ISO 8601 in a record's JSON) sliced for show (``|slice`` of a ``*_at``)
  — none may appear in a template. The report page shows a sample's stored UTC moment in
  town time.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.db import models
from django.template import Context, Template
from django.utils import timezone

import sewer_office
from sewer_office.core.moments import local

pytestmark = pytest.mark.django_db

UTC_MOMENT = datetime(2026, 3, 10, 3, 30, tzinfo=UTC)
UTC_TEXTS = ("2026-03-10", "03:30")
LOCAL_DAY = "2026-03-09"
A_DAY = date(2026, 1, 2)


class _Stand(str):
    """A related record: any attribute is another stand-in, its text is "·"."""

    pk = 1
    id = 1

    def __new__(cls) -> _Stand:
        return super().__new__(cls, "·")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stand()

    def __call__(self, *a: Any, **k: Any) -> _Stand:
        return _Stand()


def _built(model: type[models.Model]) -> models.Model:
    obj = model()
    for f in model._meta.concrete_fields:
        if isinstance(f, models.DateTimeField):
            setattr(obj, f.attname, UTC_MOMENT)
        elif isinstance(f, models.DateField):
            setattr(obj, f.attname, A_DAY)
        elif isinstance(f, models.DecimalField):
            setattr(obj, f.attname, Decimal("1.00"))
        elif isinstance(f, models.IntegerField) and getattr(obj, f.attname) is None:
            setattr(obj, f.attname, 1)
        elif isinstance(f, models.ForeignKey):
            setattr(obj, f.attname, 1)
            obj._state.fields_cache[f.name] = _Stand()
    for f in model._meta.private_fields:  # generic relations
        obj._state.fields_cache[f.name] = _Stand()
    return obj


def _office_models() -> list[type[models.Model]]:
    return [
        m
        for m in apps.get_models()
        if m.__module__.startswith("sewer_office.")
        and "__str__" in vars(m)
        and any(isinstance(f, models.DateTimeField) for f in m._meta.concrete_fields)
    ]


def test_the_moment_is_near_midnight_in_town() -> None:
    assert timezone.localtime(UTC_MOMENT).date().isoformat() == LOCAL_DAY
    assert local(UTC_MOMENT) == "2026-03-09 23:30"


def test_every_models_text_shows_its_moments_in_town_time() -> None:
    wrong, unchecked, local_shown = [], [], []
    for model in _office_models():
        try:
            text = str(_built(model))
        except Exception as e:
            unchecked.append(f"{model.__name__}: {type(e).__name__}: {e}")
            continue
        if any(t in text for t in UTC_TEXTS):
            wrong.append(f"{model._meta.label}: {text!r}")
        if LOCAL_DAY in text:
            local_shown.append(model.__name__)
    assert not wrong, "shown in UTC:\n" + "\n".join(wrong)
    assert not unchecked, "not checked:\n" + "\n".join(unchecked)
    # the walk sees the moments it is about (the sample of the inspection form, the signature)
    assert {"SamplingEvent", "Signature", "AuditEvent", "Reading"} <= set(local_shown), local_shown


def _templates() -> list[Path]:
    root = Path(sewer_office.__file__).parent
    return sorted(root.glob("*/templates/**/*.html"))


ESCAPES = (
    (re.compile(r"{%\s*localtime\s+off\s*%}"), "localtime off"),
    (re.compile(r"\|\s*utc\b"), "|utc"),
    (re.compile(r"_at\|slice"), "a moment kept as text, sliced"),
    (re.compile(r"\.isoformat\b"), "isoformat"),
)


def test_no_template_shows_a_moment_outside_town_time() -> None:
    found = []
    for path in _templates():
        text = path.read_text()
        for pattern, what in ESCAPES:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.name}:{line}: {what}")
    assert len(_templates()) > 50
    assert not found, "\n".join(found)


def test_django_prints_aware_moments_in_town_time() -> None:
    """What the template check relies on: ``{{ x }}``, ``|date`` and ``|time`` convert."""
    out = Template('{{ m|date:"Y-m-d H:i" }} | {{ m|time:"H:i" }} | {{ m|date:"Y-m-d" }}').render(
        Context({"m": UTC_MOMENT})
    )
    assert out == "2026-03-09 23:30 | 23:30 | 2026-03-09"
