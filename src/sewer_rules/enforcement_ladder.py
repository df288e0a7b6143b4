"""A jurisdiction's enforcement ladder as data: who acts, what each step demands, by when.

Towns on one treatment plant answer a violation differently, and the difference is in the
words of their law, not in the software's logic. Wappinger's written notice gives ten days
"for the satisfactory correction thereof", counted from service (§ 196-22 A), and its fines are
a court's, on conviction (§ 196-22 B). The Town of Poughkeepsie's pretreatment notice, served
by the Town Engineer on the managing operator's finding, asks within 10 calendar days "of the
date the notice is mailed" for an explanation and a plan of correction and prevention; its
administrative order may end sewer service, and the user may petition within 15 calendar days
of receiving it. EPA's model ordinance climbs from a notice through consent, show-cause and
compliance orders to administrative fines after a hearing.

So each step of a ladder says, as data in the jurisdiction's ``law.yaml``:

- what it demands (:class:`Demand`: correct the violation, or explain it and plan its
  correction), within how many days (a number, or the dated parameter that holds it), counted
  from what (:class:`ClockStart`: service, mailing or receipt) and how (:class:`DayCount`:
  calendar or business days), and whether the notice may state a longer period;
- which official issues it, on whose finding, and to whom the answer is given;
- the petition it allows (days, from what, to whom), and whether it may end sewer service;
- its citation, in the jurisdiction's own grammar (:mod:`.citation_grammar`).

The law's fine (:class:`FineBasis`) says what a fine needs: a conviction by a court, or an
administrative fine after a hearing, or nothing yet configured. :mod:`.response_clock` computes
any step's deadline from these declarations, for every jurisdiction alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from .citation_grammar import CitationGrammar
from .citations import CitationError, FederalCitation

E = TypeVar("E", bound=StrEnum)


class LadderError(ValueError):
    """A ``law.yaml`` whose ladder, officials or fine cannot be read (file and field named)."""


class Demand(StrEnum):
    CORRECT = "correct"
    EXPLAIN_AND_PLAN = "explain_and_plan"
    COMPLY_WITH_ORDER = "comply_with_order"


class ClockStart(StrEnum):
    SERVICE = "service"
    MAILING = "mailing"
    RECEIPT = "receipt"


class DayCount(StrEnum):
    CALENDAR = "calendar"
    BUSINESS = "business"


class FineKind(StrEnum):
    """What a fine needs: a court's conviction (Wappinger's § 196-22 B); an administrative
    fine the official imposes, reconsidered at a hearing only on the user's request (EPA's
    model, Section 10.6); one imposed only after a hearing; or nothing yet configured."""

    CONVICTION = "conviction"
    ADMINISTRATIVE = "administrative"
    ADMINISTRATIVE_AFTER_HEARING = "administrative_after_hearing"
    NOT_CONFIGURED = "not_configured"


DEMAND_WORDS = {
    Demand.CORRECT: "correct the violation",
    Demand.EXPLAIN_AND_PLAN: "submit an explanation of the violation and a plan for its "
    "correction and prevention",
    Demand.COMPLY_WITH_ORDER: "comply with the order",
}


@dataclass(frozen=True)
class Official:
    key: str
    title: str
    citation: str = ""


@dataclass(frozen=True)
class Clock:
    """``days`` (or the dated ``parameter`` holding them; None with no parameter: not
    configured) counted from ``start`` in ``count`` days; ``at_least``: the notice may state a
    longer period, never a shorter one; ``stated``: the law sets no number, the period is the
    one the order itself states (a whole number of days, at least one)."""

    start: ClockStart
    count: DayCount
    days: int | None = None
    parameter: str = ""
    at_least: bool = False
    stated: bool = False


@dataclass(frozen=True)
class Petition:
    clock: Clock
    to: str
    citation: str


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    citation: str
    issued_by: str
    demand: Demand | None = None
    clock: Clock | None = None
    found_by: str = ""
    petition: Petition | None = None
    may_end_service: bool = False
    #: The official the user's answer goes to (an explanation and plan to the managing
    #: operator); empty: the official who issues the step.
    answer_to: str = ""

    @property
    def answered_to(self) -> str:
        """The key of the official the step's answer is given to."""
        return self.answer_to or self.issued_by


@dataclass(frozen=True)
class FineBasis:
    kind: FineKind
    citation: str = ""
    daily_amount_parameter: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Ladder:
    officials: tuple[Official, ...]
    steps: tuple[Step, ...]
    fine: FineBasis

    def step(self, key: str) -> Step:
        for s in self.steps:
            if s.key == key:
                return s
        known = ", ".join(s.key for s in self.steps) or "none"
        raise LadderError(f"no step {key!r} in this ladder (steps: {known})")

    def official(self, key: str) -> Official:
        for o in self.officials:
            if o.key == key:
                return o
        raise LadderError(f"no official {key!r}")


def _get(data: Mapping[str, object], key: str, where: str) -> object:
    if key not in data:
        raise LadderError(f"{where}: {key} is required")
    return data[key]


def _choice(enum: type[E], value: object, where: str) -> E:
    try:
        return enum(str(value))
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise LadderError(f"{where}: {value!r} is not one of {allowed}") from None


def _cited(grammar: CitationGrammar, text: object, where: str) -> str:
    """``text`` in the jurisdiction's grammar, or a federal provision (``40 CFR 403.8(f)(1)(iv)``)
    that the law works within."""
    try:
        return grammar.format(grammar.parse(str(text)))
    except CitationError as e:
        try:
            return str(FederalCitation.parse(str(text)))
        except CitationError:
            raise LadderError(f"{where}: {e}") from None


def _clock(data: object, where: str) -> Clock:
    if not isinstance(data, Mapping):
        raise LadderError(f"{where}: a mapping of start, count, days or parameter")
    days = data.get("days")
    if days is not None and (not isinstance(days, int) or days < 0):
        raise LadderError(f"{where}.days: a whole number of days, not {days!r}")
    stated = bool(data.get("stated", False))
    if stated and (days is not None or data.get("parameter")):
        raise LadderError(f"{where}: a period the order states has no days or parameter of its own")
    return Clock(
        start=_choice(ClockStart, _get(data, "start", where), f"{where}.start"),
        count=_choice(DayCount, data.get("count", "calendar"), f"{where}.count"),
        days=days,
        parameter=str(data.get("parameter") or ""),
        at_least=bool(data.get("at_least", False)),
        stated=stated,
    )


def ladder_from(data: Mapping[str, object], grammar: CitationGrammar, source: str) -> Ladder:
    """The ladder a ``law.yaml`` declares (``officials``, ``ladder``, ``fine``), each citation
    read by the jurisdiction's grammar; every error names the file and the field."""
    raw_officials = data.get("officials") or {}
    if not isinstance(raw_officials, Mapping):
        raise LadderError(f"{source}: officials: a mapping of key to title")
    officials = []
    for key, o in raw_officials.items():
        where = f"{source}: officials.{key}"
        if not isinstance(o, Mapping):
            raise LadderError(f"{where}: a mapping of title and citation")
        cite = o.get("citation")
        officials.append(
            Official(
                str(key), str(_get(o, "title", where)), _cited(grammar, cite, where) if cite else ""
            )
        )
    known = {o.key for o in officials}
    raw_steps = data.get("ladder") or {}
    if not isinstance(raw_steps, Mapping):
        raise LadderError(f"{source}: ladder: a mapping of step key to step")
    steps = []
    for key, s in raw_steps.items():
        where = f"{source}: ladder.{key}"
        if not isinstance(s, Mapping):
            raise LadderError(f"{where}: a mapping")
        issued_by = str(_get(s, "issued_by", where))
        found_by = str(s.get("found_by") or "")
        answer_to = str(s.get("answer_to") or "")
        for who, field in (
            (issued_by, "issued_by"),
            (found_by, "found_by"),
            (answer_to, "answer_to"),
        ):
            if who and who not in known:
                raise LadderError(f"{where}.{field}: {who!r} is not one of the officials")
        petition = None
        if s.get("petition") is not None:
            p = s["petition"]
            pw = f"{where}.petition"
            if not isinstance(p, Mapping):
                raise LadderError(f"{pw}: a mapping")
            to = str(_get(p, "to", pw))
            if to not in known:
                raise LadderError(f"{pw}.to: {to!r} is not one of the officials")
            petition = Petition(_clock(p, pw), to, _cited(grammar, _get(p, "citation", pw), pw))
        demand = s.get("demand")
        steps.append(
            Step(
                key=str(key),
                label=str(_get(s, "label", where)),
                citation=_cited(grammar, _get(s, "citation", where), where),
                issued_by=issued_by,
                demand=None if demand is None else _choice(Demand, demand, f"{where}.demand"),
                clock=None if s.get("clock") is None else _clock(s["clock"], f"{where}.clock"),
                found_by=found_by,
                petition=petition,
                may_end_service=bool(s.get("may_end_service", False)),
                answer_to=answer_to,
            )
        )
    raw_fine = data.get("fine") or {"kind": "not_configured"}
    if not isinstance(raw_fine, Mapping):
        raise LadderError(f"{source}: fine: a mapping")
    cite = raw_fine.get("citation")
    fine = FineBasis(
        kind=_choice(FineKind, _get(raw_fine, "kind", f"{source}: fine"), f"{source}: fine.kind"),
        citation=_cited(grammar, cite, f"{source}: fine") if cite else "",
        daily_amount_parameter=str(raw_fine.get("daily_amount_parameter") or ""),
        reason=str(raw_fine.get("reason") or ""),
    )
    return Ladder(tuple(officials), tuple(steps), fine)
