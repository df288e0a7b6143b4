"""What an import (:mod:`.import_all`) checks before it touches anything, each refusal
naming what is wrong: every file of the export is there with the SHA-256 the manifest gives it;
the export was made at this installation's schema (the same applied migrations); this
installation is empty (a table it filled itself by its migrations may hold rows, if they are
the export's own); the audit events were signed with an audit key this installation has.
Apart from :mod:`.import_all` (which loads the rows and files) because these only read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models

from .audit import keys
from .backup import applied_migrations, sha256_of
from .export_format import FORMAT, MANIFEST, VERSION
from .export_tables import (
    INSTALLATION,
    Table,
    export_tables,
    json_value,
    kind_of,
    label_of,
    left_out_tables,
)

#: A table this installation filled itself is compared with the export's up to this many rows.
SEEDED_AT_MOST = 1000


class ImportRefused(Exception):
    """An export that cannot be imported here, with the reason (nothing was changed)."""


def read_manifest(root: Path) -> tuple[dict[str, Any], str]:
    path = root / MANIFEST
    if not path.is_file():
        raise ImportRefused(f"{path}: missing — not an export of sewer-use, or an incomplete one")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ImportRefused(f"{path}: damaged ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ImportRefused(f"{path}: not a {FORMAT} manifest")
    if manifest.get("version") != VERSION:
        raise ImportRefused(f"{path}: export format version {manifest.get('version')!r} unknown")
    for key in ("sha256", "tables", "migrations", "audit"):
        if key not in manifest:
            raise ImportRefused(f"{path}: damaged (no {key!r})")
    return manifest, sha256_of(path)


def inside(root: Path, name: str) -> Path:
    file = (root / name).resolve()
    if root.resolve() not in file.parents:
        raise ImportRefused(f"{MANIFEST}: damaged (file {name!r} lies outside the export)")
    return file


def check_files(root: Path, manifest: dict[str, Any]) -> None:
    """Every file the manifest lists is there with its SHA-256 (else ImportRefused, naming it)."""
    hashes = manifest["sha256"]
    if not isinstance(hashes, dict):
        raise ImportRefused(f"{MANIFEST}: damaged ('sha256' is not a table of files)")
    for name, digest in sorted(hashes.items()):
        file = inside(root, name)
        if not file.is_file():
            raise ImportRefused(f"{name}: missing from the export (incomplete export)")
        if sha256_of(file) != digest:
            raise ImportRefused(
                f"{name}: damaged — its SHA-256 differs from the manifest's (the file was "
                "changed after the export)"
            )


def check_schema(manifest: dict[str, Any]) -> None:
    """The export's applied migrations are this installation's (else ImportRefused)."""
    theirs = {(a, n) for a, names in manifest["migrations"].items() for n in names}
    ours = {(a, n) for a, names in applied_migrations().items() for n in names}
    if theirs == ours:
        return
    version = manifest.get("software", {}).get("version", "?")
    lacking = sorted(f"{a}.{n}" for a, n in theirs - ours)
    extra = sorted(f"{a}.{n}" for a, n in ours - theirs)
    parts = []
    if lacking:
        parts.append(
            f"not applied here: {', '.join(lacking[:5])}{' ...' if len(lacking) > 5 else ''}"
        )
    if extra:
        parts.append(
            f"applied here, not in the export: {', '.join(extra[:5])}"
            f"{' ...' if len(extra) > 5 else ''}"
        )
    raise ImportRefused(
        "the export was made at another schema than this installation's ("
        + "; ".join(parts)
        + f"): import it into sewer-use {version} with its migrations applied "
        "(`sewer-use manage migrate`), then upgrade that installation"
    )


def _model(label: str) -> type[models.Model] | None:
    found = {label_of(m): m for m in apps.get_models(include_auto_created=True)}
    return found.get(label)


def _comparable(kind: str, value: Any) -> Any:
    """A value of this installation as the export writes it (bytes: their SHA-256)."""
    if kind == "bytes":
        return hashlib.sha256(bytes(value)).hexdigest() if value else value
    return json_value(value)


def _same_rows(root: Path, table: Table, entry: dict[str, Any] | None) -> set[Any] | None:
    """The primary keys of the rows this installation holds in ``table`` when every one of
    them is in the export, identical (a migration's seeds); None otherwise."""
    manager = table.model._base_manager
    if entry is None or manager.count() > SEEDED_AT_MOST:
        return None
    kinds = [kind_of(f) for f in table.columns]
    pk_name = str(table.model._meta.pk.attname)
    ours: dict[Any, dict[str, Any]] = {}
    for raw in manager.order_by("pk").values_list(*table.names):
        row = {n: _comparable(k, v) for n, k, v in zip(table.names, kinds, raw, strict=True)}
        ours[row[pk_name]] = row
    found: set[Any] = set()
    for _, row in json_rows(inside(root, str(entry["json"]))):
        pk = row.get(pk_name)
        if pk not in ours:
            continue
        theirs = {
            n: (sha256_of(inside(root, v)) if k == "bytes" and v else v)
            for n, k, v in zip(table.names, kinds, (row.get(n) for n in table.names), strict=True)
        }
        if theirs != ours[pk]:
            return None
        found.add(pk)
    return found if found == set(ours) else None


def check_empty(root: Path, entries: dict[str, dict[str, Any]]) -> dict[str, set[Any]]:
    """Refuse an installation holding a record (naming its table) or a stored file. Rows
    it filled itself (a migration's), identical in the export, are allowed: returned, by
    table, to be kept rather than inserted again."""
    full: list[str] = []
    seeded: dict[str, set[Any]] = {}
    for table in export_tables():
        if table.label in INSTALLATION or not table.model._base_manager.exists():
            continue
        same = _same_rows(root, table, entries.get(table.label))
        if same is None:
            full.append(table.db_table)
        else:
            seeded[table.label] = same
    for label, db_table, _ in left_out_tables():
        model = _model(label)
        if model is not None and model._base_manager.exists():
            full.append(db_table)
    if full:
        shown = ", ".join(full[:5]) + (" ..." if len(full) > 5 else "")
        raise ImportRefused(
            f"this installation is not empty: {shown} hold(s) records. import-all loads into "
            "an empty installation only (a new database, migrated: `sewer-use manage "
            "migrate`), never into one in use"
        )
    media = Path(settings.MEDIA_ROOT)
    if media.is_dir() and any(p.is_file() for p in media.rglob("*")):
        raise ImportRefused(
            f"this installation is not empty: {media} holds stored files. import-all loads "
            "into an empty installation only"
        )
    return seeded


def check_keys(manifest: dict[str, Any]) -> None:
    """The audit keys that signed the export's events are this installation's."""
    used = [str(k) for k in manifest["audit"].get("keys_used", [])]
    ring = keys()
    lacking = [k for k in used if ring.get(k) is None]
    if lacking:
        raise ImportRefused(
            f"the export's audit events are signed with the audit key(s) {', '.join(lacking)}, "
            f"which this installation does not have ({ring.source} holds "
            f"{', '.join(ring.ids)}). The key is a secret and never in an export: give this "
            "installation the old installation's key file (SEWER_USE_AUDIT_KEY_FILE) or "
            "SEWER_USE_AUDIT_KEY, then import again"
        )


def json_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of an exported JSON table, one object a line (see :mod:`.export_all`)."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if text in ("[", "]", ""):
                continue
            try:
                row = json.loads(text.removesuffix(","))
            except json.JSONDecodeError as e:
                raise ImportRefused(f"{path.name}, line {number}: not a JSON row ({e})") from None
            if not isinstance(row, dict):
                raise ImportRefused(f"{path.name}, line {number}: not a JSON object")
            yield number, row
