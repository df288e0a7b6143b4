"""``sewer-use import-readings METER_ID READINGS.csv|.parquet [--as USERNAME]``.

Appends a meter's readings in the office and judges them (slugs § 196-15 SLUG, excursions
§ 196-19 C(3), D(1), D(8)) with the 24 hours stored before them. Exit status: 0 stored,
1 refused (every failing row and field listed, nothing stored), 2 unusable file, unknown
meter or unknown user. The file may be of any size the machine can hold: the upload cap of
the pages and the API (``SEWER_USE_MAX_UPLOAD_BYTES``) is not the operator's.

Django is imported inside the command function only (as in :mod:`sewer_cli.cmd_office`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .cmd_office import NoSuchUser, _setup, office_user


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "import-readings",
        help="append a meter's readings (CSV/Parquet) in the office and judge them",
    )
    p.add_argument("meter", metavar="METER_ID")
    p.add_argument("path", metavar="READINGS.csv")
    p.add_argument(
        "--as",
        dest="username",
        default=None,
        help="record the upload as this office user (Superintendent, engineer or the facility)",
    )
    p.set_defaults(func=run_import_readings)


def run_import_readings(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if not path.is_file():
        print(f"import-readings: cannot read {args.path}: no such file", file=sys.stderr)
        return 2
    _setup()

    from sewer_office.core.errors import Forbidden, operator_files
    from sewer_office.meters import services
    from sewer_office.meters.models import Meter

    meter = Meter.objects.select_related("sampling_point__establishment").filter(ident=args.meter)
    found = meter.first()
    if found is None:
        print(f"import-readings: no meter {args.meter!r}", file=sys.stderr)
        return 2
    try:
        actor = office_user(args.username)
    except NoSuchUser as e:
        print(f"import-readings: {e}", file=sys.stderr)
        return 2
    try:
        # The operator's own command: a file of any size the machine can hold (no upload cap).
        with operator_files():
            result = services.upload_readings(found, path, actor, source_name=path.name)
    except services.UploadUnusable as e:
        print(f"import-readings: {e.message}", file=sys.stderr)
        return 2
    except services.UploadRefused as e:
        print(f"import-readings: refused, nothing stored: {e.message}")
        for err in e.errors:
            where = f"row {err.row}" if err.row else "file"
            print(f"  {where}, {err.field}: {err.message}")
        return 1
    except Forbidden as e:
        print(f"import-readings: {e.message}", file=sys.stderr)
        return 1
    u = result.upload
    print(
        f"Stored {u.count} readings of meter {found.ident} from {u.first_at.isoformat()} "
        f"to {u.last_at.isoformat()} (upload #{u.pk}); {len(result.slugs)} slug(s), "
        f"{len(result.excursions)} excursion(s)"
        + (f"; {u.unjudged} reading(s) without 24 h of history not judged" if u.unjudged else "")
        + "."
    )
    for s in result.slugs:
        print(
            f"  slug {s.start.isoformat()} to {s.end.isoformat()}, peak {s.peak} {s.unit} "
            f"over {s.threshold} ({s.citation}); report required ({s.report_citation})"
        )
    for x in result.excursions:
        print(
            f"  excursion {x.start.isoformat()} to {x.end.isoformat()}, {x.extreme} {x.unit} "
            f"({x.status}, {x.citation})"
        )
    return 0
