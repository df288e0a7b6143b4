"""Citations of the article, in the one format the town uses: ``§ 196-19 C(3)``.

Sections are cited by number, subsections by letter and parenthesised numbers and letters
(``§ 196-19 D(9)(d)``), definitions of § 196-15 by their defined term
(``§ 196-15 NORMAL SEWAGE``). A citation parses and formats round-trip, so that a stored
finding can be read back and compared with the registry of sections (:mod:`sewer_rules.sections`).

Rules that rest on federal law rather than the article (laboratory holding times, sample
types) cite it with :class:`ExternalReference`, free text for what a reader sees. A federal
citation written in the form ``40 CFR 403.8(f)(2)(viii)`` also parses as a
:class:`FederalCitation` (title, part, section, parenthesised paragraphs), which
:mod:`sewer_rules.federal.provisions` checks against the list of federal provisions the
software relies on, so a typo or a paragraph at the wrong depth is caught like one of the
article's.

Prose cites several subsections at once (``§ 196-21 A, B``, ``§ 196-16 D–F``);
:func:`expand` reads such a list or range into its citations, so that a test can check every
citation the code writes, and the office can say which functions cite which provision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CHAPTER = 196
FIRST_SECTION = 15
LAST_SECTION = 23

_CITATION = re.compile(r"^§ 196-(?P<section>\d{2})(?: (?P<rest>.+))?$")
_SUBSECTION = re.compile(r"^(?P<letter>[A-Z])(?P<parts>(?:\((?:\d+|[a-z])\))*)$")
_PART = re.compile(r"\((\d+|[a-z])\)")
_TERM = re.compile(r"^[A-Z][A-Z ,\-]*[A-Z]$")


class CitationError(ValueError):
    """A text that is not a citation of Article VII in the town's format."""


@dataclass(frozen=True, order=True)
class Citation:
    """A section, subsection or defined term of Article VII.

    ``path`` holds the subsection as its letter and parenthesised parts, e.g.
    ``("D", "9", "d")`` for ``§ 196-19 D(9)(d)``; ``term`` holds a § 196-15 defined term.
    """

    section: int
    path: tuple[str, ...] = ()
    term: str = ""

    def __post_init__(self) -> None:
        if not FIRST_SECTION <= self.section <= LAST_SECTION:
            raise CitationError(f"§ 196-{self.section} is not a section of Article VII")
        if self.term and self.path:
            raise CitationError("a citation names either a subsection or a defined term")
        if self.term and self.section != FIRST_SECTION:
            raise CitationError("defined terms are cited under § 196-15")

    @classmethod
    def parse(cls, text: str) -> Citation:
        """Read ``§ 196-19 C(3)``, ``§ 196-15 SLUG`` or ``§ 196-20``."""
        match = _CITATION.match(text.strip())
        if not match:
            raise CitationError(f"not a citation of Article VII: {text!r}")
        section = int(match["section"])
        rest = match["rest"]
        if rest is None:
            return cls(section)
        sub = _SUBSECTION.match(rest)
        if sub:
            parts = tuple(_PART.findall(sub["parts"]))
            return cls(section, (sub["letter"], *parts))
        if section == FIRST_SECTION and _TERM.match(rest):
            return cls(section, term=rest)
        raise CitationError(f"not a subsection or defined term: {text!r}")

    def __str__(self) -> str:
        head = f"§ {CHAPTER}-{self.section}"
        if self.term:
            return f"{head} {self.term}"
        if not self.path:
            return head
        letter, *parts = self.path
        return f"{head} {letter}" + "".join(f"({p})" for p in parts)

    @property
    def parent(self) -> Citation | None:
        """The enclosing subsection or section; None for a whole section."""
        if self.term:
            return Citation(self.section)
        if not self.path:
            return None
        return Citation(self.section, self.path[:-1])


@dataclass(frozen=True)
class ExternalReference:
    """A rule of federal or state law the article works within (e.g. ``40 CFR 136.3``)."""

    text: str

    def __str__(self) -> str:
        return self.text


_FEDERAL = re.compile(
    r"^(?P<title>\d+) CFR (?P<part>\d+)(?:\.(?P<section>\d+))?(?P<parts>(?:\((?:[0-9]+|[a-z]+|[A-Z])\))*)$"
)
_FEDERAL_PART = re.compile(r"\(([0-9]+|[a-z]+|[A-Z])\)")


@dataclass(frozen=True, order=True)
class FederalCitation:
    """A provision of the Code of Federal Regulations: ``40 CFR 403.8(f)(2)(viii)``.

    ``part`` and ``section`` are the numbers around the dot (403 and 8); ``path`` the
    parenthesised paragraphs, ``("f", "2", "viii")``. A whole part (``40 CFR 403``) has no
    section. A trailing table (``40 CFR 136.3(e) Table II``) is part of the text a reader
    sees, not of the citation: :meth:`parse` reads the provision before it.
    """

    title: int
    part: int
    section: int | None = None
    path: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.section is None and self.path:
            raise CitationError("a paragraph is cited within a section (40 CFR 403.8(f)(1)(iv))")

    @classmethod
    def parse(cls, text: str) -> FederalCitation:
        """Read ``40 CFR 403.12(e)``, ``40 CFR 403`` or ``40 CFR 136.3(e) Table II``."""
        head = text.strip()
        if " Table " in head:
            head = head.split(" Table ", 1)[0]
        match = _FEDERAL.match(head)
        if not match:
            raise CitationError(f"not a citation of the Code of Federal Regulations: {text!r}")
        section = match["section"]
        return cls(
            int(match["title"]),
            int(match["part"]),
            None if section is None else int(section),
            tuple(_FEDERAL_PART.findall(match["parts"])),
        )

    def __str__(self) -> str:
        head = f"{self.title} CFR {self.part}"
        if self.section is None:
            return head
        return f"{head}.{self.section}" + "".join(f"({p})" for p in self.path)

    @property
    def parent(self) -> FederalCitation | None:
        """The enclosing paragraph, section or part; None for a whole part."""
        if self.path:
            return FederalCitation(self.title, self.part, self.section, self.path[:-1])
        if self.section is not None:
            return FederalCitation(self.title, self.part)
        return None

    def within(self, other: FederalCitation) -> bool:
        """Whether this provision is ``other`` or lies inside it."""
        current: FederalCitation | None = self
        while current is not None:
            if current == other:
                return True
            current = current.parent
        return False


def parse_any(text: str) -> Citation | FederalCitation:
    """An article citation (``§ 196-…``) or a federal one (``40 CFR …``); CitationError else."""
    stripped = text.strip()
    if stripped.startswith("§"):
        return Citation.parse(stripped)
    return FederalCitation.parse(stripped)


_HEAD = re.compile(r"^(?P<head>§ 196-\d\d) (?P<rest>.+)$")
_LETTER_RANGE = re.compile(r"^(?P<a>[A-Z])[–-](?P<b>[A-Z])$")
_ITEM_RANGE = re.compile(
    r"^(?P<base>[A-Z](?:\((?:\d+|[a-z])\))*)\((?P<a>[a-z]|\d+)\)[–-]\((?P<b>[a-z]|\d+)\)$"
)


def _span(a: str, b: str) -> list[str]:
    """The parts from ``a`` to ``b``: ``5``–``7`` or ``a``–``c``; CitationError otherwise."""
    if a.isdigit() and b.isdigit() and int(a) < int(b):
        return [str(n) for n in range(int(a), int(b) + 1)]
    if a.isalpha() and b.isalpha() and a < b:
        return [chr(c) for c in range(ord(a), ord(b) + 1)]
    raise CitationError(f"not a range of subsections: ({a})–({b})")


def expand(text: str) -> tuple[Citation, ...]:
    """The citations a prose list or range names, in order.

    ``§ 196-21 A, B`` → A and B; ``§ 196-16 D–F`` → D, E and F; ``§ 196-19 E(1)(a)–(c)`` →
    (a), (b) and (c); a single citation → itself. CitationError when a piece is not a
    subsection. A defined term is never split: ``§ 196-15 WASTEWATER, DOMESTIC`` is one term
    with a comma in it.
    """
    stripped = text.strip()
    match = _HEAD.match(stripped)
    if match is None:
        return (Citation.parse(stripped),)
    head, pieces = match["head"], match["rest"].split(", ")
    first = pieces[0]
    if not (_SUBSECTION.match(first) or _LETTER_RANGE.match(first) or _ITEM_RANGE.match(first)):
        return (Citation.parse(stripped),)  # a defined term, or not a citation at all
    out: list[Citation] = []
    for piece in pieces:
        if letters := _LETTER_RANGE.match(piece):
            a, b = letters["a"], letters["b"]
            if a >= b:
                raise CitationError(f"not a range of subsections: {head} {piece}")
            out += [Citation.parse(f"{head} {chr(c)}") for c in range(ord(a), ord(b) + 1)]
        elif items := _ITEM_RANGE.match(piece):
            base = Citation.parse(f"{head} {items['base']}")
            out += [Citation(base.section, (*base.path, p)) for p in _span(items["a"], items["b"])]
        else:
            out.append(Citation.parse(f"{head} {piece}"))
    return tuple(out)


def read_cited(text: str) -> tuple[Citation | FederalCitation, ...]:
    """The provisions a cited text names, in order: one citation, or several joined by "; "
    (a finding's "§ 196-15 SLUG; § 196-19 D(9)(d)", a violation's
    "40 CFR 403.8(f)(2)(viii); § 196-19 D(2)"). CitationError naming the piece that is not one."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if not parts:
        raise CitationError("no citation given")
    return tuple(parse_any(p) for p in parts)


def lies_within(text: str, provision: str) -> bool:
    """Whether the first provision ``text`` cites is ``provision`` or lies inside it
    (``40 CFR 403.12(e)`` within ``40 CFR 403.12``); False when either is not a citation."""
    try:
        first, outer = read_cited(text)[0], parse_any(provision)
    except CitationError:
        return False
    if isinstance(first, FederalCitation) and isinstance(outer, FederalCitation):
        return first.within(outer)
    current: Citation | FederalCitation | None = first
    while current is not None:
        if current == outer:
            return True
        current = current.parent
    return False


def cite(text: str) -> Citation:
    """Shorthand used beside the rules: ``cite("§ 196-19 C(3)")``."""
    return Citation.parse(text)
