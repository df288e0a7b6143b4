"""``sewer-use sections`` — every section and subsection of Article VII and what the software does with it.

``sewer-use sections "§ 196-19 C(3)"`` shows one provision: its words (from the law shipped with
the jurisdiction), its status in the registry, the reference functions that implement it (each
with the first line of its docstring and the engines tested equal to it) and the
parameters it authorises with their values in force today. ``--on DATE`` shows the words and
values in force on that day instead: a provision added later says it was not yet part of the
article, and one amended later says that its earlier words are not on file.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from .common import iso_date
from .main import EXIT_OK, UsageError

if TYPE_CHECKING:
    from sewer_rules.citations import Citation
    from sewer_rules.rulebook import Explanation
    from sewer_rules.sections import Section

# sewer_rules.sections.Coverage, restated so that --help builds no registry
# (tests/test_cli_startup.py checks they agree).
STATUSES = ("implemented", "not_formalized", "informational", "not_configured")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sections", help="print the registry of the article's sections with coverage"
    )
    p.add_argument(
        "citation",
        nargs="?",
        metavar="CITATION",
        help='one provision, e.g. "§ 196-19 C(3)" or "§ 196-15 SLUG": its text, status, '
        "implementing functions and parameters",
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--status", choices=STATUSES, help="only this status (the list)")
    p.add_argument(
        "--jurisdiction",
        default="wappinger",
        help="whose registry, and whose parameter values with one provision: wappinger "
        "(default), demo, town-of-poughkeepsie, or a jurisdiction package's directory",
    )
    p.add_argument(
        "--on",
        type=iso_date,
        metavar="DATE",
        help="with a citation: the text and parameter values in force on DATE (default today)",
    )
    p.add_argument("--output", metavar="FILE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .common import law_of

    law = law_of(args.jurisdiction)
    if law is not None and not law.rules_registry:  # a registry written as data
        from .package_sections import run_package

        return run_package(args, law)
    if args.citation is not None:
        return run_one(args)
    if args.on is not None:
        raise UsageError("--on dates the text of one provision: give a CITATION with it")
    from sewer_rules.rulebook import implementers
    from sewer_rules.sections import REGISTRY, Coverage, coverage_counts

    from .output import destination, dump_json, table

    impl = implementers()
    entries = [s for s in REGISTRY.values() if not args.status or s.coverage == args.status]
    counts = coverage_counts()
    with destination(args.output) as out:
        if args.format == "json":
            dump_json(
                {
                    "coverage": {str(k): v for k, v in counts.items()},
                    "sections": [
                        {
                            "citation": str(s.citation),
                            "heading": s.heading,
                            "status": str(s.coverage),
                            # the rules that compute it, then the office's functions
                            "implemented_by": [*impl.get(s.citation, []), *s.office],
                            "reason": s.reason,
                        }
                        for s in entries
                    ],
                },
                out,
            )
            return EXIT_OK
        rows = []
        for s in entries:
            rows.append((str(s.citation), s.heading, str(s.coverage), _detail(s, impl)))
        out.write(
            table(["citation", "heading", "status", "implemented by / reason"], rows) + "\n\n"
        )
        total = sum(counts.values())
        out.write(
            f"{total} sections and subsections: {counts[Coverage.IMPLEMENTED]} implemented, "
            f"{counts[Coverage.NOT_FORMALIZED]} not formalized, {counts[Coverage.INFORMATIONAL]} informational.\n"
        )
    return EXIT_OK


def _detail(s: Section, impl: dict[Citation, list[str]]) -> str:
    """The rules that compute the provision, the office functions that carry it out, and the
    reason (what the software does not do); the reason alone when nothing implements it."""
    names = [n.removeprefix("sewer_rules.") for n in impl.get(s.citation, [])]
    office = [n.removeprefix("sewer_office.") for n in s.office]
    parts = []
    if names:
        parts.append(", ".join(names))
    if office:
        parts.append("office: " + ", ".join(office))
    done = "; ".join(parts)
    if done and s.reason:
        return f"{done} — {s.reason}"
    return done or s.reason


def run_one(args: argparse.Namespace) -> int:
    """One provision: text, status, implementers, parameters (exit 2 for an unknown citation)."""
    from sewer_engines.catalogue import load
    from sewer_rules.rulebook import explain
    from sewer_rules.sections import UnknownSection

    from .common import jurisdiction, today
    from .output import destination, dump_json

    if args.status:
        raise UsageError("--status filters the list of sections; it does not apply to a citation")
    params = jurisdiction(args.jurisdiction)
    on = args.on or today(params)
    load()  # every rule, and every engine beside its reference
    try:
        ex = explain(args.citation, params, on)
    except UnknownSection as e:
        raise UsageError(str(e)) from None
    with destination(args.output) as out:
        if args.format == "json":
            dump_json(_as_json(ex, on.isoformat()), out)
        else:
            _write_table(ex, on.isoformat(), out)
    return EXIT_OK


def _as_json(ex: Explanation, on: str) -> dict[str, object]:
    s = ex.section
    return {
        "citation": str(s.citation),
        "heading": s.heading,
        "status": str(s.coverage),
        "reason": s.reason,
        "text_on": on,
        # in_force; not_in_force (not yet part of the article); not_on_file (earlier words)
        "text_state": str(ex.provision.state),
        "text_note": ex.provision.note,
        "text": ex.provision.text,
        "history": [
            {
                "citation": str(a.citation),
                "change": a.change,
                "effective": a.effective.isoformat(),
                "law": a.law,
            }
            for a in ex.provision.history
        ],
        "implemented_by": [*ex.implemented_by, *ex.in_office],
        # the reference functions: first docstring line, and the engines tested equal to them
        "references": [
            {"name": r.name, "summary": r.summary, "engines": list(r.engines)}
            for r in ex.references
        ],
        # whether a violation can be opened under it (sewer_rules.duties)
        "duty": {
            "imposes": ex.duty.imposes,
            "nature": str(ex.duty.nature),
            "why": ex.duty.why,
            "decided_by": ex.duty.decided_by,
        },
        "parameters_on": on,
        "parameters": [
            {
                "name": v.name,
                "value": None if v.value is None else str(v.value),
                "unit": v.unit,
                "effective": v.effective.isoformat(),
                "authority": v.authority,
            }
            for v in ex.parameters
        ],
    }


def _text_on(ex: Explanation, on: str) -> str:
    """The words in force on ``on``, with what the law's history says of that day."""
    p = ex.provision
    lines = [f"text in force on {on}:"]
    if p.note:
        lines.append(f"NOTE: {p.note}")
    if p.text:
        lines += ["", p.text]
    if p.history:
        lines += ["", "history: " + "; ".join(f"{a.citation} {a}" for a in p.history)]
    return "\n".join(lines) + "\n\n"


def _write_table(ex: Explanation, on: str, out: TextIO) -> None:
    from .output import table

    s = ex.section
    status = str(s.coverage) + (f" — {s.reason}" if s.reason else "")
    out.write(f"{s.citation} — {s.heading}\nstatus: {status}\n")
    duty = ex.duty
    said = f"yes — {duty.why}" if duty.imposes else f"no — {duty.refusal}"
    out.write(f"imposes a duty or prohibition: {said}\n\n")
    out.write(_text_on(ex, on))
    if ex.implemented_by:
        out.write("implemented by:\n")
        for ref in ex.references:
            out.write(f"  {ref.name}" + (f" — {ref.summary}" if ref.summary else "") + "\n")
            out.writelines(f"    engine: {engine}\n" for engine in ref.engines)
    else:
        out.write("implemented by: nothing (not computed)\n")
    if ex.in_office:
        out.write("carried out in the office by:\n")
        out.writelines(f"  {name}\n" for name in ex.in_office)
    if ex.parameters:
        rows = [
            (
                v.name,
                "not configured" if v.value is None else str(v.value),
                v.unit,
                v.effective,
                v.authority,
            )
            for v in ex.parameters
        ]
        out.write(f"\nparameters it authorises, in force on {on}:\n")
        out.write(table(["parameter", "value", "unit", "since", "authority"], rows) + "\n")
    else:
        out.write("\nparameters it authorises: none\n")
