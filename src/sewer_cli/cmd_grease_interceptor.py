"""``sewer-use grease-interceptor`` — § 196-19 F(2) grease trap sizing against the method in force.

    sewer-use grease-interceptor --fixture-volume X [--fixture-volume X ...] [--drain-minutes 1|2]
                                 [--installed GPM] [--date DATE] [--jurisdiction ...] [--format ...]
    sewer-use grease-interceptor --dfu N [--installed GAL] [--date DATE] [--jurisdiction ...]

Hydromechanical (PDI G-101): --fixture-volume is a fixture's volume — "13824" or "13824 in3"
(cubic inches), "48x24x12" (inside length × width × depth in inches), or "59.84 gal"; repeat
it for each fixture served (the volumes add). gpm = 0.75 × (in³ ÷ 231) ÷ drain minutes (1, or
2 where allowed), rounded up to a rated size (4, 7, 10, 15, 20, 25, 35, 50 gpm; 2 lb of grease
capacity per gpm). Gravity (UPC table): --dfu is the drainage fixture units served.
--installed checks an installed unit (rated gpm, or gallons for gravity).

The article sizes grease traps by the NYS DEC Design Standards (1988), which are not formalized:
where that is the method in force (grease_interceptor.sizing_method = 0, Wappinger) the figures
are references for the engineer, not determinations.

Exit status: 0 a size is found (and an installed unit meets it, where the method decides);
1 no listed size fits, or the installed unit does not meet the method in force; 2 unusable input.
"""

from __future__ import annotations

import argparse
import re
import sys
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING

from .common import add_common, header, jurisdiction, today
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.findings import Check

_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"
_DIMENSIONS = re.compile(
    rf"^\s*{_NUMBER}\s*[x×*]\s*{_NUMBER}\s*[x×*]\s*{_NUMBER}\s*(?:in|inch|inches|\")?\s*$",
    re.IGNORECASE,
)
_VOLUME = re.compile(rf"^\s*{_NUMBER}\s*(?P<unit>[^\d\s].*)?$")
_CUBIC_INCH = {"in3", "in³", "cu in", "cu. in.", "cubic inches", "cubic inch", "in^3"}
_GALLON = {"gal", "gallon", "gallons"}
# grease_interceptors.PDI_DRAIN_MINUTES, restated so that --help needs no pint
# (tests/test_cli_startup.py checks they agree).
PDI_DRAIN_MINUTES = (1, 2)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grease-interceptor",
        help="§ 196-19 F(2): size a grease interceptor (PDI G-101 or UPC table)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--fixture-volume",
        action="append",
        metavar="X",
        help='a fixture\'s volume: "13824" (in³), "48x24x12" (inches) or "59.84 gal"; repeatable',
    )
    what.add_argument("--dfu", type=int, metavar="N", help="drainage fixture units (gravity)")
    p.add_argument(
        "--drain-minutes",
        type=int,
        choices=PDI_DRAIN_MINUTES,
        default=1,
        help="drain time in minutes for PDI G-101 (1, or 2 where allowed; default 1)",
    )
    p.add_argument(
        "--installed", metavar="X", help="an installed unit: rated gpm, or gallons with --dfu"
    )
    add_common(p, on_date=True)
    p.set_defaults(func=run)


def fixture_volume_in3(text: str) -> Fraction:
    """A fixture volume in cubic inches from ``13824``, ``48x24x12`` or ``59.84 gal``."""
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_interceptors import (
        cubic_inches_per_gallon,
    )

    try:
        dims = _DIMENSIONS.match(text)
        if dims:
            length, width, depth = (Fraction(Decimal(g)) for g in dims.groups())
            return length * width * depth
        m = _VOLUME.match(text)
        if m:
            value = Fraction(Decimal(m.group(1)))
            unit = " ".join((m["unit"] or "in3").lower().split())
            if unit in _CUBIC_INCH:
                return value
            if unit in _GALLON:
                return value * cubic_inches_per_gallon()
            raise UsageError(
                f"--fixture-volume: unknown unit {m['unit']!r} (use in3, gal, or LxWxD in inches)"
            )
    except InvalidOperation:
        pass
    raise UsageError(
        f"--fixture-volume: {text!r} is not a volume (e.g. 13824, 48x24x12 or 59.84 gal)"
    )


def _number(text: str, option: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise UsageError(f"{option}: {text!r} is not a number") from None
    if not value.is_finite() or value < 0:
        raise UsageError(f"{option}: {text!r} must be a number ≥ 0")
    return value


def run(args: argparse.Namespace) -> int:
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_interceptors import (
        GreaseSizingError,
        size_gravity,
        size_hydromechanical,
    )
    from sewer_rules.parameters import ParameterError

    params = jurisdiction(args.jurisdiction)
    on = args.date or today(params)
    installed = None if args.installed is None else _number(args.installed, "--installed")
    try:
        if args.dfu is not None:
            if args.dfu < 0:
                raise UsageError("--dfu must be 0 or more")
            check = size_gravity(args.dfu, params, on, installed_gal=installed)
        else:
            volumes = [fixture_volume_in3(v) for v in args.fixture_volume]
            check = size_hydromechanical(
                sum(volumes, Fraction(0)), args.drain_minutes, params, on, installed_gpm=installed
            )
    except (GreaseSizingError, ParameterError) as e:
        raise UsageError(str(e)) from None
    no_size = check.details.get("rated_size_gpm", check.details.get("capacity_gal")) == "none"
    code = EXIT_FOUND if no_size or check.passed is False else EXIT_OK
    if args.format == "json":
        dump_json(
            {
                "jurisdiction": params.jurisdiction,
                "parameters_version": params.version,
                "date": on.isoformat(),
                "check": check.as_dict(),
            },
            sys.stdout,
        )
        return code
    print("\n".join(_table(check, params_lines=header(_TITLE, params), on=str(on))))
    return code


_TITLE = "Grease interceptor sizing — § 196-19 F(2)"


def _table(check: Check, *, params_lines: list[str], on: str) -> list[str]:
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_interceptors import (
        cubic_inches_per_gallon,
    )

    d = check.details
    lines = [*params_lines, f"Judged on {on}", ""]
    lines.append(
        f"Method in force: {d['parameter']} = {d['method_in_force']} "
        f"({d['method_in_force_label']}), in force since {d['effective']}"
        + (f", {d['authority']}" if d.get("authority") else "")
    )
    lines.append("")
    if d["method"] == "hydromechanical":
        gallons = Fraction(Decimal(d["fixture_volume_in3"])) / cubic_inches_per_gallon()
        lines += [
            f"Sizing by {d['reference']}",
            f"  fixture volume   {d['fixture_volume_in3']} in³ ({float(gallons):.2f} gal)",
            f"  flow rate        0.75 × {float(gallons):.2f} gal ÷ {d['drain_minutes']} min "
            f"= {d['flow_gpm']} gpm",
            f"  rated size       {_none(d['rated_size_gpm'], 'gpm')}",
            f"  grease capacity  {_none(d['grease_capacity_lb'], 'lb')}",
        ]
        if "installed_gpm" in d:
            lines.append(
                f"  installed        {d['installed_gpm']} gpm — "
                + ("meets" if d["installed_meets"] == "yes" else "does not meet")
                + " the flow"
            )
    else:
        lines += [
            f"Sizing by {d['reference']}",
            f"  fixture units    {d['dfu']} DFU (table row: up to {d['table_row_dfu']})",
            f"  capacity         {_none(d['capacity_gal'], 'gal')}",
        ]
        if "installed_gal" in d:
            lines.append(
                f"  installed        {d['installed_gal']} gal — "
                + ("meets" if d["installed_meets"] == "yes" else "does not meet")
                + " the table"
            )
    lines += ["", check.message, ""]
    if d["determination"] != "yes":
        result = "reference only — not a determination under § 196-19 F(2)"
    elif check.passed is None:
        result = "sized by the method in force"
    else:
        result = (
            "meets the method in force" if check.passed else "does not meet the method in force"
        )
    if "none" in (d.get("rated_size_gpm"), d.get("capacity_gal")):
        result = "no listed size fits; " + result
    lines.append(f"Result: {result}")
    return lines


def _none(value: str, unit: str) -> str:
    return "none listed" if value == "none" else f"{value} {unit}"
