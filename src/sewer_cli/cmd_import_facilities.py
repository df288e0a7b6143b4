"""``sewer-use import-facilities FILE (--mapping NAME | --mapping-file JSON) [--sheet S]
[--dry-run] [--format table|json] [--as USERNAME]``.

A town's spreadsheet of users and facilities (Excel ``.xlsx`` or CSV) read through a column
mapping — one the office keeps (``--mapping``, as chosen on the import page), or one written as
JSON (``--mapping-file``: ``name``, ``columns``, ``kind_values``; see
``examples/facilities-mapping.json``) — each row matched to its parcel and operator, and applied
as the office's import page applies it: all the rows that can be, with the rows whose parcel is
not found queued for review; nothing at all when a row is refused. ``--dry-run`` shows what
would be done and writes nothing.

Exit 0 applied (or, with ``--dry-run``, would apply; also when nothing was left to change),
1 rows refused (every refusal listed by row and field), 2 an unusable file or mapping, an
unknown user.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

from .main import EXIT_FOUND
from .office_import import Stop, add_options, command, emit, office_actor, refusal
from .output import table

PROG = "import-facilities"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(PROG, help="import a town's spreadsheet of users and facilities")
    p.add_argument("path", metavar="FILE", help="the spreadsheet (.xlsx or CSV)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--mapping", metavar="NAME", help="a column mapping the office keeps")
    which.add_argument(
        "--mapping-file", metavar="JSON", help="a column mapping written as JSON (not saved)"
    )
    p.add_argument("--sheet", default="", help="the workbook's sheet (default: the first)")
    add_options(p, dry_run="show what would be done, write nothing")
    p.set_defaults(func=run)


@command(PROG)
def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise Stop(f"cannot read {path}: {e.strerror or e}") from None
    mapping_data: dict[str, Any] | None = None
    if args.mapping_file:
        try:
            loaded = json.loads(Path(args.mapping_file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise Stop(f"cannot read the mapping {args.mapping_file}: {e}") from None
        if not isinstance(loaded, dict) or not isinstance(loaded.get("columns"), dict):
            raise Stop(f"{args.mapping_file}: a mapping is an object with its 'columns'")
        mapping_data = loaded
    actor = office_actor(args.username)
    from sewer_office.core.errors import Blocked, Forbidden
    from sewer_office.onboarding import services
    from sewer_office.onboarding.importing import BY_NAME, REQUIRED, MappingSpec
    from sewer_office.onboarding.models import ColumnMapping
    from sewer_office.onboarding.spreadsheet import UnusableFile, read_sheet

    if mapping_data is not None:
        spec = MappingSpec.from_snapshot({"name": path.name, **mapping_data})
        unknown = [t for t in spec.columns if t not in BY_NAME]
        lacking = [t for t in REQUIRED if not spec.columns.get(t)]
        if unknown or lacking:
            problems = [f"{t}: not a field of the import" for t in unknown]
            problems += [f"{t}: required, no column given" for t in lacking]
            raise Stop(f"{args.mapping_file}: {'; '.join(problems)}")
    else:
        saved = ColumnMapping.objects.filter(name=args.mapping).first()
        if saved is None:
            names = ", ".join(ColumnMapping.objects.values_list("name", flat=True)) or "none"
            raise Stop(f"no column mapping named {args.mapping!r} (the office keeps: {names})")
        spec = MappingSpec.of(saved)
    try:
        sheet = read_sheet(data, path.name, args.sheet)
    except UnusableFile as e:
        raise Stop(str(e)) from None
    if missing := spec.missing_in(sheet.header):
        raise Stop(
            f"{path.name}: the mapping {spec.name!r} names columns the file lacks: "
            f"{', '.join(missing)}"
        )
    digest = hashlib.sha256(data).hexdigest()
    applied_id: int | None = None
    nothing = ""
    try:
        if args.dry_run:
            plan = services.preview(sheet, spec, actor)
        else:
            try:
                applied = services.apply_import(sheet, spec, actor, digest=digest)
            except services.ImportRefused as e:
                plan = e.plan
            except Blocked as e:
                nothing = e.message
                plan = services.preview(sheet, spec, actor)
            else:
                plan, applied_id = applied.plan, applied.facility_import.pk
    except Forbidden as e:
        raise Stop(e.message, EXIT_FOUND) from None
    out = {**plan.as_dict(), "dry_run": args.dry_run, "import_id": applied_id}
    if nothing:
        out["nothing_to_change"] = nothing
    emit(args, out, lambda: _print_table(plan, args.dry_run, applied_id, nothing))
    return 1 if plan.refused else 0


def _print_table(plan: Any, dry_run: bool, applied_id: int | None, nothing: str) -> None:
    name = plan.source_name
    if plan.refused:
        print("\n".join(refusal(name, plan.errors, nothing="nothing written")))
        return
    print(
        table(
            ["row", "facility", "outcome", "parcel", "details"],
            [
                (
                    str(r.row),
                    r.name,
                    r.outcome_label,
                    r.property_label,
                    "; ".join([r.reason, *r.changes(), *r.notes][:4]).strip("; "),
                )
                for r in plan.rows
            ],
        )
    )
    c = plan.counts
    summary = (
        f"{c['new']} new, {c['changed']} changed, {c['unchanged']} unchanged, "
        f"{c['unmatched']} to the review queue, {c['queued_before']} already queued; "
        f"{len(plan.new_persons)} new operator(s)"
    )
    if nothing:
        print(nothing)
    elif dry_run:
        print(f"{name}: would apply — {summary} (nothing written)")
    else:
        print(f"{name}: applied as facilities import #{applied_id} — {summary}")
