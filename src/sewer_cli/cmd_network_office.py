"""Office commands of the sewer network: ``import-network`` and ``trace``.

- ``sewer-use import-network NETWORK.geojson [--replace] [--as USERNAME]``: validate and store
  the network (all or nothing). Exit 0 stored, 1 refused (every error listed), 2 unusable file.
- ``sewer-use trace MANHOLE_ID [--format table|json] [--limit N]``: every facility and property
  upstream of a manhole of the active network, nearest first. Exit 2 for an unknown manhole or
  when no network was imported.

Django is imported inside the command functions only (as in :mod:`sewer_cli.cmd_office`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .cmd_office import NoSuchUser, _setup, office_user
from .output import table


def register(subparsers: Any) -> None:
    imp = subparsers.add_parser(
        "import-network", help="import the sewer network (GeoJSON) into the office"
    )
    imp.add_argument("path", metavar="NETWORK.geojson")
    imp.add_argument(
        "--replace", action="store_true", help="supersede the active network (kept as history)"
    )
    imp.add_argument(
        "--as",
        dest="username",
        default=None,
        help="record the import as this office user (superintendent or engineer)",
    )
    imp.set_defaults(func=run_import_network)

    tr = subparsers.add_parser(
        "trace", help="facilities and properties upstream of a manhole (office network)"
    )
    tr.add_argument("manhole", metavar="MANHOLE_ID")
    tr.add_argument("--format", choices=("table", "json"), default="table")
    tr.add_argument("--limit", type=int, default=None, help="at most N parcels (default all)")
    tr.set_defaults(func=run_trace)


def run_import_network(args: argparse.Namespace) -> int:
    try:
        text = Path(args.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"import-network: cannot read {args.path}: {e}", file=sys.stderr)
        return 2
    _setup()

    from sewer_office.core.errors import Forbidden
    from sewer_office.network import services as ns

    try:
        actor = office_user(args.username)
    except NoSuchUser as e:
        print(f"import-network: {e}", file=sys.stderr)
        return 2
    try:
        version = ns.import_network(
            text, actor, replace=args.replace, source_name=Path(args.path).name
        )
    except ns.NetworkUnusable as e:
        print(f"import-network: {e.message}", file=sys.stderr)
        return 2
    except ns.NetworkRefused as e:
        n = len(e.issues)
        print(f"import-network: refused, nothing stored ({n} error{'s' if n != 1 else ''}):")
        for issue in e.issues:
            print(f"  {issue}")
        return 1
    except Forbidden as e:
        print(f"import-network: {e.message}", file=sys.stderr)
        return 1
    replaced = f", superseding #{version.replaces_id}" if version.replaces_id else ""
    print(
        f"Stored network #{version.pk}: {version.manhole_count} manholes, "
        f"{version.pipe_count} pipes, {version.connection_count} connections{replaced}."
    )
    return 0


def run_trace(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.core.errors import Blocked
    from sewer_office.network.tracing import trace

    try:
        result = trace(args.manhole, limit=args.limit)
    except Blocked as e:
        print(f"trace: {e.message}", file=sys.stderr)
        return 2
    if args.format == "json":
        json.dump(result.as_dict(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    print(f"Upstream of {result.manhole}: {result.total} parcel(s)")
    rows = [
        (
            entry["kind"],
            entry["id"],
            entry["name"],
            f"{entry['network_distance_m']:.2f}",
            _recent(entry),
            " > ".join(entry["via_manholes"]),
        )
        for entry in result.upstream
    ]
    print(table(["kind", "id", "name", "distance_m", "recent", "via"], rows))
    return 0


def _recent(entry: dict[str, Any]) -> str:
    """A facility's exceedances and slugs of the last 90 days, in a few characters."""
    if entry["kind"] != "facility":
        return ""
    exceedances, slugs = entry.get("recent_exceedances", 0), entry.get("recent_slugs", 0)
    if not exceedances and not slugs:
        return "-"
    return f"{exceedances} exceedance(s), {slugs} slug(s)"
