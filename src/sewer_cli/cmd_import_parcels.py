"""Office commands of the county's parcel roll: ``import-parcels`` and ``import-districts``.

- ``sewer-use import-parcels ROLL [--dry-run] [--format table|json] [--crs EPSG:NNNN]
  [--roll-date YYYY-MM-DD] [--as USERNAME]``: read the roll (GeoJSON, GeoPackage, zipped
  Shapefile, CSV with WKT), classify every row against the register (new, changed, unchanged,
  refused, held for the clerk's review) and apply it in one transaction — or nothing.
- ``sewer-use import-districts DISTRICTS [--dry-run] [--format table|json] [--crs EPSG:NNNN]
  [--as USERNAME]``: the sewer districts' boundaries, then each parcel's service area.

Exit 0 applied (with ``--dry-run``: would be applied), 1 rows refused or the same file already
applied (nothing applied; every refused row named: file, row, field), 2 an unusable file or
an unknown user (the message on standard error). See docs/parcels.md.

Django and the readers are imported inside the command functions only (start-up time).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from .cmd_office import NoSuchUser, _setup, office_user
from .output import table


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _common(p: Any) -> None:
    p.add_argument("--dry-run", action="store_true", help="classify every row, apply nothing")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument(
        "--crs",
        default=None,
        help="the coordinate system of a CSV file's WKT geometry (e.g. EPSG:2260)",
    )
    p.add_argument(
        "--as",
        dest="username",
        default=None,
        help="record the import as this office user (default: the office itself)",
    )


def register(subparsers: Any) -> None:
    parcels = subparsers.add_parser(
        "import-parcels", help="import the county's tax parcel roll into the office"
    )
    parcels.add_argument("path", metavar="ROLL")
    _common(parcels)
    parcels.add_argument(
        "--roll-date",
        type=_day,
        default=None,
        help="the roll's date, on which its owner changes take effect (default: today)",
    )
    parcels.set_defaults(func=run_parcels)

    districts = subparsers.add_parser(
        "import-districts", help="import the sewer districts' boundaries into the office"
    )
    districts.add_argument("path", metavar="DISTRICTS")
    _common(districts)
    districts.set_defaults(func=run_districts)


def _emit(args: argparse.Namespace, report: dict[str, Any], lines: list[str]) -> None:
    if args.format == "json":
        json.dump(report, sys.stdout, ensure_ascii=False, default=str)
        sys.stdout.write("\n")
        return
    for line in lines:
        print(line)


def run_parcels(args: argparse.Namespace) -> int:
    path = Path(args.path)
    _setup()
    from django.utils import timezone

    from sewer_io.parcels import ParcelFileError, read_parcels
    from sewer_office.core.errors import Blocked, Forbidden
    from sewer_office.parcels import services

    try:
        actor = office_user(args.username)
        services.check_importer(actor)
    except NoSuchUser as e:
        print(f"import-parcels: {e}", file=sys.stderr)
        return 2
    except Forbidden as e:
        print(f"import-parcels: {e}", file=sys.stderr)
        return 1
    try:
        read = read_parcels(path, name=path.name, crs=args.crs)
    except ParcelFileError as e:
        print(f"import-parcels: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"import-parcels: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 2
    preview = services.preview(read)
    report = {**preview.as_dict(), "dry_run": args.dry_run, "applied": False}
    roll_date = args.roll_date or timezone.localdate()
    status = 0
    message = ""
    if preview.previous is not None:
        message, status = preview.already_imported_message(), 1
    elif preview.refusals:
        status = 1
    elif not args.dry_run:
        try:
            imp = services.apply(preview, actor, roll_date)
        except Blocked as e:
            message, status = e.message, 1
        else:
            report.update(applied=True, import_id=imp.pk, roll_date=roll_date.isoformat())
    if message:
        report["message"] = message
    _emit(args, report, _parcel_lines(preview, report, message))
    return status


def _parcel_lines(preview: Any, report: dict[str, Any], message: str) -> list[str]:
    name = preview.source
    lines = [
        f"{name}: {preview.file.rows} row(s), coordinates {preview.file.crs or 'none'}; "
        f"{report['new']} new, {report['changed']} changed, {report['unchanged']} unchanged, "
        f"{report['refused']} refused, {report['review']} held for review; "
        f"{report['owner_changes']} owner change(s), {report['persons_new']} new person(s), "
        f"{report['splits']} split(s), {report['merges']} merge(s)"
    ]
    if message:
        lines.append(message)
    if preview.refusals:
        n = len(preview.refusals)
        lines.append(f"{name}: refused, nothing applied ({n} error{'s' if n != 1 else ''}):")
        lines += preview.report_lines()
    elif report.get("applied"):
        lines.append(f"{name}: applied as import #{report['import_id']} ({report['roll_date']})")
    elif report["dry_run"] and not message:
        lines.append(f"{name}: would be applied (dry run, nothing changed)")
    changed = [r for r in report["rows"] if r["outcome"] == "changed"]
    if changed:
        shown = changed[:50]
        lines.append(
            table(
                ["row", "sbl", "changed"],
                [(str(r["row"]), r["sbl"], ", ".join(r["changed"])) for r in shown],
            )
        )
        if len(changed) > len(shown):
            lines.append(f"... and {len(changed) - len(shown)} more changed row(s) (--format json)")
    for review in report["reviews"]:
        lines.append(
            f"review ({review['kind']}): gone {', '.join(review['gone']) or '—'}; "
            f"new {', '.join(review['new']) or '—'}"
            + (
                f" (already open as review #{review['existing_review']})"
                if review["existing_review"]
                else ""
            )
        )
    return lines


def run_districts(args: argparse.Namespace) -> int:
    path = Path(args.path)
    _setup()
    from sewer_io.parcels import ParcelFileError, read_districts
    from sewer_office.core.errors import Blocked, Forbidden
    from sewer_office.parcels import districts, services

    try:
        actor = office_user(args.username)
        services.check_importer(actor)
    except NoSuchUser as e:
        print(f"import-districts: {e}", file=sys.stderr)
        return 2
    except Forbidden as e:
        print(f"import-districts: {e}", file=sys.stderr)
        return 1
    try:
        read = read_districts(path, name=path.name, crs=args.crs)
    except ParcelFileError as e:
        print(f"import-districts: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"import-districts: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 2
    preview = districts.preview_districts(read)
    report = {**preview.as_dict(), "dry_run": args.dry_run, "applied": False}
    status, message = 0, ""
    if preview.previous is not None:
        message, status = preview.already_imported_message(), 1
    elif preview.refusals:
        status = 1
    elif not args.dry_run:
        try:
            imp = districts.apply_districts(preview, actor)
        except Blocked as e:
            message, status = e.message, 1
        else:
            report.update(applied=True, import_id=imp.pk)
    if message:
        report["message"] = message
    name = preview.source
    lines = [
        f"{name}: {preview.file.rows} district(s), coordinates {preview.file.crs or 'none'}; "
        f"{report['new']} new, {report['changed']} changed, {report['unchanged']} unchanged, "
        f"{report['refused']} refused; {report['properties_reassigned']} propert"
        f"{'y' if report['properties_reassigned'] == 1 else 'ies'} to another service area"
    ]
    if message:
        lines.append(message)
    if preview.refusals:
        n = len(preview.refusals)
        lines.append(f"{name}: refused, nothing applied ({n} error{'s' if n != 1 else ''}):")
        lines += preview.report_lines()
    elif report.get("applied"):
        lines.append(f"{name}: applied as import #{report['import_id']}")
    elif args.dry_run and not message:
        lines.append(f"{name}: would be applied (dry run, nothing changed)")
    _emit(args, report, lines)
    return status
