"""One cell's text as a value: dates, moments, yes/no, choices and a model field's own check.

Each refuses a bad value with a :class:`RowError` naming the column, which the check lists with
the file and the row. The same words are used for every file, so that a date is written and
refused the same way in permits.csv as in violations.csv.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from sewer_rules.hostile import shorten

YES = {"yes", "y", "true", "1", "x"}
NO = {"no", "n", "false", "0", ""}


class RowError(Exception):
    """A problem of one field of the row being read."""

    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


def as_written(row: dict[str, str]) -> dict[str, str]:
    """The row's filled cells, kept beside the record it creates."""
    return {k: v for k, v in row.items() if v}


def optional_date(row: dict[str, str], column: str) -> date | None:
    """A date written YYYY-MM-DD, or None when the cell is empty."""
    text = row.get(column, "")
    if not text:
        return None
    if len(text) == 10:
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise RowError(column, f"'{shorten(text)}' is not a date written YYYY-MM-DD")


def past_day(row: dict[str, str], column: str, today: date) -> date:
    """A required date, not after ``today``."""
    value = optional_date(row, column)
    if value is None:
        raise RowError(column, "required (a date, YYYY-MM-DD)")
    not_future(column, value, today)
    return value


def moment(row: dict[str, str], column: str) -> datetime | None:
    """A date (taken at 00:00) or a date and time (``YYYY-MM-DD HH:MM``), in town time."""
    text = row.get(column, "")
    if not text:
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


def yes(row: dict[str, str], column: str) -> bool:
    text = row.get(column, "").lower()
    if text in YES:
        return True
    if text in NO:
        return False
    raise RowError(column, f"'{shorten(text)}': write yes or no")


def choice(row: dict[str, str], column: str, choices: Iterable[str]) -> str:
    """A required one of ``choices`` (written in any case)."""
    text = row.get(column, "")
    allowed = list(choices)
    if not text:
        raise RowError(column, f"required: one of {', '.join(allowed)}")
    if text not in allowed:
        lowered = text.lower()
        if lowered in allowed:
            return lowered
        raise RowError(column, f"'{shorten(text)}' is not one of {', '.join(allowed)}")
    return text


def not_future(column: str, value: date | None, today: date) -> None:
    if value is not None and value > today:
        raise RowError(
            column, f"{value} is in the future: a record of the past is dated before today"
        )


def left_empty(row: dict[str, str], columns: Iterable[str], message: str) -> None:
    """Refuse the first of ``columns`` the row fills, saying ``message``."""
    for column in columns:
        if row.get(column):
            raise RowError(column, message)


def fits(model: type[models.Model], name: str, value: Any) -> None:
    """Refuse a text longer than ``model``'s field ``name`` keeps (the column is the field)."""
    f = model._meta.get_field(name)
    cap = int(getattr(f, "max_length", 0) or 0)
    if len(str(value)) > cap:
        raise RowError(name, f"longer than the {cap} characters kept")


def model_value(model: type[models.Model], name: str, row: dict[str, str], column: str = "") -> Any:
    """The row's ``column`` (by default ``name``) as the value of ``model``'s field ``name``,
    checked as the field checks it."""
    column = column or name
    text = row.get(column, "")
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
        return yes(row, column)
    if isinstance(f, models.DateField):
        return optional_date(row, column)
    if f.choices:
        values = [str(v) for v, _label in f.flatchoices]
        if text not in values:
            raise RowError(column, f"'{shorten(text)}' is not one of {', '.join(values)}")
    try:
        return f.clean(text, None)
    except ValidationError as e:
        raise RowError(column, " ".join(str(m) for m in e.messages)) from None
