"""``sewer-use network-check NETWORK`` — validate a sewer network file and summarise it.

    sewer-use network-check NETWORK.geojson [--crs CRS] [--svg FILE] [--format table|json]
    sewer-use network-check DIRECTORY        # manholes.csv, pipes.csv[, connections.csv]

NETWORK is a GeoJSON FeatureCollection of manholes, pipes and connections (the contract
of sewer_rules.network.geojson), or a directory holding the CSV form. --crs gives
the CRS of CSV coordinates or of a GeoJSON file without a "crs" member (default WGS 84
longitude/latitude): EPSG:4326, EPSG:2263, urn:ogc:def:crs:EPSG::32115, planar:m|ft|ftUS ...
--svg writes a drawing of the network.

Every error is listed, each naming the feature (its index in the file, or CSV line, and id)
and the field; nothing is imported unless there are none.

Exit status: 0 valid (warnings may be listed); 1 errors found; 2 an unusable file (not JSON,
not a FeatureCollection, an unknown CRS, a CSV without its required columns).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json, table

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.network import Network


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "network-check",
        help="validate a sewer network (GeoJSON or CSV) and summarise it",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("network", metavar="NETWORK", help="a .geojson file or a directory of CSVs")
    p.add_argument("--crs", help="CRS of CSV coordinates / of a GeoJSON without a crs member")
    p.add_argument("--svg", metavar="FILE", help="also write the network drawn as SVG")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


def load(path_text: str, crs_text: str | None) -> Network:
    """Read a network file or CSV directory (raises NetworkError / UsageError)."""
    from sewer_rules.network import NetworkFormatError, load_csv_dir, load_geojson, parse_crs
    from sewer_rules.network.geo import CRSError

    path = Path(path_text)
    try:
        crs = parse_crs(crs_text) if crs_text else None
        if path.is_dir():
            return load_csv_dir(path, crs=crs)
        if not path.is_file():
            raise UsageError(f"{path}: no such file or directory")
        return load_geojson(path, default_crs=crs)
    except (NetworkFormatError, CRSError) as e:
        raise UsageError(f"{path}: {e}") from None


def run(args: argparse.Namespace) -> int:
    from sewer_rules.network import NetworkError, render_svg

    try:
        network = load(args.network, args.crs)
    except NetworkError as e:
        return _report(args, None, list(e.issues))
    if args.svg:
        try:
            Path(args.svg).write_text(render_svg(network), encoding="utf-8")
        except OSError as e:
            raise UsageError(f"{args.svg}: cannot write: {e.strerror}") from None
    return _report(args, network, [])


def _report(args: argparse.Namespace, network: Network | None, errors: list[Any]) -> int:
    warnings = list(network.warnings) if network is not None else []
    if args.format == "json":
        dump_json(
            {
                "network": args.network,
                "valid": network is not None,
                "errors": [e.as_dict() for e in errors],
                "warnings": [w.as_dict() for w in warnings],
                "summary": network.summary() if network is not None else None,
            },
            sys.stdout,
        )
        return EXIT_OK if network is not None else EXIT_FOUND
    lines = [f"Sewer network {args.network}"]
    if network is None:
        lines.append(
            f"INVALID: {len(errors)} error{'s' if len(errors) != 1 else ''}; nothing imported"
        )
        lines.append("")
        lines.append(
            table(
                ("where", "field", "error"),
                [(e.location, e.field, e.message) for e in errors],
            )
        )
        print("\n".join(lines))
        return EXIT_FOUND
    s = network.summary()
    crs = s["crs"]
    lines += [
        "Valid.",
        f"Coordinates: {crs['label']} ({crs['name']}); lengths: {crs['lengths']}",
        f"Manholes: {s['manholes']['total']} ({s['manholes']['public']} public, "
        f"{s['manholes']['private']} private)",
        f"Pipes: {s['pipes']['total']} ({s['pipes']['public']} public, {s['pipes']['private']} "
        f"private), {s['pipes']['length_m']:,.2f} m in all, {s['pipes']['public_length_m']:,.2f} m "
        "public",
        f"Connections: {s['connections']} of {s['parcels']} parcel(s)",
        f"Outlets: {', '.join(s['outlets']) or 'none'}",
        "Flow: "
        + (
            "a tree (one pipe leaves each manhole)"
            if s["tree"]
            else "splits at " + ", ".join(s["manholes_with_several_pipes_leaving"])
        ),
    ]
    if warnings:
        lines += ["", f"{len(warnings)} warning(s):"]
        lines.append(
            table(
                ("where", "field", "warning"), [(w.location, w.field, w.message) for w in warnings]
            )
        )
    if args.svg:
        lines.append(f"Drawing written to {args.svg}")
    print("\n".join(lines))
    return EXIT_OK
