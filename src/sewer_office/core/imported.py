"""Records made outside the office and imported: finding their provenance for the pages.

A permit, an approval, an inspection or a violation written on paper before the town adopted
the office is brought in by the archive's import (``/archive/``, ``sewer-use import-records``)
with an :class:`~sewer_office.core.models.ImportedRecord`: where the paper is, its number as
written, the import's file and SHA-256, who imported it and when. This module is how the pages
of every app find it without knowing the archive (which sits above them): by the record's
content type and id.

- :func:`imported_record` — one record's provenance (cached on the instance), for a detail
  page's banner (``{% imported_banner obj %}``, :mod:`..templatetags.imported`).
- :func:`imported_among` — which rows of a list are imported, in one query for the page's rows
  (``{% imported_among page as imported %}`` then ``{% imported_badge r imported %}``).

An imported record has no document of record the office issued (an approval letter, an
inspection report): the paper was not the office's, and a letter rendered now would look as if
the office had made the decision. :func:`sewer_office.core.letters.issued_or_issue` refuses to
issue one on first request; the scanned paper is attached to the record instead.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, cast

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q

from .models import Attachment, ImportedRecord

#: The attribute an instance caches its provenance under (None: looked up, not imported).
_CACHE = "_sewer_imported_record"
_MISSING = object()


def imported_record(obj: Any) -> ImportedRecord | None:
    """The provenance of ``obj`` if it was imported, else None (one query, cached on ``obj``)."""
    if obj is None or getattr(obj, "pk", None) is None:
        return None
    cached = getattr(obj, _CACHE, _MISSING)
    if cached is not _MISSING:
        return cast(ImportedRecord | None, cached)  # set below: an ImportedRecord or None
    found = (
        ImportedRecord.objects.filter(
            content_type=ContentType.objects.get_for_model(type(obj)), object_id=str(obj.pk)
        )
        .select_related("imported_by")
        .first()
    )
    setattr(obj, _CACHE, found)
    return found


def scans_of(imp: ImportedRecord) -> models.QuerySet[Attachment]:
    """The scanned papers the import attached to the record (the files stored with it, at the
    moment of the import)."""
    return Attachment.objects.filter(
        content_type_id=imp.content_type_id, object_id=imp.object_id, created_at=imp.imported_at
    ).order_by("id")


def is_imported(obj: Any) -> bool:
    """Whether ``obj`` was made outside the office and imported."""
    return imported_record(obj) is not None


def _model_and_pk(row: Any) -> tuple[type[models.Model], Any] | None:
    """The model and primary key a list row stands for: a model instance, a ``(record, ...)``
    tuple (a list that pairs each record with something), or a dict with ``pk`` and a
    ``kind`` that has a ``model`` (the permits' list of every kind)."""
    if isinstance(row, tuple) and row:
        row = row[0]
    if isinstance(row, models.Model):
        return type(row), row.pk
    if isinstance(row, dict):
        kind = row.get("kind")
        model = getattr(kind, "model", None)
        if isinstance(model, type) and issubclass(model, models.Model) and "pk" in row:
            return model, row["pk"]
    return None


class ImportedSet:
    """The imported rows of one page of a list: ``row in imported`` for a row of any of the
    shapes :func:`_model_and_pk` reads."""

    def __init__(self, keys: set[tuple[int, str]]) -> None:
        self._keys = keys

    def __contains__(self, row: Any) -> bool:
        found = _model_and_pk(row)
        if found is None:
            return False
        model, pk = found
        return (ContentType.objects.get_for_model(model).pk, str(pk)) in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def __bool__(self) -> bool:
        return bool(self._keys)


def imported_among(rows: Iterable[Any]) -> ImportedSet:
    """Which of ``rows`` (a page of a list) are imported records: one query for all of them."""
    by_type: dict[int, list[str]] = defaultdict(list)
    for row in rows:
        found = _model_and_pk(row)
        if found is None:
            continue
        model, pk = found
        by_type[ContentType.objects.get_for_model(model).pk].append(str(pk))
    if not by_type:
        return ImportedSet(set())
    cond = Q()
    for type_id, ids in by_type.items():
        cond |= Q(content_type_id=type_id, object_id__in=ids)
    keys = set(ImportedRecord.objects.filter(cond).values_list("content_type_id", "object_id"))
    return ImportedSet(keys)
