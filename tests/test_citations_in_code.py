"""Every citation the code writes names a provision that exists, at the depth it exists.

Read: every Python string literal under ``src/`` (docstrings, messages, f-string pieces, dict
values), every string value of its YAML files and the text of its HTML templates. A citation of the article (``§ 196-…``,
with lists and ranges such as ``§ 196-21 A, B`` or ``§ 196-16 D–F`` read into each provision)
must be a provision of the article's text shipped with the jurisdiction — so ``§ 196-19 F(3)``
(no such paragraph) or ``§ 196-15 D`` (§ 196-15 has A and B) fail. A federal one
(``40 CFR 403.8(f)(2)(viii)``) must be on the list of federal provisions the software relies
on (:mod:`sewer_rules.federal.provisions`), exactly.

Then where the context says what kind of provision is meant, it must fit: the provision a
violation is opened under (``section=…`` in the code, the office's ``FINDING_SECTIONS``)
must impose a duty or a prohibition (:mod:`sewer_rules.duties`); a fee parameter citing the
article must cite a provision that sets a fee (judged so by the same table: § 196-18 B(1),
B(2), § 196-23 C, D — not the duty to apply for a permit, § 196-18 B, nor the approval of
§ 196-16 E); a parameter's reference is a
provision that exists or says plainly that it is not one (a Town Board resolution, a state
statute).

Nothing is whitelisted silently: :data:`EXCEPTIONS` lists each string read that is not a
citation although it looks like one, with the reason (none today), and an exception no longer
met fails. A citation completed by formatting (``f"§ 196-18 B({permit_class})"``) is read as
far as the literal goes (``§ 196-18``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from sewer_rules.citations import Citation, CitationError, FederalCitation, expand
from sewer_rules.duties import Nature, duty_of
from sewer_rules.federal.provisions import federal_provisions
from sewer_rules.law import provisions
from sewer_rules.law_package import load_law

SRC = Path(__file__).resolve().parents[1] / "src"

# "§ 196-19" then, optionally, a defined term (§ 196-15) or subsections with lists and ranges.
_ARTICLE = re.compile(r"§ 196-(?P<section>\d\d)")
_TERM = re.compile(r" (?P<term>[A-Z][A-Z\-]*(?:(?: |, )[A-Z][A-Z\-]*)*)(?![A-Za-z(])")
_PART = r"\((?:\d+|[a-z]+)\)"
_SUBS = re.compile(
    rf" (?P<subs>[A-Z](?:{_PART})*(?:[–-](?:[A-Z]|{_PART}))?"
    rf"(?:, [A-Z](?:{_PART})*(?:[–-](?:[A-Z]|{_PART}))?)*)(?![A-Za-z(])"
)
_FEDERAL = re.compile(
    r"(?P<title>\d+) CFR (?P<head>\d+(?:\.\d+)?)(?P<parts>(?:\((?:[0-9]+|[a-z]+|[A-Z])\))*)"
    r"(?P<more>(?:, \((?:[0-9]+|[a-z]+|[A-Z])\))*)"
)

#: Strings that look like citations but are not, each with the reason (exact text found).
EXCEPTIONS: dict[str, str] = {}


def _python_strings(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def _yaml_strings(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _yaml_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _yaml_strings(v)
    elif isinstance(value, str):
        yield value


def strings_in_src() -> Iterator[tuple[str, str]]:
    """(where, text) for every string literal of src/ and string value of its YAML files."""
    for path in sorted(SRC.rglob("*.py")):
        for line, text in _python_strings(path):
            yield f"{path.relative_to(SRC)}:{line}", text
    for path in sorted(SRC.rglob("*.yaml")):
        for text in _yaml_strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            yield str(path.relative_to(SRC)), text
    for path in sorted(SRC.rglob("*.html")):  # the office's pages and letters
        yield str(path.relative_to(SRC)), path.read_text(encoding="utf-8")


def _terms(section: int, text: str) -> list[Citation] | None:
    """The defined terms a ``§ 196-15 …`` capital run names (commas join terms, and some
    terms hold a comma: ``WASTEWATER, DOMESTIC``); None when the run is not made of terms."""
    known = {c.term for c in provisions() if c.term}
    pieces = text.split(", ")
    out: list[Citation] = []
    i = 0
    while i < len(pieces):
        for j in range(len(pieces), i, -1):  # the longest run of pieces that is a term
            candidate = ", ".join(pieces[i:j])
            if candidate in known:
                out.append(Citation(section, term=candidate))
                i = j
                break
        else:
            return None
    return out


def article_citations(text: str) -> Iterator[tuple[str, list[Citation] | CitationError]]:
    """Each article citation in ``text``: (as written, the provisions it names or the error)."""
    for m in _ARTICLE.finditer(text):
        section = int(m["section"])
        rest = text[m.end() :]
        written = m.group(0)
        if section == 15 and (t := _TERM.match(rest)) and len(t["term"]) > 1:
            names = _terms(section, t["term"])
            if names is not None:
                yield written + " " + t["term"], names
                continue
            # a capital run that is not a term: an error unless it is a subsection
            if not _SUBS.match(rest):
                yield written + " " + t["term"], CitationError(f"no defined term {t['term']!r}")
                continue
        if s := _SUBS.match(rest):
            written += " " + s["subs"]
            try:
                yield written, list(expand(written))
            except CitationError as e:
                yield written, e
            continue
        try:
            yield written, [Citation(section)]
        except CitationError as e:
            yield written, e


def federal_citations(text: str) -> Iterator[tuple[str, list[FederalCitation] | CitationError]]:
    """Each ``40 CFR …`` citation in ``text``, a list of paragraphs read into each one."""
    for m in _FEDERAL.finditer(text):
        written = m.group(0)
        head = f"{m['title']} CFR {m['head']}{m['parts']}"
        try:
            first = FederalCitation.parse(head)
        except CitationError as e:
            yield written, e
            continue
        found = [first]
        for extra in re.findall(r"\(([^)]+)\)", m["more"]):
            found.append(
                FederalCitation(first.title, first.part, first.section, (*first.path[:-1], extra))
            )
        yield written, found


def _problems() -> list[str]:
    law = provisions()
    federal = federal_provisions()
    bad: list[str] = []
    for where, text in strings_in_src():
        for written, found in article_citations(text):
            if written in EXCEPTIONS:
                continue
            if isinstance(found, CitationError):
                bad.append(f"{where}: {written!r}: {found}")
                continue
            bad += [
                f"{where}: {written!r}: {c} is not in the article" for c in found if c not in law
            ]
        for written, cfr in federal_citations(text):
            if written in EXCEPTIONS:
                continue
            if isinstance(cfr, CitationError):
                bad.append(f"{where}: {written!r}: {cfr}")
                continue
            bad += [
                f"{where}: {written!r}: {c} is not on the list of federal provisions"
                for c in cfr
                if c not in federal
            ]
    return bad


def test_every_citation_in_src_names_a_provision_that_exists() -> None:
    problems = _problems()
    assert not problems, "citations that name no provision:\n" + "\n".join(problems)
    written = {
        w
        for _, text in strings_in_src()
        for w, _ in [*article_citations(text), *federal_citations(text)]
    }
    assert set(EXCEPTIONS) <= written, "an exception no longer met: drop it"


def test_the_scanner_reads_lists_ranges_terms_and_catches_wrong_depths() -> None:
    """By hand: what the scanner makes of sample sentences (so that the test above can fail)."""

    def names(text: str) -> list[str]:
        out: list[str] = []
        for _, found in article_citations(text):
            assert not isinstance(found, CitationError), found
            out += [str(c) for c in found]
        return out

    assert names("entry (§ 196-21 A, B) and approvals (§ 196-16 D–F).") == [
        "§ 196-21 A",
        "§ 196-21 B",
        "§ 196-16 D",
        "§ 196-16 E",
        "§ 196-16 F",
    ]
    assert names("§ 196-15 COOLING WATER, UNPOLLUTED WATER OR WASTE") == [
        "§ 196-15 COOLING WATER",
        "§ 196-15 UNPOLLUTED WATER OR WASTE",
    ]
    assert names("§ 196-15 WASTEWATER, DOMESTIC is one term") == ["§ 196-15 WASTEWATER, DOMESTIC"]
    assert names("§ 196-22 Penalties for offenses") == ["§ 196-22"]  # a heading, not B
    law = provisions()
    # § 196-19 F has (1) and (2) only; § 196-15 has A and B only: both found, neither exists
    for wrong in ("§ 196-19 F(3)", "§ 196-15 D"):
        ((_, found),) = article_citations(f"see {wrong}.")
        assert not isinstance(found, CitationError)
        assert [c for c in found if c not in law] == found
    ((_, cfr),) = federal_citations("reports (40 CFR 403.12(e), (h), (l))")
    assert not isinstance(cfr, CitationError)
    assert [str(c) for c in cfr] == ["40 CFR 403.12(e)", "40 CFR 403.12(h)", "40 CFR 403.12(l)"]
    ((_, deep),) = federal_citations("40 CFR 403.8(f)(2)(viii)(Z)")
    assert not isinstance(deep, CitationError) and deep[0] not in federal_provisions()


def _finding_sections() -> dict[str, str]:
    """The office's FINDING_SECTIONS, read from its source (no Django in the rules' tests)."""
    path = SRC / "sewer_office" / "enforcement" / "choices.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "FINDING_SECTIONS":
            assert node.value is not None
            value = ast.literal_eval(node.value)
            assert isinstance(value, dict)
            return {str(k): str(v) for k, v in value.items()}
    raise AssertionError("FINDING_SECTIONS not found")


def _sections_opened_in_code() -> list[tuple[str, str]]:
    """Every literal ``section="…"`` passed to a call in src/ (violations opened by code)."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if (
                        kw.arg == "section"
                        and isinstance(kw.value, ast.Constant)
                        and isinstance(kw.value.value, str)
                    ):
                        out.append((f"{path.relative_to(SRC)}:{node.lineno}", kw.value.value))
    return out


def test_a_violation_is_opened_only_under_a_provision_that_imposes_a_duty() -> None:
    wrong = [
        f"FINDING_SECTIONS[{kind!r}] = {text!r}: {duty_of(text).refusal}"
        for kind, text in _finding_sections().items()
        if not duty_of(text).imposes
    ]
    wrong += [
        f"{where}: section={text!r}: {duty_of(text).refusal}"
        for where, text in _sections_opened_in_code()
        if not duty_of(text).imposes
    ]
    assert not wrong, "\n".join(wrong)
    # the federal kinds cite what the finding shows broken, not an article stand-in
    sections = _finding_sections()
    assert sections["snc"] == "40 CFR 403.8(f)(2)(viii)"
    assert sections["report_late"] == "40 CFR 403.12"
    assert sections["milestone_missed"] == "40 CFR 403.8(f)(1)(iv)"


#: References of parameters that are not provisions, and why (the words a reference may say).
NOT_PROVISIONS = {
    "Town Board resolution": "the amount is the Town Board's to set; the article sets none",
}


def _parameters() -> Iterator[tuple[str, str, dict[str, object]]]:
    for path in sorted((SRC / "sewer_rules" / "jurisdictions").glob("*/parameters.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, entry in (data.get("parameters") or {}).items():
            if isinstance(entry, dict) and "reference" in entry:
                yield path.parent.name, str(name), entry


def test_parameter_references_exist_and_fees_cite_a_provision_that_sets_a_fee() -> None:
    law = provisions()
    wrong = []
    for town, name, entry in _parameters():
        reference = str(entry["reference"])
        first = reference.split(";")[0].strip()
        if first in NOT_PROVISIONS:
            continue
        package = load_law(town)
        if not package.rules_registry:  # a registry written as data: its own grammar and rows
            try:
                package.section(first)
            except CitationError as e:
                wrong.append(f"{town} {name}: {e}")
            continue
        if first.startswith("§"):
            cited = Citation.parse(first)
            if cited not in law:
                wrong.append(f"{town} {name}: {first} is not in the article")
            elif name.startswith("fee.") and duty_of(first).nature is not Nature.FEE:
                wrong.append(
                    f"{town} {name}: {first} {duty_of(first).why}; it sets no fee: cite the "
                    "resolution that sets it"
                )
        elif first.split(" ")[1:2] == ["CFR"]:
            if FederalCitation.parse(first) not in federal_provisions():
                wrong.append(f"{town} {name}: {first} is not on the list of federal provisions")
        else:
            wrong.append(f"{town} {name}: reference {reference!r} is neither a citation nor listed")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("name", "reference"),
    [
        ("fee.reinspection", "Town Board resolution"),
        ("invoice.due_days", "Town Board resolution"),
        ("fee.industrial_discharge_approval", "Town Board resolution"),
        ("fee.building_sewer.class_1", "§ 196-18 B(1)"),
        ("fee.subdivision_sewer.rate", "§ 196-23 C"),
    ],
)
def test_fees_and_due_days_cite_what_sets_them(name: str, reference: str) -> None:
    """The article authorises the permit fees (§ 196-18 B) and the sewer construction fee
    (§ 196-23 C); a re-inspection fee, an approval fee and a term of payment are the Town
    Board's alone."""
    (entry,) = [e for town, n, e in _parameters() if town == "wappinger" and n == name]
    assert entry["reference"] == reference


def test_the_daily_fine_is_dated_from_the_2004_amendment() -> None:
    """§ 196-22 B refers to § 122-20 Y since L.L. No. 5-2004 (2004-03-22); before it the text
    is not on file, so no amount is known and none is invented."""
    (entry,) = [
        e for town, n, e in _parameters() if town == "wappinger" and n == "fine.daily_amount"
    ]
    values = entry["values"]
    assert isinstance(values, dict)
    by_day = {str(k): v for k, v in values.items()}
    assert by_day["2004-03-22"]["value"] is None
    assert "L.L. No. 5-2004" in by_day["2004-03-22"]["authority"]
    assert by_day["1992-09-28"]["value"] is None and "not on file" in by_day["1992-09-28"]["note"]
