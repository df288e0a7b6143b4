"""The hash chain over audit events: each event stores the SHA-256 of its own content and of
the previous event's hash, so that changing, removing or inserting an event anywhere breaks
every link after it (``sewer-use verify-audit`` finds the first broken one).

The content hashed is a canonical form of the event's stored values, chosen to read back the
same from either database: keys sorted, every value tagged with its type (so that a string
``"1"`` and a number ``1`` differ), numbers as normalised decimals (PostgreSQL's ``jsonb``
returns ``1e30`` as ``1000000000000000000000000000000``: the same number, another spelling),
times in UTC with microseconds. The version prefix ``v1`` names this form; a future form
would be a new prefix, never a change of this one (old events must verify forever).

``v1`` is a plain SHA-256: anyone who can rewrite the table can recompute it. ``v2`` (every
event written since) is an HMAC-SHA256 under a key the database does not hold
(:mod:`.audit_keys`), over the same canonical text after the key's id, the event's sequence
number (1, 2, 3... with no gap) and the previous digest: without the key nobody can make a
changed event verify, and a removed tail shows against an anchor (:mod:`.anchor`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import TypeAlias

from .audit_keys import AuditKey

#: An event's hashed fields by name (:data:`HASHED_FIELDS`; a field left out reads as None),
#: each of whatever type the event stores (its ``before`` and ``after`` are free JSON): the
#: canonical text tags every leaf with its type, so no field's type need be known here.
EventValues: TypeAlias = Mapping[str, object]

#: The hash of "no previous event" (the first event's ``prev_hash``).
GENESIS = "0" * 64

#: The stored fields of an event that its hash covers, in this order.
HASHED_FIELDS = (
    "at",
    "actor_id",
    "actor_name",
    "action",
    "content_type_id",
    "object_id",
    "object_repr",
    "before",
    "after",
    "state_from",
    "state_to",
    "reason",
    "citation",
)


def _number(value: int | float | Decimal) -> str:
    try:
        d = Decimal(str(value))
    except InvalidOperation:  # pragma: no cover - str() of a number always parses
        return str(value)
    if not d.is_finite():
        return str(d)
    return str(d.normalize()) if d else "0"


def _tagged(value: object) -> object:
    """``value`` with every leaf tagged by its type (unambiguous, backend-independent)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return {"b": value}
    if isinstance(value, int | float | Decimal):
        return {"n": _number(value)}
    if isinstance(value, str):
        return {"s": value}
    if isinstance(value, dict):
        return {"d": {str(k): _tagged(v) for k, v in value.items()}}
    if isinstance(value, list | tuple):
        return {"l": [_tagged(v) for v in value]}
    if isinstance(value, datetime):
        return {"t": _instant(value)}
    return {"s": str(value)}


def _instant(at: datetime) -> str:
    if at.tzinfo is None:
        raise ValueError("an audit event's time must be timezone-aware")
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))


def _canonical(values: EventValues) -> str:
    return _dumps({name: _tagged(values.get(name)) for name in HASHED_FIELDS})


def event_hash(values: EventValues, prev_hash: str) -> str:
    """The SHA-256 (hex) of one event's ``values`` (:data:`HASHED_FIELDS`) after ``prev_hash``
    (form ``v1``: the events written before the chain was keyed)."""
    return hashlib.sha256(f"v1\n{prev_hash}\n{_canonical(values)}".encode()).hexdigest()


def _v2_head(key: AuditKey, seq: int, prev_hash: str) -> str:
    return f"v2\n{key.key_id}\n{seq}\n{prev_hash}\n"


def keyed_hash(values: EventValues, prev_hash: str, seq: int, key: AuditKey) -> str:
    """The HMAC-SHA256 (hex) under ``key`` of one event's ``values`` with its sequence number
    ``seq`` after ``prev_hash`` (form ``v2``)."""
    text = _v2_head(key, seq, prev_hash) + _canonical(values)
    return hmac.digest(key.secret, text.encode(), "sha256").hex()


_OBJECT_ID, _OBJECT_REPR = "\x00object_id\x00", "\x00object_repr\x00"


def _template(common: EventValues) -> tuple[str, str, str]:
    """The canonical text of ``common`` cut where the object's id and label go."""
    template = _dumps(
        {
            name: _tagged(common.get(name))
            for name in HASHED_FIELDS
            if name not in {"object_id", "object_repr"}
        }
        | {"object_id": {"s": _OBJECT_ID}, "object_repr": {"s": _OBJECT_REPR}}
    )
    head, rest = template.split(_dumps(_OBJECT_ID))
    middle, tail = rest.split(_dumps(_OBJECT_REPR))
    return head, middle, tail


def batch_hasher(common: EventValues) -> Callable[[str, str, str], str]:
    """``hash(object_id, object_repr, prev_hash)`` for many events alike but for their object
    (one audit event per record of a bulk approval): the same digest as :func:`event_hash`,
    with the canonical text of the common fields built once."""
    head, middle, tail = _template(common)

    def digest(object_id: str, object_repr: str, prev_hash: str) -> str:
        text = f"v1\n{prev_hash}\n{head}{_dumps(object_id)}{middle}{_dumps(object_repr)}{tail}"
        return hashlib.sha256(text.encode()).hexdigest()

    return digest


def keyed_batch_hasher(common: EventValues, key: AuditKey) -> Callable[[str, str, str, int], str]:
    """``hash(object_id, object_repr, prev_hash, seq)``: :func:`batch_hasher` for the keyed
    form, the same digest as :func:`keyed_hash` (the common text built once)."""
    head, middle, tail = _template(common)
    secret = key.secret

    def digest(object_id: str, object_repr: str, prev_hash: str, seq: int) -> str:
        text = (
            f"{_v2_head(key, seq, prev_hash)}{head}{_dumps(object_id)}{middle}"
            f"{_dumps(object_repr)}{tail}"
        )
        return hmac.digest(secret, text.encode(), "sha256").hex()

    return digest
