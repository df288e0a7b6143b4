"""``sewer-use jurisdiction`` — a town's sewer-use law as a package: new, list, show, check.

``new NAME --from epa-model-2007`` writes a package for a town that adopts EPA's model
ordinance (:mod:`sewer_rules.jurisdiction_template`): it loads at once, every provision reads
``not_configured`` and every number the model leaves in brackets is a dated parameter with no
value, so that the software says "not configured" until the town writes its own. ``list``
shows the jurisdictions shipped with the software, ``show`` one package (bundled or a
directory): its law, sources, officials, enforcement ladder with each clock, the fine's basis
and its registry's counts; ``check`` runs the package's own cases.

Why a command rather than copying a bundled package: a copy would carry another town's
numbers and officials, which the software would then compute with as if they were adopted.

Exit status: 0 done; 1 a case of ``check`` fails; 2 unusable input (an unknown template, a
directory that is not empty, a package that does not load) with the reason.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from .common import clock_days, iso_date
from .main import EXIT_FOUND, EXIT_OK, EXIT_UNUSABLE, UsageError

if TYPE_CHECKING:
    from sewer_rules.enforcement_ladder import Clock, Ladder, Step
    from sewer_rules.law_package import LawPackage
    from sewer_rules.parameters import ParameterSet

HELP = "a town's law as a package: new (from a model ordinance), list, show, check"
# sewer_rules.templates.template_names(), restated so that --help reads no template
# (tests/test_jurisdiction_template.py checks they agree).
TEMPLATES = ("epa-model-2007",)


class PetitionData(TypedDict):
    to: str
    citation: str
    counted_from: str
    days: str


class StepData(TypedDict):
    """One step of the ladder as ``show`` says it (a row of the table, an item of the JSON)."""

    key: str
    label: str
    citation: str
    issued_by: str
    found_by: str | None
    demands: str | None
    counted_from: str | None
    days: str | None
    petition: PetitionData | None
    may_end_service: bool


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("jurisdiction", help=HELP, description=HELP)
    p.set_defaults(func=lambda _args: _usage(p))
    actions = p.add_subparsers(dest="action", metavar="ACTION")

    new = actions.add_parser("new", help="write a new jurisdiction package from a model ordinance")
    new.add_argument("name", metavar="NAME", help='the town\'s name, e.g. "Town of Fishkill"')
    new.add_argument(
        "--from",
        dest="template",
        required=True,
        metavar="TEMPLATE",
        help=f"the model ordinance to start from: {', '.join(TEMPLATES)}",
    )
    new.add_argument(
        "--directory", metavar="DIR", help="where to write it (default ./<slug of NAME>)"
    )
    new.add_argument(
        "--adopted",
        type=iso_date,
        metavar="DATE",
        help="the date its values run from (default today)",
    )
    new.add_argument(
        "--timezone",
        default="America/New_York",
        metavar="TZ",
        help="the town's time zone, whose today dates the law (default America/New_York)",
    )
    new.add_argument(
        "--holidays", metavar="CALENDAR", help="public holidays for legal periods, e.g. US-NY"
    )
    new.set_defaults(func=run_new)

    listing = actions.add_parser("list", help="the jurisdictions shipped with the software")
    listing.add_argument("--format", choices=("table", "json"), default="table")
    listing.set_defaults(func=run_list)

    show = actions.add_parser("show", help="one package: law, officials, ladder, fine, sections")
    show.add_argument(
        "law", metavar="NAME_OR_DIR", help="a bundled jurisdiction or a package's directory"
    )
    show.add_argument("--format", choices=("table", "json"), default="table")
    show.add_argument(
        "--on", type=iso_date, metavar="DATE", help="parameter values of DATE (default today)"
    )
    show.set_defaults(func=run_show)

    check = actions.add_parser("check", help="run a package's own legal cases")
    check.add_argument(
        "law", metavar="NAME_OR_DIR", help="a bundled jurisdiction or a package's directory"
    )
    check.set_defaults(func=run_check)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return EXIT_UNUSABLE


def _load(name: str) -> LawPackage:
    from sewer_rules.law_package import LawPackageError, load_law
    from sewer_rules.parameters import ParameterError

    try:
        return load_law(name)
    except (LawPackageError, ParameterError) as e:
        raise UsageError(str(e)) from None


def _params(law: LawPackage) -> ParameterSet:
    from sewer_rules.parameters import ParameterError

    try:
        return law.params()
    except ParameterError as e:
        raise UsageError(str(e)) from None


def run_new(args: argparse.Namespace) -> int:
    from sewer_rules.jurisdiction_template import (
        FILES,
        TemplateError,
        schema_gaps,
        slug,
        write_package,
    )
    from sewer_rules.templates import template

    key = slug(args.name)
    if not key:
        raise UsageError(f"name {args.name!r}: give a name with letters or digits")
    directory = Path(args.directory or key)
    try:
        written = write_package(
            args.name,
            directory,
            args.template,
            args.adopted,
            timezone=args.timezone,
            holidays=args.holidays,
        )
    except TemplateError as e:
        raise UsageError(str(e)) from None
    law = _load(_as_path(written))
    tpl = template(args.template)
    params = _params(law)
    day = min((v.effective for p in params.parameters.values() for v in p.values), default=None)
    said = {
        FILES[0]: f"grammar {law.grammar.kind} ({law.grammar.example()}), "
        f"{len(law.ladder.officials)} official(s) to name, {len(law.ladder.steps)} steps",
        FILES[1]: f"{len(law.sections)} sections and subsections, all not_configured",
        FILES[2]: f"{len(params.parameters)} dated parameters, null from {day}",
        FILES[3]: "no cases yet",
        FILES[4]: "what to fill in, in which order",
    }
    width = max(len(f) for f in FILES)
    print(f"wrote {_as_path(written)} from {tpl.key} ({tpl.title}) for {law.name}:")
    for name in FILES:
        print(f"  {name.ljust(width)}  {said[name]}")
    gaps = schema_gaps(tpl.key)
    if gaps:
        print("not in the parameter schema yet, so left out: " + ", ".join(g.key for g in gaps))
    print("next steps (README.md):")
    for i, step in enumerate(tpl.readme_steps, 1):
        print(f"  {i}. {step}")
    return EXIT_OK


def _as_path(path: Path) -> str:
    """A directory as the loaders read it: ``./demo`` rather than ``demo``, which would name
    the bundled jurisdiction."""
    text = str(path)
    return text if path.is_absolute() or text.startswith(".") else f"./{text}"


def run_list(args: argparse.Namespace) -> int:
    from sewer_rules.law_package import bundled_laws

    from .output import dump_json

    laws = [_load(key) for key in bundled_laws()]
    if args.format == "json":
        dump_json(
            [
                {
                    "key": law.key,
                    "name": law.name,
                    "law": law.law,
                    "grammar": law.grammar.kind,
                    "example": law.grammar.example(),
                    "sections": law.counts(),
                }
                for law in laws
            ],
            sys.stdout,
        )
        return EXIT_OK
    for law in laws:
        print(f"{law.key} — {law.name}")
        print(f"  law: {law.law}")
        print(f"  cites: {law.grammar.example()} ({law.grammar.kind})")
        print(f"  sections: {_counts_text(law.counts())}")
    return EXIT_OK


def _counts_text(counts: dict[str, int]) -> str:
    parts = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in counts.items())
    return f"{sum(counts.values())} — {parts}"


def run_show(args: argparse.Namespace) -> int:
    from .common import today
    from .output import dump_json

    law = _load(args.law)
    params = _params(law)
    on = args.on or today(params)
    steps = [_step_data(s, law.ladder, params, on) for s in law.ladder.steps]
    if args.format == "json":
        dump_json(law_data(law, steps, on), sys.stdout)
        return EXIT_OK
    print(f"{law.name} ({law.key})")
    print(f"law: {law.law}")
    print(f"grammar: {law.grammar.kind}, e.g. {law.grammar.example()}")
    if law.template:
        print(f"template: {law.template}")
    if law.notice:
        print(f"NOTE: {law.notice}")
    print("sources:")
    for s in law.sources:
        print(f"  {s.title} — {s.url}")
    print("officials:")
    for o in law.ladder.officials:
        print(f"  {o.key}: {o.title}" + (f" ({o.citation})" if o.citation else ""))
    print(f"\nenforcement ladder (parameters in force on {on}):")
    for i, step in enumerate(steps, 1):
        _write_step(i, step)
    fine = law.ladder.fine
    cited = f" ({fine.citation})" if fine.citation else ""
    why = f" — {fine.reason}" if fine.reason else ""
    print(f"\nfine: {str(fine.kind).replace('_', ' ')}{cited}{why}")
    print(f"sections: {_counts_text(law.counts())}")
    return EXIT_OK


def _write_step(number: int, s: StepData) -> None:
    """One step as a short block: its cells are sentences, too long for a table's columns."""
    finder = s["found_by"]
    found = f", on the finding of the {finder}" if finder and finder != s["issued_by"] else ""
    print(f"{number}. {s['label']} — {s['citation']}")
    print(f"   issued by: {s['issued_by']}{found}")
    print(f"   demands: {s['demands'] or 'nothing of its own'}")
    if s["counted_from"] is not None:
        print(f"   counted from: {s['counted_from']}; days: {s['days']}")
    else:
        print("   clock: none of the law's own")
    print(f"   petition: {_petition_text(s['petition'])}")
    print(f"   may end sewer service: {'yes' if s['may_end_service'] else 'no'}")


def _petition_text(petition: PetitionData | None) -> str:
    if petition is None:
        return "none"
    return f"to {petition['to']} ({petition['citation']}), from {petition['counted_from']}: {petition['days']}"


def law_data(law: LawPackage, steps: list[StepData], on: date) -> dict[str, object]:
    """What ``show`` says of a package, as plain data (the JSON; the table is drawn from it)."""
    return {
        "key": law.key,
        "name": law.name,
        "law": law.law,
        "grammar": law.grammar.kind,
        "example": law.grammar.example(),
        "template": law.template or None,
        "notice": law.notice or None,
        "sources": [{"title": s.title, "url": s.url} for s in law.sources],
        "officials": [
            {"key": o.key, "title": o.title, "citation": o.citation} for o in law.ladder.officials
        ],
        "parameters_on": on.isoformat(),
        "ladder": steps,
        "fine": {
            "kind": str(law.ladder.fine.kind),
            "citation": law.ladder.fine.citation or None,
            "daily_amount_parameter": law.ladder.fine.daily_amount_parameter or None,
            "reason": law.ladder.fine.reason or None,
        },
        "sections": law.counts(),
    }


def _step_data(step: Step, ladder: Ladder, params: ParameterSet, on: date) -> StepData:
    from sewer_rules.enforcement_ladder import DEMAND_WORDS

    petition = step.petition
    return {
        "key": step.key,
        "label": step.label,
        "citation": step.citation,
        "issued_by": ladder.official(step.issued_by).title,
        "found_by": ladder.official(step.found_by).title if step.found_by else None,
        "demands": None if step.demand is None else DEMAND_WORDS[step.demand],
        "counted_from": None if step.clock is None else _from(step.clock),
        "days": None if step.clock is None else clock_days(step.clock, params, on),
        "petition": None
        if petition is None
        else {
            "to": ladder.official(petition.to).title,
            "citation": petition.citation,
            "counted_from": _from(petition.clock),
            "days": clock_days(petition.clock, params, on),
        },
        "may_end_service": step.may_end_service,
    }


def _from(clock: Clock) -> str:
    return f"{clock.start} ({clock.count} days)"


def run_check(args: argparse.Namespace) -> int:
    from sewer_rules.law_cases import CaseFileError, check_cases

    law = _load(args.law)
    try:
        outcomes = check_cases(law)
    except CaseFileError as e:
        raise UsageError(str(e)) from None
    failed = [o for o in outcomes if not o.passed]
    for o in outcomes:
        print(f"{'ok  ' if o.passed else 'FAIL'} {o.case.file}: {o.case.name}")
        for problem in o.problems:
            print(f"       {problem}")
        if o.problems:
            print(f"       actual: {o.actual!r}")
    print(
        f"{law.key}: {len(outcomes)} case(s), {len(outcomes) - len(failed)} passed, {len(failed)} failed"
    )
    return EXIT_FOUND if failed else EXIT_OK
