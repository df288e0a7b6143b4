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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .citations import FIRST_SECTION, Citation

LAW_FILE = "article-vii.txt"

_SECTION = re.compile(r"^§ 196-(\d+) (.+?)\.?$")
_LETTER = re.compile(r"^([A-Z])\. ")
_NUMBER = re.compile(r"^\((\d+)\) ")
_ITEM = re.compile(r"^\(([a-z])\) ")
_TERM = re.compile(r"^([A-Z][A-Z ,\-]*[A-Z])(?: \([^)]*\))?$")


class LawError(ValueError):
    """The bundled law text cannot be read, or a citation is not in it."""


@dataclass(frozen=True)
class Provision:
    """A section, subsection or definition of the article, with its words."""

    citation: Citation
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


def parse_law(text: str) -> dict[Citation, Provision]:
    """Split the article into provisions keyed by citation, in the order of the text."""
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
    # Each provision's text: its own paragraphs, then those of the provisions inside it.
    full: dict[Citation, list[str]] = {c: list(p) for c, p in own.items()}
    for citation, paragraphs in own.items():
        parent = citation.parent
        while parent is not None:
            if parent in full:
                full[parent].extend(paragraphs)
            parent = parent.parent
    return {c: Provision(c, tuple(p)) for c, p in full.items()}


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


def provision(citation: Citation | str, jurisdiction: str = "wappinger") -> Provision:
    """The provision cited, e.g. ``provision("§ 196-19 C(3)")``; LawError if the law has none."""
    c = Citation.parse(citation) if isinstance(citation, str) else citation
    try:
        return provisions(jurisdiction)[c]
    except KeyError:
        raise LawError(f"{c} is not a provision of the article") from None
