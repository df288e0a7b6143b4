"""``sewer-use fines`` under a law whose notice is not Wappinger's: the ladder's own answer.

A jurisdiction whose law sets no daily fine the software can count (its package's ``fine``
names no daily amount: the Town of Poughkeepsie's penalties not yet read, a model ordinance's
administrative fine after a hearing) still has a notice with a clock: the Town of
Poughkeepsie's asks for an explanation and a plan within 10 calendar days of mailing. This
module answers with that: the first step of the jurisdiction's ladder, the day it falls due
counted as its law counts (from service, mailing or receipt; calendar or business days), the
petition it allows, and why no fine is stated. The computation is
:func:`sewer_rules.response_clock.response_due`; nothing here is particular to one town.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .common import clock_days, header, jurisdiction
from .main import EXIT_OK, UsageError
from .output import dump_json

if TYPE_CHECKING:
    from datetime import date

    from sewer_rules.enforcement_ladder import Step
    from sewer_rules.law_package import LawPackage
    from sewer_rules.parameters import ParameterSet
    from sewer_rules.response_clock import ResponseDue


def counts_a_daily_fine(law: LawPackage | None) -> bool:
    """Whether the law's fine is a daily amount the software counts (§ 196-22 B's kind)."""
    return law is None or bool(law.ladder.fine.daily_amount_parameter)


def run_response(args: argparse.Namespace, law: LawPackage) -> int:
    from sewer_rules.enforcement_ladder import DEMAND_WORDS
    from sewer_rules.response_clock import Events, ResponseClockError, response_due

    params = jurisdiction(args.jurisdiction, article_rules=False)
    if not law.ladder.steps:
        raise UsageError(f"{law.name}: its law declares no enforcement step")
    first = law.ladder.steps[0]
    events = Events(served=args.served, mailed=args.mailed, received=args.received)
    try:
        due = response_due(first, events, params, args.period)
    except ResponseClockError as e:
        raise UsageError(str(e)) from None
    fine = law.ladder.fine
    petitions = [s for s in law.ladder.steps if s.petition is not None]
    if args.format == "json":
        dump_json(
            {
                "jurisdiction": law.key,
                "parameters_version": params.version,
                "response": due.as_dict(),
                "issued_by": law.ladder.official(first.issued_by).title,
                "found_by": law.ladder.official(first.found_by).title if first.found_by else None,
                "fine": {"kind": str(fine.kind), "citation": fine.citation, "reason": fine.reason},
                "petitions": [
                    {
                        "step": s.key,
                        "citation": s.petition.citation,
                        "window": _window(law, s, params, due.started),
                    }
                    for s in petitions
                    if s.petition is not None
                ],
            },
            sys.stdout,
        )
        return EXIT_OK
    lines = header(f"{first.label} — {first.citation}", params)
    lines.append("")
    if first.found_by:
        lines.append(f"Found by: {law.ladder.official(first.found_by).title}")
    lines.append(f"Issued by: {law.ladder.official(first.issued_by).title}")
    lines.append(_render(due, DEMAND_WORDS[first.demand] if first.demand else "answer"))
    for step in petitions:  # later steps: their windows open when they are received
        assert step.petition is not None
        lines.append(
            f"Later: {step.label} ({step.citation}) — {_window(law, step, params, due.started)}"
        )
    lines.append("")
    lines.append(f"Fine: none stated — {fine.reason or fine.kind} {fine.citation}".rstrip())
    print("\n".join(lines))
    return EXIT_OK


def _window(law: LawPackage, step: Step, params: ParameterSet, on: date) -> str:
    """A petition's window in words, with its days in force on ``on``."""
    petition = step.petition
    assert petition is not None
    clock = petition.clock
    to = law.ladder.official(petition.to).title
    return (
        f"the user may petition the {to} within {clock_days(clock, params, on)} {clock.count} "
        f"days of the day of its {clock.start} ({petition.citation})"
    )


def _render(due: ResponseDue, demand: str) -> str:
    moved = ""
    if due.moved_over:
        passed = ", ".join(f"{d.day} {d.reason}" for d in due.moved_over)
        moved = f"; moved past {passed} to the next business day ({due.moved_by})"
    return (
        f"Due: end of {due.due} — to {demand}, within {due.days} {due.count} days of the day of "
        f"{due.start} ({due.started}; {due.days_authority}){moved}"
    )
