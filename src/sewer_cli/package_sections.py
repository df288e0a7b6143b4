"""``sewer-use sections --jurisdiction NAME`` for a law declared as data (a package's
``sections.yaml``): the Town of Poughkeepsie's, or one written from a model ordinance.

Wappinger's registry is the Python table whose rules declare what they implement, with the
article's text beside it (:mod:`.cmd_sections`). A package's registry says the same things
in its own grammar: each provision's heading, its status with why, a summary in the
project's words, the public address of the official text, and what implements it — a step
of the enforcement ladder (with its clock), a dated parameter (with its value on the day), or
a function of the rules.
"""

from __future__ import annotations

import argparse
from datetime import date
from typing import TYPE_CHECKING, TextIO

from .main import EXIT_OK, UsageError

if TYPE_CHECKING:
    from sewer_rules.law_package import LawPackage, SectionRow
    from sewer_rules.parameters import ParameterSet


def run_package(args: argparse.Namespace, law: LawPackage) -> int:
    from .output import destination, dump_json, table

    rows = [r for r in law.sections if not args.status or str(r.status) == args.status]
    counts = law.counts()
    if args.citation is not None:
        if args.status:
            raise UsageError(
                "--status filters the list of sections; it does not apply to a citation"
            )
        return _one(args, law)
    if args.on is not None:
        raise UsageError("--on dates the text of one provision: give a CITATION with it")
    with destination(args.output) as out:
        if args.format == "json":
            dump_json(
                {
                    "jurisdiction": law.key,
                    "law": law.law,
                    "grammar": law.grammar.kind,
                    "coverage": counts,
                    "sections": [r.as_dict() for r in rows],
                },
                out,
            )
            return EXIT_OK
        out.write(f"{law.name} — {law.law}\n\n")
        out.write(
            table(
                ["citation", "heading", "status", "implemented by / reason"],
                [(r.citation, r.heading, str(r.status), _detail(r)) for r in rows],
            )
            + "\n\n"
        )
        listed = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in counts.items() if n)
        out.write(f"{len(law.sections)} sections and subsections: {listed}.\n")
        if law.template:
            out.write(
                f"Written from the {law.template} template: every provision stays not configured "
                "until the town writes its own choice.\n"
            )
    return EXIT_OK


def _detail(row: SectionRow) -> str:
    if row.implemented_by:
        return ", ".join(row.implemented_by)
    return row.reason or row.summary


def _one(args: argparse.Namespace, law: LawPackage) -> int:
    from sewer_rules.citations import CitationError

    from .common import jurisdiction, today
    from .output import destination, dump_json

    params = jurisdiction(args.jurisdiction, article_rules=False)
    on = args.on or today(params)
    try:
        row = law.section(args.citation)
    except CitationError as e:
        raise UsageError(f"{e} (e.g. {law.grammar.example()})") from None
    implementers = [_implementer(name, law, params, on) for name in row.implemented_by]
    with destination(args.output) as out:
        if args.format == "json":
            dump_json({**row.as_dict(), "on": on.isoformat(), "implementers": implementers}, out)
        else:
            _write(row, implementers, on, out)
    return EXIT_OK


def _implementer(name: str, law: LawPackage, params: ParameterSet, on: date) -> dict[str, str]:
    """What an ``implemented_by`` name stands for, said in words (the step's clock, the
    parameter's value on ``on``)."""
    kind, _, key = name.partition(":")
    if kind == "ladder":
        step = law.ladder.step(key)
        clock = step.clock
        said = f"{step.label}, issued by the {law.ladder.official(step.issued_by).title}"
        if clock is not None:
            days = (
                str(clock.days) if clock.days is not None else clock.parameter or "not configured"
            )
            said += f"; answer within {days} {clock.count} days of {clock.start}"
        if step.may_end_service:
            said += "; may end sewer service"
        if step.petition is not None:
            said += f"; petition to the {law.ladder.official(step.petition.to).title}"
        return {"name": name, "is": said}
    if kind == "parameter":
        value = params.get(key, on)
        shown = "not configured" if value.value is None else f"{value.value} {value.unit}"
        return {"name": name, "is": f"{shown} in force on {on} ({value.authority})"}
    return {"name": name, "is": "a function of the rules"}


def _write(row: SectionRow, implementers: list[dict[str, str]], on: date, out: TextIO) -> None:
    status = str(row.status) + (f" — {row.reason}" if row.reason else "")
    out.write(f"{row.citation} — {row.heading}\nstatus: {status}\n")
    if row.summary:
        out.write(f"\nsummary (the project's words): {row.summary}\n")
    if row.source:
        out.write(f"official text: {row.source}\n")
    if implementers:
        out.write(f"\nimplemented by (on {on}):\n")
        out.writelines(f"  {i['name']}: {i['is']}\n" for i in implementers)
