"""How the program's records refuse to be edited: a record that is superseded, never changed
(:class:`Superseded`), and a record whose few fields are filled once, then frozen
(:func:`fill_once`). Records of legal weight keep what they said; a correction is a new record."""

from __future__ import annotations

import builtins
from typing import Any

from django.db import models

from sewer_office.core.models import ImmutableRecord


def fill_once(obj: models.Model, allowed: frozenset[str], what: str) -> None:
    """Refuse an update of a stored row unless it only fills ``allowed`` fields still empty."""
    stored = type(obj)._default_manager.filter(pk=obj.pk).values().first()
    if stored is None:
        return
    for f in obj._meta.concrete_fields:
        old, new = stored[f.attname], getattr(obj, f.attname)
        if old == new or (f.attname in allowed and old in (None, "")):
            continue
        raise ImmutableRecord(f"{what} is never edited ({f.name} cannot change)")


class Superseded(models.Model):
    """Written once; replaced by a newer record that supersedes it, never edited or deleted."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ImmutableRecord(
                f"a {self._meta.verbose_name} is never edited: record a new one that supersedes it"
            )
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord(f"a {self._meta.verbose_name} is never deleted")

    @builtins.property
    def current(self) -> bool:
        return not hasattr(self, "superseded_by")
