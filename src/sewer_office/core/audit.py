"""Writing audit events: a snapshot of a record before and after, with actor, reason, citation.

Callers are services, inside the transaction that makes the change (``transaction.atomic``),
so that the change and its audit event are committed together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from .models import AuditEvent

M = TypeVar("M", bound=models.Model)


def plain(value: Any) -> Any:
    """A field value as JSON: dates ISO, decimals as exact strings, files by name."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, FieldFile):
        return value.name or None
    if isinstance(value, dict | list | str | int | float | bool) or value is None:
        return value
    return str(value)


def snapshot(obj: models.Model) -> dict[str, Any]:
    """The record's concrete field values (foreign keys by id), for ``before``/``after``."""
    out: dict[str, Any] = {}
    for f in obj._meta.concrete_fields:
        if f.name in {"created_at", "updated_at"}:
            continue
        out[f.attname] = plain(getattr(obj, f.attname))
    return out


def record(
    *,
    actor: Any,
    action: str,
    obj: models.Model,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
    citation: str = "",
    state_from: str = "",
    state_to: str = "",
    at: datetime | None = None,
) -> AuditEvent:
    """Append one audit event for ``obj`` (call inside the change's transaction)."""
    real_actor = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEvent.objects.create(
        at=at or timezone.now(),
        actor=real_actor,
        actor_name=real_actor.get_username() if real_actor else "system",
        action=action,
        content_type=ContentType.objects.get_for_model(obj),
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=after,
        reason=reason,
        citation=citation,
        state_from=state_from,
        state_to=state_to,
    )


def record_many(
    *,
    actor: Any,
    action: str,
    model: type[models.Model],
    ids: list[int],
    after: dict[str, Any],
    reason: str = "",
    citation: str = "",
    state_from: str = "",
    state_to: str = "",
    at: datetime | None = None,
) -> int:
    """One audit event for each of many records changed alike (an approval of a whole import):
    every record keeps its own history, written in batches (call inside the transaction)."""
    real_actor = actor if getattr(actor, "is_authenticated", False) else None
    content_type = ContentType.objects.get_for_model(model)
    label = model._meta.verbose_name
    when = at or timezone.now()
    AuditEvent.objects.bulk_create(
        (
            AuditEvent(
                at=when,
                actor=real_actor,
                actor_name=real_actor.get_username() if real_actor else "system",
                action=action,
                content_type=content_type,
                object_id=str(pk),
                object_repr=f"{label} #{pk}",
                after=after,
                reason=reason,
                citation=citation,
                state_from=state_from,
                state_to=state_to,
            )
            for pk in ids
        ),
        batch_size=1000,
    )
    return len(ids)


def create_recorded(
    model: type[M],
    fields: dict[str, Any],
    *,
    actor: Any,
    action: str,
    citation: str | Callable[[M], str] = "",
    state_to: str = "",
    at: datetime | None = None,
) -> M:
    """Create a record from ``fields`` and its audit event (with the record's values) in one
    transaction (a savepoint inside the caller's).

    ``citation`` is the text, or a function of the new record when the record says which
    subsection applies (an interceptor's kind, an inspection on an easement).
    """
    with transaction.atomic():
        obj = model._default_manager.create(**fields)
        record(
            actor=actor,
            action=action,
            obj=obj,
            after=snapshot(obj),
            citation=citation(obj) if callable(citation) else citation,
            state_to=state_to,
            at=at,
        )
    return obj


def timeline(obj: models.Model) -> models.QuerySet[AuditEvent]:
    """Every event of ``obj``, oldest first."""
    return AuditEvent.objects.filter(
        content_type=ContentType.objects.get_for_model(obj), object_id=str(obj.pk)
    ).select_related("actor")
