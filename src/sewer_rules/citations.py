"""Citations of the article, in the one format the town uses: ``§ 196-19 C(3)``.

Sections are cited by number, subsections by letter and parenthesised numbers and letters
(``§ 196-19 D(9)(d)``), definitions of § 196-15 by their defined term
(``§ 196-15 NORMAL SEWAGE``). A citation parses and formats round-trip, so that a stored
finding can be read back and compared with the registry of sections (:mod:`sewer_rules.sections`).

Rules that rest on federal law rather than the article (laboratory holding times, sample
types) cite it with :class:`ExternalReference`, which is free text and not checked against
the registry.
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


def cite(text: str) -> Citation:
    """Shorthand used beside the rules: ``cite("§ 196-19 C(3)")``."""
    return Citation.parse(text)
