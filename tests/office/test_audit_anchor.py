"""The keyed audit chain and its anchors outside the database (SQLite and PostgreSQL).

An attacker here has the whole database — on PostgreSQL the table owner's way round the
triggers (``session_replication_role = replica``) — but not the audit key, nor the anchor
files, the log or the Superintendent's mailbox. They delete the newest events, change an event
and re-hash the chain after it (with a guessed key, or in the old unkeyed form), or empty the
table: ``sewer-use verify-audit`` fails on each, saying what, against the anchor.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.core import mail as django_mail
from django.db import IntegrityError, connection, transaction

from sewer_cli import cmd_anchor_audit, cmd_verify_audit
from sewer_cli.main import main
from sewer_office.accounts.roles import SUPERINTENDENT
from sewer_office.accounts.services import create_user
from sewer_office.core import anchor as anchors
from sewer_office.core import audit, audit_keys, backup
from sewer_office.core.audit_keys import AuditKey, KeyRing
from sewer_office.core.chain import (
    GENESIS,
    HASHED_FIELDS,
    event_hash,
    keyed_batch_hasher,
    keyed_hash,
)
from sewer_office.core.models import AuditEvent
from sewer_office.mail.models import SentMessage

from .factories import Town

KEY = AuditKey("2026-12-01", b"the-test-key-of-the-audit-chain-0123456789")
NEWER = AuditKey("2026-12-06-2", b"a-newer-test-key-after-rotation-9876543210")
GUESSED = AuditKey(KEY.key_id, b"what-an-attacker-without-the-key-would-use")


@pytest.fixture(autouse=True)
def anchor_dir(settings: Any, tmp_path: Path, monkeypatch: Any) -> Path:
    """A known key (set before the town's events are written) and a fresh anchor directory;
    the commands run in this process, on pytest's Django (their set-up would configure the
    logging anew, and drop the handlers the tests read)."""
    for command in (cmd_anchor_audit, cmd_verify_audit):
        monkeypatch.setattr(command, "_setup", lambda: settings)
    settings.SEWER_USE_AUDIT_KEYS = KeyRing((KEY,), "test")
    settings.SEWER_USE_AUDIT_ANCHOR_DIR = tmp_path / "anchors"
    return tmp_path / "anchors"


@contextmanager
def below_the_application() -> Iterator[None]:
    """What the table's owner can do: on PostgreSQL, with the row triggers off."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = DEFAULT")


def _sql(statement: str, params: list[Any] | None = None) -> None:
    with below_the_application(), connection.cursor() as cursor:
        cursor.execute(statement, params or [])


def _events(town: Town, n: int) -> list[AuditEvent]:
    user = town.users["clerk"]
    for i in range(n):
        audit.record(actor=user, action=f"test_{i}", obj=user, after={"i": i, "x": "1.50"})
    return list(AuditEvent.objects.order_by("id"))


def _rehash(from_id: int, *, unkeyed: bool) -> None:
    """The attacker re-links every event from ``from_id`` on: with a guessed key, or in the
    old unkeyed form (the project's own v1 function)."""
    fields = ("id", "seq", "key_id", *HASHED_FIELDS)
    rows = AuditEvent.objects.filter(id__gte=from_id).order_by("id").values(*fields)
    before = AuditEvent.objects.filter(id__lt=from_id).order_by("-id")
    prev = before.values_list("digest", flat=True).first() or GENESIS
    for row in list(rows):
        if unkeyed:
            digest, key_id = event_hash(row, prev), ""
        else:
            digest, key_id = keyed_hash(row, prev, row["seq"], GUESSED), row["key_id"]
        _sql(
            "UPDATE core_auditevent SET prev_hash = %s, digest = %s, key_id = %s WHERE id = %s",
            [prev, digest, key_id, row["id"]],
        )
        prev = digest


class _Caught(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def audit_log() -> Iterator[list[logging.LogRecord]]:
    """The records of the logger ``sewer_office.audit``."""
    caught = _Caught()
    logger = logging.getLogger("sewer_office.audit")
    logger.addHandler(caught)
    try:
        yield caught.records
    finally:
        logger.removeHandler(caught)


def _cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- the keyed hash ----------------------------------------------------------------------------


COMMON = {
    "at": datetime(2026, 12, 3, 16, 0, 0, 123456, tzinfo=UTC),
    "actor_id": 3,
    "actor_name": "clerk",
    "action": "approve_result",
    "content_type_id": 12,
    "after": {"state": "approved", "n": 1e30, "list": [True, None, "1"]},
    "citation": "§ 196-19 I",
}


def test_keyed_digests_differ_from_unkeyed_and_between_keys() -> None:
    values = {**COMMON, "object_id": "7", "object_repr": "result #7"}
    prev = "ab" * 32
    keyed = keyed_hash(values, prev, 5, KEY)
    assert len(keyed) == 64 and keyed != event_hash(values, prev)
    assert keyed != keyed_hash(values, prev, 5, GUESSED)  # same key id, another secret
    assert keyed != keyed_hash(values, prev, 6, KEY)  # the sequence number is hashed
    assert keyed != keyed_hash(values, prev, 5, AuditKey("2026-12-02", KEY.secret))  # key id too


@pytest.mark.parametrize(
    ("object_id", "object_repr"),
    [("1", "x"), ("123456", "laboratory result #123456"), ('a"b\\', "é\u2028\x00 ☃")],
)
def test_keyed_batch_hasher_gives_the_keyed_hash(object_id: str, object_repr: str) -> None:
    values = {**COMMON, "object_id": object_id, "object_repr": object_repr}
    prev = "cd" * 32
    digest = keyed_batch_hasher(COMMON, KEY)
    assert digest(object_id, object_repr, prev, 41) == keyed_hash(values, prev, 41, KEY)
    assert digest(object_id + "x", object_repr, prev, 41) != keyed_hash(values, prev, 41, KEY)


# --- keys ------------------------------------------------------------------------------------


def test_key_file_rotation_and_refusals(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    first = audit_keys.append_key(path, date(2026, 12, 6))
    second = audit_keys.append_key(path, date(2026, 12, 6))
    assert (first.key_id, second.key_id) == ("2026-12-06", "2026-12-06-2")
    assert path.stat().st_mode & 0o777 == 0o600
    ring = audit_keys.load(key_file=str(path), env_key="", data_dir=tmp_path, production=True)
    assert ring.ids == ("2026-12-06", "2026-12-06-2") and ring.current == second
    assert second.secret.decode() not in repr(ring)

    env = audit_keys.load(
        key_file="",
        env_key=f"2026-01-02:{'s' * 40},2026-02-03:{'t' * 40}",
        data_dir=tmp_path,
        production=True,
    )
    assert env.current.key_id == "2026-02-03" and env.get("2026-01-02") is not None

    def refused(**kwargs: Any) -> str:
        base: dict[str, Any] = {"key_file": "", "env_key": "", "production": True}
        base["data_dir"] = tmp_path / "d"
        with pytest.raises(audit_keys.AuditKeyError) as e:
            audit_keys.load(**(base | kwargs))
        return str(e.value)

    assert "SEWER_USE_AUDIT_KEY_FILE" in refused() and "SEWER_USE_AUDIT_KEY " in refused()
    assert "shorter than 32" in refused(env_key="2026-01-02:short")
    shipped = "2026-12-06:change-me-to-64-random-characters-from-sewer-use-audit-key-new"
    assert "placeholder" in refused(env_key=shipped)
    assert "not a date" in refused(env_key=f"current:{'s' * 40}")
    assert "real date" in refused(env_key=f"2026-13-40:{'s' * 40}")
    assert "appears twice" in refused(env_key=f"2026-01-02:{'s' * 40},2026-01-02:{'t' * 40}")
    assert "cannot be read" in refused(key_file=str(tmp_path / "missing"))
    assert "not both" in refused(key_file=str(path), env_key=f"2026-01-02:{'s' * 40}")
    # a laptop: one key file generated in the data directory, once, mode 0600
    laptop = audit_keys.load(key_file="", env_key="", data_dir=tmp_path / "d", production=False)
    again = audit_keys.load(key_file="", env_key="", data_dir=tmp_path / "d", production=False)
    assert laptop == again and laptop.path == tmp_path / "d" / audit_keys.LAPTOP_FILE
    assert laptop.path.stat().st_mode & 0o777 == 0o600


def test_new_events_are_keyed_numbered_and_verify_after_rotation(town: Town, settings: Any) -> None:
    events = _events(town, 3)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert {e.key_id for e in events} == {KEY.key_id}
    assert audit.verify_chain() == (len(events), None)

    # rotation: a newer key signs from now on; the older one still verifies its events
    settings.SEWER_USE_AUDIT_KEYS = KeyRing((KEY, NEWER), "test")
    user = town.users["clerk"]
    audit.record(actor=user, action="after_rotation", obj=user)
    audit.record_many(actor=user, action="many", model=type(user), ids=[1, 2, 3], after={})
    latest = list(AuditEvent.objects.order_by("-id")[:4])
    assert {e.key_id for e in latest} == {NEWER.key_id}
    assert audit.verify_chain() == (len(events) + 4, None)

    # without the older key, its events cannot be checked: said, with the key's id
    settings.SEWER_USE_AUDIT_KEYS = KeyRing((NEWER,), "test")
    checked, broken = audit.verify_chain()
    assert broken is not None and checked == 1
    assert "audit key '2026-12-01'" in broken.problem and "does not have" in broken.problem


# --- anchors: written by anchor-audit and by every backup ---------------------------------------


def test_anchor_audit_writes_logs_and_mails_the_anchor(
    town: Town, capsys: Any, audit_log: list[logging.LogRecord], anchor_dir: Path
) -> None:
    chief = town.users["superintendent"]
    type(chief).objects.filter(pk=chief.pk).update(email="chief@example.org")
    create_user("deputy", "x-Strong-pass-1", (SUPERINTENDENT,))  # no address: counted
    events = _events(town, 2)
    django_mail.outbox = []
    code, out, _ = _cli(capsys, "anchor-audit")
    assert code == 0, out
    assert "first" in out and "e-mailed to 1 Superintendent(s)" in out and "deputy" in out

    latest = json.loads((anchor_dir / anchors.LATEST).read_text())
    dated = [p for p in anchor_dir.glob("*.json") if p.name != anchors.LATEST]
    assert len(dated) == 1 and json.loads(dated[0].read_text()) == latest
    head = events[-1]
    assert latest["events"] == len(events) and latest["seq"] == head.seq
    assert (latest["event_id"], latest["digest"], latest["key_id"]) == (
        head.id,
        head.digest,
        KEY.key_id,
    )
    assert latest["reason"] == "anchor-audit"
    logged = [r for r in audit_log if r.levelno >= logging.INFO]
    assert len(logged) == 1
    assert head.digest in logged[0].getMessage()
    assert logged[0].audit_anchor["digest"] == head.digest  # type: ignore[attr-defined]

    (message,) = django_mail.outbox
    assert message.to == ["chief@example.org"] and head.digest in message.body
    sent = SentMessage.objects.get(topic="audit_anchor")
    assert sent.status == "sent" and sent.legal
    # the e-mailed JSON is an anchor verify-audit takes
    mailed = message.body[message.body.index("{") :]
    assert anchors.parse(mailed, "e-mail").digest == head.digest

    # the next run compares with this anchor (the message's own audit event came after it)
    code, out, _ = _cli(capsys, "anchor-audit", "--no-mail")
    assert code == 0 and f"{len(events)} event(s) then" in out


def test_backup_writes_the_anchor_into_the_backup_and_the_anchor_directory(
    town: Town,
    tmp_path: Path,
    monkeypatch: Any,
    anchor_dir: Path,
    audit_log: list[logging.LogRecord],
) -> None:
    events = _events(town, 2)
    # the dump itself is the backup tests' subject (tests/office/test_backup_restore.py)
    monkeypatch.setattr(backup, "_dump_database", lambda target: target.write_bytes(b"dump"))
    manifest = backup.backup(tmp_path / "backup")
    part = next(p for p in manifest["parts"] if p["kind"] == "anchor")
    assert part["name"] == anchors.BACKUP_NAME
    inside = anchors.read(tmp_path / "backup" / anchors.BACKUP_NAME)
    head = events[-1]
    assert (inside.seq, inside.digest, inside.events) == (head.seq, head.digest, len(events))
    assert inside.reason == "backup" and manifest["audit"]["head"] == inside.digest
    (dated,) = anchor_dir.glob("2*.json")
    assert anchors.read(anchor_dir / anchors.LATEST).as_json() == inside.as_json()
    assert anchors.read(dated).as_json() == inside.as_json()
    assert [r.levelno for r in audit_log] == [logging.INFO]
    assert inside.digest in audit_log[0].getMessage()
    assert backup.read_manifest(tmp_path / "backup")["parts"][-1]["kind"] == "anchor"


# --- verify-audit against the anchor ------------------------------------------------------------


def test_verify_without_an_anchor_warns_and_still_checks_the_chain(town: Town, capsys: Any) -> None:
    _events(town, 1)
    code, out, err = _cli(capsys, "verify-audit")
    assert code == 0 and out.startswith("OK:") and "no anchor" in err


def test_verify_fails_on_a_deleted_tail(town: Town, capsys: Any) -> None:
    events = _events(town, 4)
    anchors.publish(anchors.take("test"))
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 0 and f"{len(events)} event(s) then, {len(events)} now" in out
    cut = events[-2].id
    if connection.vendor == "postgresql":  # refused below the application...
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM core_auditevent WHERE id >= %s", [cut])
    _sql("DELETE FROM core_auditevent WHERE id >= %s", [cut])  # ...unless the triggers are off
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 1
    assert out.startswith("OK:")  # what is left still verifies: only the anchor shows the cut
    assert "FAILED against the anchor of" in out
    assert f"{len(events)} event(s) then, {len(events) - 2} now" in out
    assert "FEWER" in out and "MISSING" in out

    # and the daily anchor-audit refuses to bless the cut chain with a new anchor
    before = sorted(p.name for p in anchors.anchor_dir().iterdir())
    code, out, _ = _cli(capsys, "anchor-audit")
    assert code == 1 and "no anchor taken" in out
    assert sorted(p.name for p in anchors.anchor_dir().iterdir()) == before


@pytest.mark.parametrize("unkeyed", [False, True], ids=["guessed-key", "unkeyed-v1"])
def test_verify_fails_on_a_changed_event_rehashed_without_the_key(
    town: Town, capsys: Any, unkeyed: bool
) -> None:
    events = _events(town, 5)
    anchors.publish(anchors.take("test"))
    target = events[-3]
    _sql("UPDATE core_auditevent SET reason = 'edited' WHERE id = %s", [target.id])
    _rehash(target.id, unkeyed=unkeyed)
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 1
    assert f"BROKEN at audit event #{target.id}" in out
    why = "unkeyed hash after keyed events" if unkeyed else "does not match its keyed hash"
    assert why in out
    assert "ANOTHER DIGEST" in out  # the anchored head was re-hashed too


def test_an_unkeyed_rewrite_of_the_whole_chain_is_caught_by_the_anchor(
    town: Town, capsys: Any, tmp_path: Path
) -> None:
    """Everything rewritten in the old unkeyed form verifies as a chain: the anchor (here one
    kept from the e-mail) is what shows it."""
    events = _events(town, 3)
    kept = anchors.write(anchors.take("test"), tmp_path / "from-the-email.json")
    _sql("UPDATE core_auditevent SET reason = 'edited' WHERE id = %s", [events[1].id])
    _rehash(events[0].id, unkeyed=True)
    assert audit.verify_chain() == (len(events), None)
    code, out, _ = _cli(capsys, "verify-audit", "--anchor", str(kept))
    assert code == 1 and out.startswith("OK:") and "ANOTHER DIGEST" in out
    assert str(kept) in out


def test_verify_fails_on_an_emptied_table(town: Town, capsys: Any) -> None:
    events = _events(town, 2)
    anchors.publish(anchors.take("test"))
    _sql("DELETE FROM core_auditevent")  # TRUNCATE, as far as the rows go
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 1 and out.startswith("OK: 0 audit event(s)")
    assert "EMPTY" in out and "truncated" in out and f"counted {len(events)} event(s)" in out


def test_verify_fails_on_a_gap_and_on_an_unknown_key(town: Town, capsys: Any) -> None:
    events = _events(town, 4)
    # someone with the key removes an event and re-links the next: the numbers show the gap
    gone, nxt = events[-3], events[-2]
    _sql("DELETE FROM core_auditevent WHERE id = %s", [gone.id])
    row = AuditEvent.objects.filter(id=nxt.id).values("seq", *HASHED_FIELDS).get()
    relinked = keyed_hash(row, events[-4].digest, row["seq"], KEY)
    _sql(
        "UPDATE core_auditevent SET prev_hash = %s, digest = %s WHERE id = %s",
        [events[-4].digest, relinked, nxt.id],
    )
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 1 and f"#{nxt.id}" in out
    assert f"sequence number is {nxt.seq}, not {gone.seq}" in out

    _sql("UPDATE core_auditevent SET key_id = '2020-01-01' WHERE id = %s", [events[0].id])
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 1 and f"#{events[0].id}" in out and "'2020-01-01'" in out


def test_verify_refuses_an_unreadable_anchor_file(
    town: Town, capsys: Any, tmp_path: Path, anchor_dir: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sewer-use-audit-anchor", "version": 1, "events": "many"}')
    code, _, err = _cli(capsys, "verify-audit", "--anchor", str(bad))
    assert code == 2 and "'events'" in err
    # a damaged file in the anchor directory is a failure, not something to skip
    anchor_dir.mkdir(parents=True)
    (anchor_dir / "20261206T000000.000000Z.json").write_text("{not json")
    code, out, _ = _cli(capsys, "verify-audit")
    assert code == 1 and "damaged" in out


# --- the migration that numbers the events already stored --------------------------------------


@pytest.mark.django_db(transaction=True)
def test_migration_numbers_the_existing_events_in_id_order() -> None:
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("core", "0005_attachment_checked_type"), ("core", "0006_audit_keyed_chain")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old_apps = executor.loader.project_state([before]).apps
    event_model = old_apps.get_model("core", "AuditEvent")
    content_type = old_apps.get_model("contenttypes", "ContentType").objects.first()
    prev = GENESIS
    for n in range(3):
        values = {
            "at": datetime(2026, 1, 1 + n, tzinfo=UTC),
            "actor_name": "system",
            "action": f"old_{n}",
            "content_type_id": content_type.pk,
            "object_id": str(n),
            "object_repr": f"thing {n}",
            "after": {"n": n},
            **dict.fromkeys(("actor_id", "before"), None),
            **dict.fromkeys(("state_from", "state_to", "reason", "citation"), ""),
        }
        digest = event_hash(values, prev)
        event_model.objects.create(**values, prev_hash=prev, digest=digest)
        prev = digest
    try:
        MigrationExecutor(connection).migrate([after])
        rows = list(AuditEvent.objects.order_by("id").values_list("seq", "key_id"))
        assert rows == [(1, ""), (2, ""), (3, "")]
        assert audit.verify_chain() == (3, None)  # the old events verify as before, forever
    finally:
        # the later migrations back, for the tests that run after this one in this database
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())
