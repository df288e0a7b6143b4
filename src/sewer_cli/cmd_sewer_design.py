"""``sewer-use sewer-design FILE.json`` — § 196-18 D, F, G, H checks of a building sewer design.

    sewer-use sewer-design FILE.json [--date DATE] [--jurisdiction ...] [--format table|json]

The JSON contract is documented in ``sewer_rules.ordinance.s196_18_building_sewers.design``
(and the README); ``examples/building-sewer-design.json`` is an example.

Exit status: 0 when no check fails; 1 when any check fails; 2 for an unusable file (unreadable,
not JSON, or a field that cannot be read), with a message naming the file and the field.
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import add_common, describe, header, jurisdiction, today
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json, table

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.findings import Check
    from sewer_rules.ordinance.s196_18_building_sewers.design import BuildingSewerDesign
    from sewer_rules.parameters import ParameterSet


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sewer-design",
        help="§ 196-18 D, F, G, H: check a building sewer design (JSON)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE.json")
    add_common(p, on_date=True)
    p.set_defaults(func=run)


def read_design(path: str) -> BuildingSewerDesign:
    """The design in ``path``; :class:`UsageError` naming the file (and field) otherwise."""
    from sewer_rules.ordinance.s196_18_building_sewers.design import BuildingSewerDesign
    from sewer_rules.ordinance.s196_18_building_sewers.design_fields import DesignError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    if not text.strip():
        raise UsageError(f"{path}: empty file")
    try:
        data: Any = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as e:
        raise UsageError(
            f"{path}: not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}"
        ) from None
    try:
        return BuildingSewerDesign.from_dict(data)
    except DesignError as e:
        raise UsageError(f"{path}: field {e.field}: {e.message}") from None


def run(args: argparse.Namespace) -> int:
    from sewer_rules.ordinance.s196_18_building_sewers.checks import check_building_sewer
    from sewer_rules.ordinance.s196_18_building_sewers.pipe import MINIMUM_DIAMETER, MINIMUM_SLOPE
    from sewer_rules.parameters import ParameterError

    params = jurisdiction(args.jurisdiction)
    design = read_design(args.file)
    on = args.date or today(params)
    try:
        checks = check_building_sewer(design, params, on)
    except (ParameterError, ValueError) as e:
        raise UsageError(str(e)) from None
    failed = sum(1 for c in checks if c.passed is False)
    if args.format == "json":
        dump_json(
            {
                "file": args.file,
                "name": design.name,
                "jurisdiction": params.jurisdiction,
                "parameters_version": params.version,
                "date": on.isoformat(),
                "parameters": [
                    _param(params, name, on) for name in (MINIMUM_DIAMETER, MINIMUM_SLOPE)
                ],
                "checks": [c.as_dict() for c in checks],
                "passed": sum(1 for c in checks if c.passed is True),
                "failed": failed,
                "not_determined": sum(1 for c in checks if c.passed is None),
            },
            sys.stdout,
        )
    else:
        print(render(args.file, design, checks, params, on))
    return EXIT_FOUND if failed else EXIT_OK


def _param(params: ParameterSet, name: str, on: Any) -> dict[str, object]:
    p = params.get(name, on)
    return {
        "name": p.name,
        "value": None if p.value is None else str(p.value),
        "unit": p.unit,
        "effective": p.effective.isoformat(),
        "authority": p.authority,
        "reference": p.reference,
    }


def _bare(c: Check) -> str:
    """The message without its trailing citation (the table has a citation column)."""
    suffix = f" ({c.citation})"
    return c.message[: -len(suffix)] if c.message.endswith(suffix) else c.message


def _mark(c: Check) -> str:
    return {True: "pass", False: "FAIL", None: "note"}[c.passed]


def render(
    path: str, design: BuildingSewerDesign, checks: list[Check], params: ParameterSet, on: Any
) -> str:
    from sewer_rules.ordinance.s196_18_building_sewers.pipe import MINIMUM_DIAMETER, MINIMUM_SLOPE

    lines = header("Building sewer design — § 196-18 D, F, G, H", params)
    lines.append(f"Design: {design.name or path} ({path}), judged on {on}")
    for name in (MINIMUM_DIAMETER, MINIMUM_SLOPE):
        lines.append(f"  {describe(params.get(name, on))} ({params.get(name, on).reference})")
    lines.append(
        "  buildings: "
        + ", ".join(f"{b.id} → {b.building_sewer}" for b in design.buildings)
        + "; building sewers: "
        + ", ".join(f"{s.id} {s.diameter} at {s.slope}" for s in design.building_sewers)
    )
    lines.append("")
    rows = [(i, str(c.citation), _mark(c), _bare(c)) for i, c in enumerate(checks, 1)]
    lines.append(table(("#", "citation", "result", "check"), rows))
    lines.append("")
    failed = [c for c in checks if c.passed is False]
    notes = sum(1 for c in checks if c.passed is None)
    passed = sum(1 for c in checks if c.passed is True)
    lines.append(
        f"{passed} passed, {len(failed)} failed, {notes} not determined by the software "
        "(left to the inspector or advisory)."
    )
    if failed:
        cited = ", ".join(sorted({str(c.citation) for c in failed}))
        lines.append(f"The design does not conform: {cited}.")
    else:
        lines.append("No check failed.")
    return "\n".join(lines)
