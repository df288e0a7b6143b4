"""Writing audit events: a snapshot of a record before and after, with actor, reason, citation.

Callers are services, inside the transaction that makes the change (``transaction.atomic``),
so that the change and its audit event are committed together or not at all.

Each event is a link of the hash chain (:mod:`.chain`): its ``prev_hash`` is the digest of the
event before it, its ``seq`` the next number after the event before it, its ``digest`` the
HMAC-SHA256 of its content after that under the current audit key (:mod:`.audit_keys`; the
key's id is stored in ``key_id``). Appending takes the chain's head under a lock held to the
end of the transaction (on PostgreSQL a transaction advisory lock; SQLite transactions of the
office already write one at a time), so that two transactions never link to the same event.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeAlias, TypeVar

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none

from .audit_keys import AuditKey, KeyRing
from .chain import GENESIS, HASHED_FIELDS, event_hash, keyed_batch_hasher, keyed_hash
from .models import AuditEvent

#: The PostgreSQL advisory lock key of the audit chain's head ("sewer-use audit").
CHAIN_LOCK_KEY = 0x5E3E2A0D17

M = TypeVar("M", bound=models.Model)

#: A record's values as an audit event keeps them (``before``, ``after``): its concrete fields
#: by attribute name as JSON (:func:`snapshot`), and what a service adds beside them (a
#: schedule's milestones). Free JSON on purpose: one shape for every model of the office.
Snapshot: TypeAlias = dict[str, Any]
#: Field values by field name, as a model's ``create()`` and ``setattr`` take them (foreign
#: keys as records): what :func:`create_recorded` and :func:`change_recorded` write.
FieldValues: TypeAlias = Mapping[str, Any]


def plain(value: Any) -> Any:
    """A field value as JSON: dates ISO, decimals as exact strings, files by name."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, FieldFile):
        return value.name or None
    if isinstance(value, bytes | bytearray | memoryview):  # a stored document or logo
        return {"bytes": len(value), "sha256": hashlib.sha256(bytes(value)).hexdigest()}
    if isinstance(value, dict | list | str | int | float | bool) or value is None:
        return value
    return str(value)


def snapshot(obj: models.Model) -> Snapshot:
    """The record's concrete field values (foreign keys by id), for ``before``/``after``."""
    out: Snapshot = {}
    for f in obj._meta.concrete_fields:
        if f.name in {"created_at", "updated_at"}:
            continue
        out[f.attname] = plain(getattr(obj, f.attname))
    return out


def record(
    *,
    actor: Actor | None,
    action: str,
    obj: models.Model,
    before: Snapshot | None = None,
    after: Snapshot | None = None,
    reason: str = "",
    citation: str = "",
    state_from: str = "",
    state_to: str = "",
    at: datetime | None = None,
) -> AuditEvent:
    """Append one audit event for ``obj`` (call inside the change's transaction)."""
    real_actor = person_or_none(actor)
    event = AuditEvent(
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
    key = keys().current
    with transaction.atomic():
        prev_hash, seq = _chain_head()
        _link(event, prev_hash, seq + 1, key)
        event.save()
    return event


def record_many(
    *,
    actor: Actor | None,
    action: str,
    model: type[models.Model],
    ids: list[int],
    after: Snapshot,
    reason: str = "",
    citation: str = "",
    state_from: str = "",
    state_to: str = "",
    at: datetime | None = None,
) -> int:
    """One audit event for each of many records changed alike (an approval of a whole import):
    every record keeps its own history, written in batches (call inside the transaction)."""
    real_actor = person_or_none(actor)
    content_type = ContentType.objects.get_for_model(model)
    label = model._meta.verbose_name
    when = at or timezone.now()
    actor_name = real_actor.get_username() if real_actor else "system"
    common = AuditEvent(
        at=when,
        actor=real_actor,
        actor_name=actor_name,
        action=action,
        content_type=content_type,
        after=after,
        reason=reason,
        citation=citation,
        state_from=state_from,
        state_to=state_to,
    )
    key = keys().current
    digest_of = keyed_batch_hasher(event_values(common), key)
    with transaction.atomic():
        head, seq = _chain_head()
        for start in range(0, len(ids), 1000):
            batch = [
                AuditEvent(
                    at=when,
                    actor=real_actor,
                    actor_name=actor_name,
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
                for pk in ids[start : start + 1000]
            ]
            for event in batch:
                seq += 1
                event.prev_hash, event.seq, event.key_id = head, seq, key.key_id
                event.digest = head = digest_of(event.object_id, event.object_repr, head, seq)
            AuditEvent.objects.bulk_create(batch)
    return len(ids)


def keys() -> KeyRing:
    """The installation's audit keys (read by the settings at start: ``SEWER_USE_AUDIT_KEYS``)."""
    ring: KeyRing = settings.SEWER_USE_AUDIT_KEYS
    return ring


def lock_chain() -> None:
    """Hold the chain's head to the end of the transaction: no event is appended meanwhile."""
    if transaction.get_connection().vendor == "postgresql":
        with transaction.get_connection().cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])


def _chain_head() -> tuple[str, int]:
    """The digest and sequence number of the last event (GENESIS and 0 before the first), with
    the chain locked to the end of the transaction."""
    lock_chain()
    last = AuditEvent.objects.order_by("-id").values_list("digest", "seq").first()
    if last is None:
        return GENESIS, 0
    return last[0], last[1] or 0


def _link(event: AuditEvent, prev_hash: str, seq: int, key: AuditKey) -> str:
    """Set ``event``'s link: number ``seq`` after ``prev_hash``, signed with ``key``; returns
    its digest (the next event's ``prev_hash``)."""
    event.prev_hash, event.seq, event.key_id = prev_hash, seq, key.key_id
    event.digest = keyed_hash(event_values(event), prev_hash, seq, key)
    return event.digest


def event_values(event: AuditEvent) -> dict[str, object]:
    """The fields of ``event`` that its digest covers (:data:`.chain.HASHED_FIELDS`)."""
    values: dict[str, object] = {name: getattr(event, name) for name in HASHED_FIELDS}
    if timezone.is_naive(event.at):  # stored as Django stores naive times: local time
        values["at"] = timezone.make_aware(event.at)
    return values


@dataclass(frozen=True)
class BrokenLink:
    """The first event of the chain that does not verify, and why."""

    event_id: int
    at: datetime
    problem: str

    def __str__(self) -> str:
        return f"audit event #{self.event_id} ({self.at.isoformat()}): {self.problem}"


def verify_chain(
    chunk_size: int = 5000, ring: KeyRing | None = None
) -> tuple[int, BrokenLink | None]:
    """Walk the chain oldest first: (events checked, the first broken link or None).

    A link is broken when the event's ``prev_hash`` is not the digest of the event before it
    (an event before it was removed, inserted or relinked), when its ``seq`` is not the next
    number, when its ``digest`` is not the hash of its content (the event itself was changed,
    or re-hashed without the key), when its key is not one of ``ring`` (default: this
    installation's keys), or when an unkeyed event follows a keyed one (a rewrite in the old,
    unkeyed form). What the walk cannot see — the newest events removed, the whole table
    emptied — the anchors show (:mod:`.anchor`).
    """
    ring = ring or keys()
    prev = GENESIS
    checked = 0
    keyed = False
    fields = ("id", "prev_hash", "digest", "seq", "key_id", *HASHED_FIELDS)
    rows = AuditEvent.objects.order_by("id").values(*fields)
    for row in rows.iterator(chunk_size=chunk_size):
        checked += 1
        problem = _link_problem(row, prev, checked, ring, keyed)
        if problem:
            return checked, BrokenLink(row["id"], row["at"], problem)
        keyed = keyed or bool(row["key_id"])
        prev = row["digest"]
    return checked, None


def _link_problem(row: Mapping[str, Any], prev: str, seq: int, ring: KeyRing, keyed: bool) -> str:
    """Why ``row``, the ``seq``-th event, after the digest ``prev``, does not verify ("": it
    does)."""
    if row["prev_hash"] != prev:
        return (
            "it has no link (recorded without the chain)"
            if not row["prev_hash"]
            else "its link to the previous event is broken (an event before it was "
            "removed, inserted or changed)"
        )
    if row["seq"] != seq:
        return (
            f"its sequence number is {row['seq']}, not {seq} (an event before it was removed "
            "or inserted)"
        )
    if not row["key_id"]:
        if keyed:
            return (
                "it carries the unkeyed hash after keyed events (it was rewritten by someone "
                "without the audit key)"
            )
        if row["digest"] != event_hash(row, prev):
            return "its content does not match its hash (it was changed)"
        return ""
    key = ring.get(row["key_id"])
    if key is None:
        return (
            f"it was signed with the audit key {row['key_id']!r}, which this installation does "
            f"not have ({ring.source} holds {', '.join(ring.ids)}): an event forged under an "
            "invented key, or a key file missing its older keys"
        )
    if not hmac.compare_digest(row["digest"], keyed_hash(row, prev, seq, key)):
        return (
            f"its content does not match its keyed hash under key {key.key_id} (it was changed, "
            "or re-hashed without the audit key)"
        )
    return ""


def create_recorded(
    model: type[M],
    fields: FieldValues,
    *,
    actor: Actor | None,
    action: str,
    citation: str | Callable[[M], str] = "",
    state_to: str = "",
    reason: str = "",
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
            reason=reason,
            at=at,
        )
    return obj


def change_recorded(
    obj: M,
    fields: FieldValues,
    *,
    actor: Actor | None,
    action: str,
    citation: str = "",
    reason: str = "",
    at: datetime | None = None,
) -> M:
    """Set ``fields`` on ``obj``, save it and record the change (its values before and after)
    in one transaction (a savepoint inside the caller's): the counterpart of
    :func:`create_recorded`. A caller that must lock the row passes it locked."""
    with transaction.atomic():
        before = snapshot(obj)
        for name, value in fields.items():
            setattr(obj, name, value)
        obj.save()
        record(
            actor=actor,
            action=action,
            obj=obj,
            before=before,
            after=snapshot(obj),
            citation=citation,
            reason=reason,
            at=at,
        )
    return obj


def timeline(obj: models.Model) -> models.QuerySet[AuditEvent]:
    """Every event of ``obj``, oldest first."""
    return AuditEvent.objects.filter(
        content_type=ContentType.objects.get_for_model(obj), object_id=str(obj.pk)
    ).select_related("actor")
