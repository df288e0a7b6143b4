"""Anchors of the audit chain: its head, written OUTSIDE the database.

The keyed chain (:mod:`.chain`) makes a changed event fail verification; it cannot show that
the newest events were removed, or the whole table emptied — what is left still verifies.
An anchor is the head of the chain at a moment (the last event's sequence number, id and
digest, the number of events, the key, the time), written where the database's users cannot
reach: a JSON file in ``SEWER_USE_AUDIT_ANCHOR_DIR`` (one per anchor, named by its UTC time,
and ``latest.json``), a line of the log (logger ``sewer_office.audit``), the e-mail to the
Superintendent (``sewer-use anchor-audit``) and every backup (``audit-anchor.json``).

:func:`compare` checks the chain against anchors: an anchored event must still be there, with
the same digest (else the chain up to it was changed, or the events after an earlier point
were re-hashed), and the chain must hold at least as many events as the anchor counted.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from .audit import lock_chain
from .models import AuditEvent

FORMAT = "sewer-use-audit-anchor"
VERSION = 1
LATEST = "latest.json"
#: The anchor's name inside a backup directory.
BACKUP_NAME = "audit-anchor.json"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")

log = logging.getLogger("sewer_office.audit")


class AnchorError(Exception):
    """An anchor file that cannot be read, with the file and the field at fault."""


@dataclass(frozen=True)
class Anchor:
    """The head of the audit chain at ``anchored_at`` (``seq`` 0: the chain was empty)."""

    anchored_at: datetime
    reason: str  # what wrote it: "anchor-audit", "backup"
    events: int
    seq: int
    event_id: int | None
    event_at: datetime | None
    digest: str
    key_id: str
    #: The file it was read from ("" for an anchor just taken).
    source: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "anchored_at": _stamp(self.anchored_at),
            "reason": self.reason,
            "events": self.events,
            "seq": self.seq,
            "event_id": self.event_id,
            "event_at": _stamp(self.event_at) if self.event_at else None,
            "digest": self.digest,
            "key_id": self.key_id,
        }

    def text(self) -> str:
        return json.dumps(self.as_json(), indent=2) + "\n"

    @property
    def label(self) -> str:
        """How messages name it: ``the anchor of 2026-12-06 03:15:00 UTC``."""
        return f"anchor of {self.anchored_at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"


def _stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def take(reason: str) -> Anchor:
    """The chain's head now: the chain locked meanwhile, so that the count and the last
    event belong together."""
    with transaction.atomic():
        lock_chain()
        events = AuditEvent.objects.count()
        last = (
            AuditEvent.objects.order_by("-id").values("id", "seq", "digest", "key_id", "at").first()
        )
    if last is None:
        return Anchor(datetime.now(UTC), reason, 0, 0, None, None, "", "")
    return Anchor(
        anchored_at=datetime.now(UTC),
        reason=reason,
        events=events,
        seq=last["seq"] or 0,
        event_id=last["id"],
        event_at=last["at"],
        digest=last["digest"],
        key_id=last["key_id"],
    )


def chain_has_anchor_columns() -> bool:
    """Whether the audit table has the keyed chain's columns (an older schema, say in a
    backup made before ``migrate``, has not: then there is nothing to anchor)."""
    table = AuditEvent._meta.db_table
    with connection.cursor() as cursor:
        columns = {c.name for c in connection.introspection.get_table_description(cursor, table)}
    return {"seq", "key_id", "digest"} <= columns


def write(anchor: Anchor, path: Path) -> Path:
    """Write ``anchor`` to ``path`` whole or not at all (a temporary file, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".anchor-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(anchor.text())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def anchor_dir() -> Path:
    return Path(settings.SEWER_USE_AUDIT_ANCHOR_DIR)


def publish(anchor: Anchor, directory: Path | None = None) -> Path:
    """Write ``anchor`` into the anchor directory (a file named by its UTC time, and
    ``latest.json``) and log it; returns the dated file."""
    directory = directory or anchor_dir()
    name = anchor.anchored_at.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%fZ") + ".json"
    path = write(anchor, directory / name)
    write(anchor, directory / LATEST)
    log.info(
        "audit anchor (%s): %d event(s), last seq %d, event #%s, digest %s, key %s -> %s",
        anchor.reason,
        anchor.events,
        anchor.seq,
        anchor.event_id if anchor.event_id is not None else "-",
        anchor.digest or "-",
        anchor.key_id or "-",
        path,
        extra={"audit_anchor": anchor.as_json(), "anchor_file": str(path)},
    )
    return path


def _field(data: dict[str, Any], name: str, kinds: tuple[type, ...], where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise AnchorError(f"{where}: field {name!r} is missing or not the right kind")
    return value


def _time(value: str, name: str, where: str) -> datetime:
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise AnchorError(f"{where}: field {name!r} is not a time: {value[:40]!r}") from None
    if at.tzinfo is None:
        raise AnchorError(f"{where}: field {name!r} has no time zone")
    return at


def parse(text: str, where: str) -> Anchor:
    """The anchor in ``text`` (the file ``where``), every field checked (else AnchorError)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise AnchorError(f"{where}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AnchorError(f"{where}: not an audit anchor (no format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise AnchorError(f"{where}: anchor version {data.get('version')!r} unknown")
    events = _field(data, "events", (int,), where)
    seq = _field(data, "seq", (int,), where)
    digest = _field(data, "digest", (str,), where)
    key_id = _field(data, "key_id", (str,), where)
    event_id = data.get("event_id")
    event_at = data.get("event_at")
    if events < 0 or seq < 0 or (events == 0 and seq != 0):
        raise AnchorError(f"{where}: fields 'events' and 'seq' do not fit together")
    if events:
        if not isinstance(event_id, int) or isinstance(event_id, bool):
            raise AnchorError(f"{where}: field 'event_id' is missing or not a number")
        if not _HEX64.match(digest):
            raise AnchorError(f"{where}: field 'digest' is not 64 hexadecimal digits")
        if not isinstance(event_at, str):
            raise AnchorError(f"{where}: field 'event_at' is missing")
    return Anchor(
        anchored_at=_time(_field(data, "anchored_at", (str,), where), "anchored_at", where),
        reason=str(data.get("reason", "")),
        events=events,
        seq=seq,
        event_id=event_id if events else None,
        event_at=_time(str(event_at), "event_at", where) if events else None,
        digest=digest,
        key_id=key_id,
        source=where,
    )


def read(path: Path) -> Anchor:
    """The anchor file ``path`` (AnchorError when it cannot be read or is not an anchor)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise AnchorError(f"{path}: cannot be read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise AnchorError(f"{path}: not an audit anchor (not UTF-8 text)") from None
    return parse(text, str(path))


def stored(directory: Path | None = None) -> list[Anchor]:
    """Every anchor in the anchor directory (its ``*.json`` files, not its subdirectories),
    oldest first; the same anchor twice (``latest.json``) once."""
    directory = directory or anchor_dir()
    if not directory.is_dir():
        return []
    found: dict[tuple[Any, ...], Anchor] = {}
    for path in sorted(directory.glob("*.json")):
        anchor = read(path)
        key = (anchor.anchored_at, anchor.seq, anchor.digest, anchor.events)
        if key not in found or path.name != LATEST:
            found[key] = anchor
    return sorted(found.values(), key=lambda a: (a.anchored_at, a.seq))


@dataclass(frozen=True)
class Comparison:
    """The chain against anchors: the latest of them, the events now, what does not agree."""

    latest: Anchor | None
    anchors: int
    events_now: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.latest is None:
            return "no anchor to compare with"
        more = f" (and {self.anchors - 1} earlier anchor(s))" if self.anchors > 1 else ""
        return (
            f"against the {self.latest.label}{more}: {self.latest.events} event(s) then, "
            f"{self.events_now} now"
        )


def _problems(anchor: Anchor, events_now: int, found: dict[int, tuple[int, str]]) -> list[str]:
    where = f"the {anchor.label}"
    if anchor.source:
        where += f" ({anchor.source})"
    out = []
    if anchor.events and events_now == 0:
        out.append(
            f"the audit table is EMPTY, but {where} counted {anchor.events} event(s): "
            "it was emptied (truncated)"
        )
        return out
    if events_now < anchor.events:
        out.append(
            f"{events_now} event(s) now, FEWER than the {anchor.events} {where} counted: "
            "events were removed"
        )
    if anchor.seq:
        here = found.get(anchor.seq)
        if here is None:
            out.append(
                f"the anchored event (sequence number {anchor.seq}, #{anchor.event_id}) of "
                f"{where} is MISSING: the chain was cut before it"
            )
        elif here[1] != anchor.digest:
            out.append(
                f"the anchored event (sequence number {anchor.seq}) has ANOTHER DIGEST than "
                f"{where} recorded: the chain up to it was changed and re-hashed"
            )
        elif here[0] != anchor.event_id:
            out.append(
                f"the anchored event (sequence number {anchor.seq}) is now event #{here[0]}, "
                f"{where} recorded #{anchor.event_id}: the events were written again"
            )
    return out


def compare(anchors: list[Anchor]) -> Comparison:
    """The chain now against ``anchors`` (each checked; see the module)."""
    events_now = AuditEvent.objects.count()
    wanted = sorted({a.seq for a in anchors if a.seq})
    found: dict[int, tuple[int, str]] = {}
    for start in range(0, len(wanted), 500):
        rows = AuditEvent.objects.filter(seq__in=wanted[start : start + 500]).order_by("id")
        for seq, pk, digest in rows.values_list("seq", "id", "digest"):
            if seq is not None:
                found.setdefault(seq, (pk, digest))
    problems: list[str] = []
    for anchor in sorted(anchors, key=lambda a: (a.anchored_at, a.seq), reverse=True):
        problems += _problems(anchor, events_now, found)
    latest = max(anchors, key=lambda a: (a.anchored_at, a.seq)) if anchors else None
    return Comparison(latest, len(anchors), events_now, tuple(problems))
