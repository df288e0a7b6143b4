"""How a jurisdiction's law cites itself: one grammar per jurisdiction, declared as data.

Towns write their provisions in different shapes. A New York town code cites
``§ 196-19 C(3)`` (chapter 196, section 19, subsection C, item 3) and a defined term under its
definitions section (``§ 196-15 SLUG``); EPA's model pretreatment ordinance cites
``Section 10.1`` and ``Section 2.1(B)(4)``; a code whose section numbers the software has not
yet read is cited by the official online code's permanent address of each section
(``T. Poughkeepsie Code [ecode360 6322621] B(2)``) until they are entered. Each grammar parses
a text into a :class:`ProvisionRef` (the section's key, the subsection's path, or a defined
term) and formats it back, round trip, so that a registry of sections can be checked against
the citations its rules and cases write.

The grammar is chosen in the jurisdiction's ``law.yaml`` (``grammar: {kind: town-code, ...}``,
:func:`grammar_from`); :class:`TownCodeGrammar` with chapter 196 and sections 15 to 23 reads
exactly what :class:`sewer_rules.citations.Citation` reads (tests/test_law_packages.py checks
every citation of Wappinger's registry both ways).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from .citations import CitationError

_PATH = r"(?P<path>(?:\((?:\d+|[a-z]+|[A-Z])\))*)"
_PART = re.compile(r"\((\d+|[a-z]+|[A-Z])\)")
_TERM = re.compile(r"^[A-Z][A-Z ,\-]*[A-Z]$")


@dataclass(frozen=True, order=True)
class ProvisionRef:
    """A provision in a grammar's own terms: the section's key (``"19"``, ``"10.1"``,
    ``"6322621"``), the subsection's path (``("C", "3")``) or a defined term."""

    section: str
    path: tuple[str, ...] = ()
    term: str = ""

    @property
    def parent(self) -> ProvisionRef | None:
        """The enclosing subsection or section; None for a whole section."""
        if self.term:
            return ProvisionRef(self.section)
        if not self.path:
            return None
        return ProvisionRef(self.section, self.path[:-1])


class CitationGrammar(Protocol):
    """Parses and formats the citations of one jurisdiction's law."""

    @property
    def kind(self) -> str: ...

    def parse(self, text: str) -> ProvisionRef: ...

    def format(self, ref: ProvisionRef) -> str: ...

    def example(self) -> str: ...


def _path_text(path: tuple[str, ...], lead: str = " ") -> str:
    if not path:
        return ""
    head, *parts = path
    return f"{lead}{head}" + "".join(f"({p})" for p in parts)


def _read_path(rest: str, text: str) -> tuple[str, ...]:
    match = re.fullmatch(r"(?P<head>[A-Z])" + _PATH, rest)
    if not match:
        raise CitationError(f"not a subsection: {text!r}")
    return (match["head"], *_PART.findall(match["path"]))


@dataclass(frozen=True)
class TownCodeGrammar:
    """A town code's ``§ C-S A(1)(a)``: chapter ``C``, sections ``first``..``last``, defined
    terms cited under the ``definitions`` section (``§ 196-15 SLUG``)."""

    chapter: int
    first: int
    last: int
    definitions: int | None = None
    kind: str = "town-code"

    def parse(self, text: str) -> ProvisionRef:
        match = re.fullmatch(rf"§ {self.chapter}-(?P<section>\d+)(?: (?P<rest>.+))?", text.strip())
        if not match:
            raise CitationError(f"not a citation of chapter {self.chapter}: {text!r}")
        number = int(match["section"])
        if not self.first <= number <= self.last:
            raise CitationError(
                f"§ {self.chapter}-{number} is not a section of this law "
                f"(§ {self.chapter}-{self.first} to § {self.chapter}-{self.last})"
            )
        rest = match["rest"]
        section = str(number)
        if rest is None:
            return ProvisionRef(section)
        if re.fullmatch(r"[A-Z]" + _PATH, rest):
            return ProvisionRef(section, _read_path(rest, text))
        if number == self.definitions and _TERM.match(rest):
            return ProvisionRef(section, term=rest)
        raise CitationError(f"not a subsection or defined term: {text!r}")

    def format(self, ref: ProvisionRef) -> str:
        head = f"§ {self.chapter}-{ref.section}"
        return f"{head} {ref.term}" if ref.term else head + _path_text(ref.path)

    def example(self) -> str:
        return f"§ {self.chapter}-{self.first} A"


@dataclass(frozen=True)
class ModelOrdinanceGrammar:
    """A model ordinance's ``Section 10.1`` and ``Section 2.1(B)(4)``; defined terms under the
    ``definitions`` section (``Section 1.4 SLUG LOAD``)."""

    definitions: str | None = None
    kind: str = "model-ordinance"

    def parse(self, text: str) -> ProvisionRef:
        match = re.fullmatch(r"Section (?P<section>\d+(?:\.\d+)?)(?P<rest>.*)", text.strip())
        if not match:
            raise CitationError(f"not a section of the ordinance (Section N.M): {text!r}")
        section, rest = match["section"], match["rest"]
        if not rest:
            return ProvisionRef(section)
        if rest.startswith("(") and re.fullmatch(_PATH, rest):
            return ProvisionRef(section, tuple(_PART.findall(rest)))
        term = rest.strip()
        if section == self.definitions and rest.startswith(" ") and _TERM.match(term):
            return ProvisionRef(section, term=term)
        raise CitationError(f"not a paragraph or defined term: {text!r}")

    def format(self, ref: ProvisionRef) -> str:
        head = f"Section {ref.section}"
        if ref.term:
            return f"{head} {ref.term}"
        return head + "".join(f"({p})" for p in ref.path)

    def example(self) -> str:
        return "Section 10.1"


@dataclass(frozen=True)
class OnlineCodeGrammar:
    """A code cited by the permanent address of each section in its official online edition
    (``PREFIX [ecode360 6322621] B(2)``): what can be checked by anyone while the section
    numbers themselves are not yet entered. ``prefix`` names the code."""

    prefix: str
    kind: str = "online-code"

    def parse(self, text: str) -> ProvisionRef:
        pattern = re.escape(self.prefix) + r" \[ecode360 (?P<id>\d+)\](?: (?P<rest>.+))?"
        match = re.fullmatch(pattern, text.strip())
        if not match:
            raise CitationError(f"not a citation of {self.prefix} ([ecode360 N] A(1)): {text!r}")
        rest = match["rest"]
        if rest is None:
            return ProvisionRef(match["id"])
        if _TERM.match(rest) and not re.fullmatch(r"[A-Z]" + _PATH, rest):
            return ProvisionRef(match["id"], term=rest)
        return ProvisionRef(match["id"], _read_path(rest, text))

    def format(self, ref: ProvisionRef) -> str:
        head = f"{self.prefix} [ecode360 {ref.section}]"
        return f"{head} {ref.term}" if ref.term else head + _path_text(ref.path)

    def example(self) -> str:
        return f"{self.prefix} [ecode360 1] A"


def grammar_from(data: Mapping[str, object], source: str) -> CitationGrammar:
    """The grammar a ``law.yaml`` declares; a clear error naming the file and the field."""
    kind = data.get("kind")
    try:
        if kind == "town-code":
            definitions = data.get("definitions")
            return TownCodeGrammar(
                chapter=int(str(data["chapter"])),
                first=int(str(data["first_section"])),
                last=int(str(data["last_section"])),
                definitions=None if definitions is None else int(str(definitions)),
            )
        if kind == "model-ordinance":
            definitions = data.get("definitions")
            return ModelOrdinanceGrammar(None if definitions is None else str(definitions))
        if kind == "online-code":
            return OnlineCodeGrammar(prefix=str(data["prefix"]))
    except KeyError as missing:
        raise CitationError(f"{source}: grammar: {missing.args[0]} is required") from None
    except ValueError as bad:
        raise CitationError(f"{source}: grammar: {bad}") from None
    raise CitationError(
        f"{source}: grammar: kind must be town-code, model-ordinance or online-code, not {kind!r}"
    )
