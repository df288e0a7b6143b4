"""The text of Article VII, shipped with the jurisdiction and read by citation.

The article is public law; its text travels with the code (``jurisdictions/wappinger/
article-vii.txt``) so that a clone of the repository alone can check the registry of sections
against the law, and so that ``sewer-use sections "§ 196-19 C(3)"`` and the office can show the
words a finding rests on — the law beside the code, as Catala puts it.

The text is the Town Code's layout, one paragraph per line:

- ``§ 196-19 Use of public sewers.`` opens a section;
- ``C. No person shall ...`` a lettered subsection; ``(3) Any waters ...`` a numbered one
  inside it; ``(d) Unusual volume ...`` a lettered one inside that (``§ 196-19 D(9)(d)``);
- inside § 196-15 A, a line in capitals (``SLUG``) names a defined term, cited
  ``§ 196-15 SLUG``; a parenthesised explanation after the term
  (``STORM DRAIN (SOMETIMES TERMED STORM SEWER)``) is not part of its citation, and the
  numbered paragraphs of a definition belong to the definition.

Each :class:`Provision` holds its own paragraphs and those of everything it contains, so that
the text of ``§ 196-19 D(9)`` shows its items (a)–(d). Pure Python: no I/O beyond reading the
bundled file.

The text by date. The Town Code prints the article as amended, with a note under each changed
provision: ``[Added 8-18-2003 by L.L. No. 10-2003]`` under § 196-21 D, ``[Amended 3-22-2004
by L.L. No. 5-2004]`` under § 196-22 B, and ``[Adopted 9-28-1992 by L.L. No. 9-1992]`` above
the whole. Those notes are the dated history (:class:`Amendment`), and ``provision(citation,
on=day)`` gives the text in force on ``day``, so that a determination of a past day shows the
words it rested on:

- before the article's adoption, or before a provision was added, the provision was not in
  force: :attr:`TextState.NOT_IN_FORCE`, no words, the note saying when it came in;
- before an amendment, the words in force were those the amendment replaced. The shipped
  article gives only the text as amended, so those words are not on file here:
  :attr:`TextState.NOT_ON_FILE`, no words, the note naming the amendment — never a guess. A
  section containing such a provision shows its other paragraphs and, in its place, a line
  saying the words are not on file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum
from functools import cache
from importlib import resources

from .citations import FIRST_SECTION, Citation

LAW_FILE = "article-vii.txt"

_SECTION = re.compile(r"^§ 196-(\d+) (.+?)\.?$")
_LETTER = re.compile(r"^([A-Z])\. ")
_NUMBER = re.compile(r"^\((\d+)\) ")
_ITEM = re.compile(r"^\(([a-z])\) ")
_TERM = re.compile(r"^([A-Z][A-Z ,\-]*[A-Z])(?: \([^)]*\))?$")
# "[Added 8-18-2003 by L.L. No. 10-2003]": the Town Code's history note (month-day-year).
_NOTE = re.compile(
    r"^\[(?P<change>Adopted|Added|Amended) (?P<m>\d{1,2})-(?P<d>\d{1,2})-(?P<y>\d{4}) "
    r"by (?P<law>L\.L\. No\. \d+-\d{4})\]$"
)


class LawError(ValueError):
    """The bundled law text cannot be read, or a citation is not in it."""


class TextState(StrEnum):
    """What the law says of a provision on a day."""

    IN_FORCE = "in_force"  # its words are those shown
    NOT_IN_FORCE = "not_in_force"  # not (yet) part of the article that day
    NOT_ON_FILE = "not_on_file"  # in force that day, in words the shipped article lacks


@dataclass(frozen=True, order=True)
class Amendment:
    """A dated change of the article, from the Town Code's note under the provision."""

    effective: date
    citation: Citation
    change: str  # "adopted", "added" or "amended"
    law: str  # "L.L. No. 5-2004"

    def __str__(self) -> str:
        return f"{self.change} {self.effective.isoformat()} by {self.law}"


@dataclass(frozen=True)
class Provision:
    """A section, subsection or definition of the article, with its words.

    ``on`` is the day the words are those in force (None: the text as shipped, today's);
    ``state`` and ``note`` say when there are no words for that day, and why; ``history``
    lists the amendments of the provision and of what it contains.
    """

    citation: Citation
    paragraphs: tuple[str, ...]
    on: date | None = None
    state: TextState = TextState.IN_FORCE
    note: str = ""
    history: tuple[Amendment, ...] = ()

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)

    @property
    def in_force(self) -> bool:
        """Whether the provision was part of the article on its day (words on file or not)."""
        return self.state is not TextState.NOT_IN_FORCE


def _within(citation: Citation, ancestor: Citation) -> bool:
    current: Citation | None = citation
    while current is not None:
        if current == ancestor:
            return True
        current = current.parent
    return False


def _own_paragraphs(text: str) -> dict[Citation, list[str]]:
    """Each provision's own paragraphs (not those of what it contains), in the text's order."""
    own: dict[Citation, list[str]] = {}
    section: int | None = None
    path: list[str] = []
    term = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        head = _SECTION.match(line)
        if head:
            section, path, term = int(head.group(1)), [], ""
            own[Citation(section)] = [line]
            continue
        if section is None:
            continue  # the title and adoption note above § 196-15
        if m := _LETTER.match(line):
            path, term = [m.group(1)], ""
        elif (m := _NUMBER.match(line)) and path and not term:
            path = [path[0], m.group(1)]
        elif (m := _ITEM.match(line)) and len(path) >= 2 and not term:
            path = [*path[:2], m.group(1)]
        elif section == FIRST_SECTION and path == ["A"] and (m := _TERM.match(line)):
            term = m.group(1)
            own[Citation(section, term=term)] = [line]
            continue
        key = Citation(section, term=term) if term else Citation(section, tuple(path))
        own.setdefault(key, []).append(line)
    return own


def parse_law(text: str) -> dict[Citation, Provision]:
    """Split the article into provisions keyed by citation, in the order of the text."""
    own = _own_paragraphs(text)
    # Each provision's text: its own paragraphs, then those of the provisions inside it.
    full: dict[Citation, list[str]] = {c: list(p) for c, p in own.items()}
    for citation, paragraphs in own.items():
        parent = citation.parent
        while parent is not None:
            if parent in full:
                full[parent].extend(paragraphs)
            parent = parent.parent
    history = _amendments(own)
    return {
        c: Provision(c, tuple(p), history=tuple(a for a in history if _within(a.citation, c)))
        for c, p in full.items()
    }


def _note_date(match: re.Match[str]) -> date:
    return date(int(match["y"]), int(match["m"]), int(match["d"]))


def _amendments(own: dict[Citation, list[str]]) -> list[Amendment]:
    """The history notes of the text, each on the provision it stands under."""
    out = []
    for citation, paragraphs in own.items():
        for line in paragraphs:
            if m := _NOTE.match(line):
                out.append(Amendment(_note_date(m), citation, m["change"].lower(), m["law"]))
    return sorted(out)


def adoption(text: str) -> Amendment:
    """The article's adoption, from the note above its first section."""
    for raw in text.splitlines():
        if (m := _NOTE.match(raw.strip())) and m["change"] == "Adopted":
            return Amendment(_note_date(m), Citation(FIRST_SECTION), "adopted", m["law"])
    raise LawError("the law text has no adoption note ([Adopted M-D-YYYY by L.L. No. N-YYYY])")


@cache
def law_text(jurisdiction: str = "wappinger") -> str:
    """The bundled text of the article for a jurisdiction (``demo`` reads Wappinger's law)."""
    name = "wappinger" if jurisdiction == "demo" else jurisdiction
    res = resources.files("sewer_rules").joinpath("jurisdictions", name, LAW_FILE)
    try:
        return res.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LawError(f"no law text for jurisdiction {jurisdiction!r}") from None


@cache
def provisions(jurisdiction: str = "wappinger") -> dict[Citation, Provision]:
    """Every provision of the bundled article, keyed by citation."""
    return parse_law(law_text(jurisdiction))


@cache
def amendments(jurisdiction: str = "wappinger") -> tuple[Amendment, ...]:
    """The article's adoption and every dated change of it, oldest first."""
    text = law_text(jurisdiction)
    return (adoption(text), *_amendments(_own_paragraphs(text)))


def provision(
    citation: Citation | str, jurisdiction: str = "wappinger", on: date | None = None
) -> Provision:
    """The provision cited, e.g. ``provision("§ 196-19 C(3)")``; LawError if the law has none.

    ``on``: the text in force that day (see the module's docstring); None, the text as
    shipped. A provision the article did not yet contain is returned (not refused) with the
    state :attr:`TextState.NOT_IN_FORCE` and a note saying so.
    """
    c = Citation.parse(citation) if isinstance(citation, str) else citation
    try:
        today = provisions(jurisdiction)[c]
    except KeyError:
        raise LawError(f"{c} is not a provision of the article") from None
    if on is None:
        return today
    return _as_of(today, on, jurisdiction)


def _not_in_force(p: Provision, on: date, why: str) -> Provision:
    return replace(p, paragraphs=(), on=on, state=TextState.NOT_IN_FORCE, note=why)


def _as_of(today: Provision, on: date, jurisdiction: str) -> Provision:
    c = today.citation
    adopted = amendments(jurisdiction)[0]
    if on < adopted.effective:
        return _not_in_force(
            today,
            on,
            f"the article was not in force on {on.isoformat()}: adopted "
            f"{adopted.effective.isoformat()} by {adopted.law}",
        )
    later = [a for a in amendments(jurisdiction)[1:] if a.effective > on]
    # The provision itself, or one containing it, changed after ``on``.
    for a in later:
        if _within(c, a.citation):
            if a.change == "added":
                what = "it was" if a.citation == c else f"{a.citation} was"
                return _not_in_force(
                    today,
                    on,
                    f"{c} was not part of the article on {on.isoformat()}: {what} added "
                    f"{a.effective.isoformat()} by {a.law}",
                )
            return replace(
                today,
                paragraphs=(),
                on=on,
                state=TextState.NOT_ON_FILE,
                note=_not_on_file(a, on),
            )
    # Provisions inside it changed after ``on``: their words drop out, or are not on file.
    own = _own_paragraphs(law_text(jurisdiction))
    paragraphs: list[str] = []
    notes: list[str] = []
    for key, lines in own.items():
        if not _within(key, c):
            continue
        changed = next((a for a in later if _within(key, a.citation)), None)
        if changed is None:
            paragraphs += lines
        elif changed.citation == key:
            if changed.change == "added":
                notes.append(
                    f"{key} was not yet part of the article (added "
                    f"{changed.effective.isoformat()} by {changed.law})"
                )
            else:
                paragraphs.append(f"{_label(key)} [{_not_on_file(changed, on)}]")
                notes.append(_not_on_file(changed, on))
    return replace(today, paragraphs=tuple(paragraphs), on=on, note="; ".join(notes))


def _not_on_file(a: Amendment, on: date) -> str:
    return (
        f"text before {a.law} not on file: the shipped article gives {a.citation} only as "
        f"amended {a.effective.isoformat()}, so its words in force on {on.isoformat()} are "
        "not known here"
    )


def _label(c: Citation) -> str:
    """How a provision's paragraph opens: ``B.``, ``(3)``, ``(d)``, or the term."""
    if c.term:
        return c.term
    if not c.path:
        return str(c)
    last = c.path[-1]
    return f"{last}." if len(c.path) == 1 else f"({last})"
