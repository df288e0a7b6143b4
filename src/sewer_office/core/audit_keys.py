"""The keys of the audit chain: the secret that signs new audit events, and the older ones that
still verify the events they signed (rotation).

A digest anyone can recompute proves nothing against someone who can rewrite the table: they
rewrite the events and recompute every digest after them. So new events are hashed with
HMAC-SHA256 under a key the database does not hold (:mod:`.chain`, form ``v2``), kept

- in a key file (``SEWER_USE_AUDIT_KEY_FILE``): one ``<key id> <secret>`` a line, the LAST
  line the current key, the lines before it the older keys (they verify older events; never
  delete one while events it signed exist) — ``sewer-use audit-key new`` appends one; or
- in the environment (``SEWER_USE_AUDIT_KEY``): ``<key id>:<secret>``, several separated by
  commas, the last the current one.

A key id is the date it was made, ``2026-12-06``, with an optional suffix (``2026-12-06-2``);
it is stored on each event, so that the verifier knows which key to use. On a laptop with
neither set, a key file is generated once in the data directory (mode 0600, like the secret
key); production refuses to start without a key, or with a secret shorter than
:data:`MIN_SECRET` characters.

No Django here: the settings read the keys at start (``settings.SEWER_USE_AUDIT_KEYS``, a
:class:`KeyRing`), and the command line appends keys without starting the office.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

FILE_VARIABLE = "SEWER_USE_AUDIT_KEY_FILE"
ENV_VARIABLE = "SEWER_USE_AUDIT_KEY"
#: The key file generated in the data directory of a laptop installation.
LAPTOP_FILE = "audit_keys"
#: The shortest secret production accepts (characters).
MIN_SECRET = 32
#: A key id: the date the key was made, then an optional suffix of letters and digits.
KEY_ID = re.compile(r"^(\d{4}-\d{2}-\d{2})((?:[-._][A-Za-z0-9]+)*)$")
KEY_ID_MAX = 40  # AuditEvent.key_id's max_length


class AuditKeyError(ValueError):
    """Keys that cannot be used, with the variable or file line at fault."""


@dataclass(frozen=True)
class AuditKey:
    """One key: its id (stored on the events it signs) and its secret (never printed)."""

    key_id: str
    secret: bytes = field(repr=False)


@dataclass(frozen=True)
class KeyRing:
    """The keys of an installation, oldest first: the last signs new events."""

    keys: tuple[AuditKey, ...]
    #: Where they come from, for messages: the variable, and the file when there is one.
    source: str
    path: Path | None = None
    _by_id: dict[str, AuditKey] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.keys:
            raise AuditKeyError(f"{self.source}: no audit key")
        object.__setattr__(self, "_by_id", {k.key_id: k for k in self.keys})

    @property
    def current(self) -> AuditKey:
        return self.keys[-1]

    def get(self, key_id: str) -> AuditKey | None:
        return self._by_id.get(key_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(k.key_id for k in self.keys)


def check_key_id(key_id: str, where: str) -> str:
    """``key_id`` if it is a key id (a real date, an optional suffix), else AuditKeyError."""
    match = KEY_ID.match(key_id)
    if not match or len(key_id) > KEY_ID_MAX:
        raise AuditKeyError(
            f"{where}: key id {key_id[:60]!r} is not a date like 2026-12-06 with an optional "
            f"suffix like -2 (at most {KEY_ID_MAX} characters)"
        )
    try:
        date.fromisoformat(match.group(1))
    except ValueError:
        raise AuditKeyError(f"{where}: key id {key_id!r} does not start with a real date") from None
    return key_id


def _key(key_id: str, secret: str, where: str) -> AuditKey:
    check_key_id(key_id, where)
    if not secret or any(c.isspace() for c in secret):
        raise AuditKeyError(f"{where}: key {key_id!r} has no secret, or a secret with spaces")
    return AuditKey(key_id, secret.encode("utf-8"))


def _unique(keys: list[AuditKey], where: str) -> tuple[AuditKey, ...]:
    seen: set[str] = set()
    for key in keys:
        if key.key_id in seen:
            raise AuditKeyError(f"{where}: key id {key.key_id!r} appears twice")
        seen.add(key.key_id)
    return tuple(keys)


def parse_key_file(text: str, where: str) -> tuple[AuditKey, ...]:
    """The keys of a key file's ``text``: ``<key id> <secret>`` lines; blank lines and lines
    starting with ``#`` are skipped."""
    keys = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key_id, _, secret = stripped.partition(" ")
        keys.append(_key(key_id, secret.strip(), f"{where}, line {number}"))
    return _unique(keys, where)


def parse_environment(value: str) -> tuple[AuditKey, ...]:
    """The keys of ``SEWER_USE_AUDIT_KEY``: ``<key id>:<secret>``, comma-separated."""
    keys = []
    for number, item in enumerate(value.split(","), start=1):
        if not item.strip():
            continue
        key_id, colon, secret = item.strip().partition(":")
        if not colon:
            raise AuditKeyError(
                f"{ENV_VARIABLE}: entry {number} is not <key id>:<secret> "
                "(e.g. 2026-12-06:<64 random characters>)"
            )
        keys.append(_key(key_id, secret, f"{ENV_VARIABLE}, entry {number}"))
    return _unique(keys, ENV_VARIABLE)


def new_secret() -> str:
    """A fresh secret: 64 URL-safe random characters (384 bits)."""
    return secrets.token_urlsafe(48)


def next_key_id(existing: tuple[str, ...], today: date) -> str:
    """Today's date as a key id, with a suffix (``-2``, ``-3``...) when taken already."""
    base = today.isoformat()
    if base not in existing:
        return base
    n = 2
    while f"{base}-{n}" in existing:
        n += 1
    return f"{base}-{n}"


def _write_new_file(path: Path, today: date) -> None:
    """Create ``path`` (mode 0600) holding one new key; nothing if it exists already."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return  # another process made it first: use that one
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(
            "# The audit chain's keys (docs/audit-chain.md): <key id> <secret>, the last current.\n"
            "# Never delete a line: it verifies the audit events its key signed.\n"
            f"{today.isoformat()} {new_secret()}\n"
        )
        handle.flush()
        os.fsync(handle.fileno())


def append_key(path: Path, today: date) -> AuditKey:
    """Append a fresh key, dated ``today``, to the key file ``path`` (created if missing, mode
    0600): it becomes the current key of the processes started after (rotation)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    existing = parse_key_file(text, str(path)) if text else ()
    key_id = next_key_id(tuple(k.key_id for k in existing), today)
    secret = new_secret()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        handle.write(("" if not text or text.endswith("\n") else "\n") + f"{key_id} {secret}\n")
        handle.flush()
        os.fsync(handle.fileno())
    return AuditKey(key_id, secret.encode("utf-8"))


def _strong(ring: KeyRing) -> KeyRing:
    for key in ring.keys:
        if b"change-me" in key.secret.lower():
            raise AuditKeyError(
                f"{ring.source}: audit key {key.key_id!r} is the placeholder of "
                "deploy/sewer-use.env (make one with `sewer-use audit-key new --print`)"
            )
        if len(key.secret) < MIN_SECRET:
            raise AuditKeyError(
                f"{ring.source}: the secret of audit key {key.key_id!r} is shorter than "
                f"{MIN_SECRET} characters (make one with `sewer-use audit-key new`)"
            )
    return ring


def load(*, key_file: str, env_key: str, data_dir: Path, production: bool) -> KeyRing:
    """The installation's keys from the key file or the environment (see the module).

    Raises AuditKeyError, naming the variable, when none is set in production, when both are
    set, or when the keys cannot be used.
    """
    key_file, env_key = key_file.strip(), env_key.strip()
    if key_file and env_key:
        raise AuditKeyError(f"set {FILE_VARIABLE} or {ENV_VARIABLE}, not both")
    if env_key:
        ring = KeyRing(parse_environment(env_key), ENV_VARIABLE)
    elif key_file:
        path = Path(key_file).expanduser().resolve()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise AuditKeyError(f"{FILE_VARIABLE}={path}: cannot be read ({e.strerror})") from None
        where = f"{FILE_VARIABLE}={path}"
        ring = KeyRing(parse_key_file(text, where), where, path)
    elif production:
        raise AuditKeyError(
            f"{FILE_VARIABLE} (a key file, see `sewer-use audit-key new`) or {ENV_VARIABLE} "
            f"must be set in production: the audit chain's key (docs/audit-chain.md)"
        )
    else:
        # Laptop mode: one key file per data directory, generated once, kept beside the database.
        path = data_dir / LAPTOP_FILE
        if not path.exists():
            _write_new_file(path, datetime.now(UTC).date())
        text = path.read_text(encoding="utf-8")
        ring = KeyRing(parse_key_file(text, str(path)), f"the key file {path}", path)
    return _strong(ring) if production else ring
