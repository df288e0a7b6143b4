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
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK
from .office_import import Stop, add_options, command, emit, office_actor, plural
from .output import table

if TYPE_CHECKING:  # the office's models load only after Django is set up (_setup)
    from sewer_office.accounts.actors import Actor


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


class Applied(TypedDict):
    """What the JSON report adds once the file is applied: the import's id and, for a roll,
    the day its owner changes take effect."""

    import_id: int
    roll_date: NotRequired[str]


def _common(p: Any) -> None:
    add_options(p, dry_run="classify every row, apply nothing")
    p.add_argument(
        "--crs",
        default=None,
        help="the coordinate system of a CSV file's WKT geometry (e.g. EPSG:2260)",
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


def _run(
    args: argparse.Namespace,
    read: Callable[[], Any],
    preview_of: Callable[[Any], Any],
    apply: Callable[[Any, Actor], Applied],
    lines_of: Callable[[Any, dict[str, Any], str], list[str]],
) -> int:
    """One import command: the acting user, the file ``read``, its preview, its application
    unless a dry run (``apply`` gives what the report adds), the report printed; the exit
    status (:class:`Stop` for an unknown user, a user who may not import, an unusable file)."""
    from sewer_io.parcels import ParcelFileError
    from sewer_office.core.errors import Blocked, Forbidden
    from sewer_office.parcels import services

    actor = office_actor(args.username)
    try:
        services.check_importer(actor)
    except Forbidden as e:
        raise Stop(str(e), EXIT_FOUND) from None
    try:
        file = read()
    except ParcelFileError as e:
        raise Stop(str(e)) from None
    except OSError as e:
        raise Stop(f"cannot read {Path(args.path)}: {e.strerror or e}") from None
    preview = preview_of(file)
    report = {**preview.as_dict(), "dry_run": args.dry_run, "applied": False}
    status, message = EXIT_OK, ""
    if preview.previous is not None:
        message, status = preview.already_imported_message(), EXIT_FOUND
    elif preview.refusals:
        status = EXIT_FOUND
    elif not args.dry_run:
        try:
            report.update(applied=True, **apply(preview, actor))
        except Blocked as e:
            message, status = e.message, EXIT_FOUND
    if message:
        report["message"] = message
    lines = lines_of(preview, report, message)
    emit(args, report, lambda: print("\n".join(lines)))
    return status


def _outcome_lines(preview: Any, report: dict[str, Any], message: str) -> list[str]:
    """What became of the file: refused (every row named), applied, or a dry run."""
    name = preview.source
    lines = [message] if message else []
    if preview.refusals:
        lines.append(
            f"{name}: refused, nothing applied ({plural(len(preview.refusals), 'error')}):"
        )
        lines += preview.report_lines()
    elif report.get("applied"):
        day = f" ({report['roll_date']})" if "roll_date" in report else ""
        lines.append(f"{name}: applied as import #{report['import_id']}{day}")
    elif report["dry_run"] and not message:
        lines.append(f"{name}: would be applied (dry run, nothing changed)")
    return lines


@command("import-parcels")
def run_parcels(args: argparse.Namespace) -> int:
    path = Path(args.path)
    _setup()
    from django.utils import timezone

    from sewer_io.parcels import read_parcels
    from sewer_office.parcels import services

    roll_date = args.roll_date or timezone.localdate()

    def apply(preview: Any, actor: Actor) -> Applied:
        imp = services.apply(preview, actor, roll_date)
        return Applied(import_id=imp.pk, roll_date=roll_date.isoformat())

    return _run(
        args,
        lambda: read_parcels(path, name=path.name, crs=args.crs),
        services.preview,
        apply,
        _parcel_lines,
    )


def _parcel_lines(preview: Any, report: dict[str, Any], message: str) -> list[str]:
    name = preview.source
    lines = [
        f"{name}: {preview.file.rows} row(s), coordinates {preview.file.crs or 'none'}; "
        f"{report['new']} new, {report['changed']} changed, {report['unchanged']} unchanged, "
        f"{report['refused']} refused, {report['review']} held for review; "
        f"{report['owner_changes']} owner change(s), {report['persons_new']} new person(s), "
        f"{report['splits']} split(s), {report['merges']} merge(s)"
    ]
    lines += _outcome_lines(preview, report, message)
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


@command("import-districts")
def run_districts(args: argparse.Namespace) -> int:
    path = Path(args.path)
    _setup()
    from sewer_io.parcels import read_districts
    from sewer_office.parcels import districts

    def apply(preview: Any, actor: Actor) -> Applied:
        return Applied(import_id=districts.apply_districts(preview, actor).pk)

    return _run(
        args,
        lambda: read_districts(path, name=path.name, crs=args.crs),
        districts.preview_districts,
        apply,
        _district_lines,
    )


def _district_lines(preview: Any, report: dict[str, Any], message: str) -> list[str]:
    return [
        f"{preview.source}: {preview.file.rows} district(s), coordinates "
        f"{preview.file.crs or 'none'}; {report['new']} new, {report['changed']} changed, "
        f"{report['unchanged']} unchanged, {report['refused']} refused; "
        f"{report['properties_reassigned']} propert"
        f"{'y' if report['properties_reassigned'] == 1 else 'ies'} to another service area",
        *_outcome_lines(preview, report, message),
    ]
