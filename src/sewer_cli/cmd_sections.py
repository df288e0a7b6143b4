"""``sewer-use sections`` — every section and subsection of Article VII and what the software does with it."""

from __future__ import annotations

import argparse

from sewer_rules.sections import REGISTRY, Coverage, coverage_counts, implementers

from .main import EXIT_OK
from .output import destination, dump_json, table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sections", help="print the registry of the article's sections with coverage"
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--status", choices=[c.value for c in Coverage], help="only this status")
    p.add_argument("--output", metavar="FILE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
                            "implemented_by": impl.get(s.citation, []),
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
            detail = (
                ", ".join(n.removeprefix("sewer_rules.") for n in impl.get(s.citation, []))
                or s.reason
            )
            rows.append((str(s.citation), s.heading, str(s.coverage), detail))
        out.write(
            table(["citation", "heading", "status", "implemented by / reason"], rows) + "\n\n"
        )
        total = sum(counts.values())
        out.write(
            f"{total} sections and subsections: {counts[Coverage.IMPLEMENTED]} implemented, "
            f"{counts[Coverage.NOT_FORMALIZED]} not formalized, {counts[Coverage.INFORMATIONAL]} informational.\n"
        )
    return EXIT_OK
