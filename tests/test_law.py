"""The article's text ships with the jurisdiction and is read by citation."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path

import pytest

from sewer_rules.citations import Citation
from sewer_rules.law import (
    Amendment,
    LawError,
    TextState,
    amendments,
    law_text,
    parse_law,
    provision,
    provisions,
)

ROOT = Path(__file__).resolve().parents[1]


def test_the_text_is_the_bundled_article() -> None:
    text = law_text("wappinger")
    assert text.startswith("Town of Wappinger, NY Article VII Sewer Use")
    assert "§ 196-23 Construction of sewer mains by developers" in text
    assert law_text("demo") == text  # the demo town runs Wappinger's law


def test_a_numbered_subsection_is_its_own_paragraph() -> None:
    p = provision("§ 196-19 C(3)")
    assert p.citation == Citation(19, ("C", "3"))
    assert p.text == (
        "(3) Any waters or wastes having a pH lower than 5.5 or having any other corrosive "
        "property capable of causing damage or hazard to structures, equipment and personnel "
        "or the wastewater facilities."
    )


def test_a_definition_is_cited_by_its_term_without_the_parenthesis() -> None:
    slug = provision("§ 196-15 SLUG")
    assert slug.paragraphs[0] == "SLUG"
    assert "average twenty-four-hour concentration of flows during normal operation" in slug.text
    drain = provision("§ 196-15 STORM DRAIN")
    assert drain.paragraphs[0] == "STORM DRAIN (SOMETIMES TERMED STORM SEWER)"
    # the numbered paragraphs of a definition belong to it, not to § 196-15 A
    sanitary = provision("§ 196-15 WASTEWATER, SANITARY")
    assert len(sanitary.paragraphs) == 4 and sanitary.paragraphs[3].startswith("(3) The water")
    assert Citation(15, ("A", "1")) not in provisions()


def test_a_provision_contains_its_items_and_items_stay_apart() -> None:
    d9 = provision("§ 196-19 D(9)")
    assert d9.paragraphs[0] == "(9) Materials which exert or cause:"
    assert [p[:3] for p in d9.paragraphs[1:]] == ["(a)", "(b)", "(c)", "(d)"]
    d9d = provision("§ 196-19 D(9)(d)")
    assert d9d.text.startswith("(d) Unusual volume of flow") and "immediately reported" in d9d.text
    e1d = provision("§ 196-19 E(1)(d)")
    assert "Require payment" in e1d.text
    whole = provision("§ 196-19")
    assert whole.paragraphs[0] == "§ 196-19 Use of public sewers."
    assert d9d.text in whole.text and "(10) Waters or wastes" in whole.text


def test_a_section_without_subsections_and_amendment_notes() -> None:
    assert "disorderly conduct" in provision("§ 196-20").text
    assert provision("§ 196-21 D").paragraphs[-1] == "[Added 8-18-2003 by L.L. No. 10-2003]"


def test_parsing_a_small_text() -> None:
    text = (
        "Title\n\n§ 196-15 Definitions.\n\nA. Terms:\n\nFOO (ALSO BAR)\n\nA foo.\n\n"
        "(1) first sense\n\nB. Shall.\n\n§ 196-19 Use.\n\nD. Intro\n\n(9) Nine\n\n(d) Dee\n"
    )
    law = parse_law(text)
    assert [str(c) for c in law] == [
        "§ 196-15",
        "§ 196-15 A",
        "§ 196-15 FOO",
        "§ 196-15 B",
        "§ 196-19",
        "§ 196-19 D",
        "§ 196-19 D(9)",
        "§ 196-19 D(9)(d)",
    ]
    assert law[Citation.parse("§ 196-15 FOO")].paragraphs == (
        "FOO (ALSO BAR)",
        "A foo.",
        "(1) first sense",
    )
    assert law[Citation.parse("§ 196-19 D")].paragraphs == ("D. Intro", "(9) Nine", "(d) Dee")


def test_an_unknown_citation_is_an_error() -> None:
    with pytest.raises(LawError, match="§ 196-19 C"):
        provision("§ 196-19 C(9)")
    with pytest.raises(LawError, match="no law text"):
        law_text("atlantis")


def test_nothing_in_the_repository_reads_outside_it() -> None:
    """A clone alone must pass: no source, test, benchmark or Makefile reaches for the folder beside the clone."""
    needle = "../" + "shared"  # spelled in two pieces so that this file does not match itself
    hits = subprocess.run(
        [
            "grep",
            "-rn",
            "-I",
            "--exclude-dir=__pycache__",
            needle,
            "src",
            "tests",
            "bench",
            "Makefile",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert hits.returncode == 1, f"references to {needle}:\n{hits.stdout}{hits.stderr}"
    # nor builds the path piecewise, e.g. a parent of the checkout joined with the shared folder
    parents = subprocess.run(
        [
            "grep",
            "-rnE",
            "-I",
            "--exclude-dir=__pycache__",
            r"/ *[\"']shar[e]d[\"']",
            "src",
            "tests",
            "bench",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert parents.returncode == 1, parents.stdout


# --- the text by date ------------------------------------------------------------------------


def test_the_history_is_read_from_the_town_codes_notes() -> None:
    """Adopted 9-28-1992 (L.L. No. 9-1992); § 196-21 D added 8-18-2003 (L.L. No. 10-2003);
    § 196-22 B amended 3-22-2004 (L.L. No. 5-2004) — the notes of the shipped text."""
    assert amendments() == (
        Amendment(date(1992, 9, 28), Citation(15), "adopted", "L.L. No. 9-1992"),
        Amendment(date(2003, 8, 18), Citation(21, ("D",)), "added", "L.L. No. 10-2003"),
        Amendment(date(2004, 3, 22), Citation(22, ("B",)), "amended", "L.L. No. 5-2004"),
    )
    assert [str(a) for a in provision("§ 196-22").history] == [
        "amended 2004-03-22 by L.L. No. 5-2004"
    ]
    assert provision("§ 196-19 C(3)").history == ()


def test_today_is_the_default_and_the_text_as_shipped() -> None:
    shipped = provision("§ 196-22 B")
    assert shipped.on is None and shipped.state is TextState.IN_FORCE
    dated = provision("§ 196-22 B", on=date(2026, 12, 6))
    assert dated.paragraphs == shipped.paragraphs and dated.note == ""


def test_a_provision_added_later_is_absent_not_an_error() -> None:
    before = provision("§ 196-21 D", on=date(2003, 8, 17))
    assert before.state is TextState.NOT_IN_FORCE and not before.in_force
    assert before.paragraphs == ()
    assert before.note == (
        "§ 196-21 D was not part of the article on 2003-08-17: it was added 2003-08-18 by "
        "L.L. No. 10-2003"
    )
    on_the_day = provision("§ 196-21 D", on=date(2003, 8, 18))
    assert on_the_day.state is TextState.IN_FORCE
    assert on_the_day.paragraphs == provision("§ 196-21 D").paragraphs
    # the section before it: A, B and C only, saying why D is missing
    section = provision("§ 196-21", on=date(2000, 1, 1))
    assert section.state is TextState.IN_FORCE
    assert [p[:2] for p in section.paragraphs[1:]] == ["A.", "B.", "C."]
    assert "§ 196-21 D was not yet part of the article (added 2003-08-18" in section.note


def test_an_amended_provision_before_its_amendment_is_not_on_file() -> None:
    """The shipped article gives § 196-22 B only as amended: its earlier words are not known
    here, and nothing is invented in their place."""
    before = provision("§ 196-22 B", on=date(2004, 3, 21))
    assert before.state is TextState.NOT_ON_FILE and before.in_force
    assert before.paragraphs == ()
    assert before.note.startswith("text before L.L. No. 5-2004 not on file")
    section = provision("§ 196-22", on=date(1999, 1, 1))
    assert section.paragraphs[2] == f"B. [{section.note}]"
    assert [p[:2] for p in section.paragraphs[1:]] == ["A.", "B.", "C.", "D."]
    assert "122-20Y" not in section.text  # the amended words never stand for the old ones
    after = provision("§ 196-22 B", on=date(2004, 3, 22))
    assert after.state is TextState.IN_FORCE and "122-20Y" in after.text


def test_before_the_adoption_nothing_is_in_force() -> None:
    for c in ("§ 196-19 C(3)", "§ 196-15 SLUG", "§ 196-23"):
        p = provision(c, on=date(1992, 9, 27))
        assert p.state is TextState.NOT_IN_FORCE and p.paragraphs == ()
        assert "adopted 1992-09-28 by L.L. No. 9-1992" in p.note
    assert provision("§ 196-19 C(3)", on=date(1992, 9, 28)).state is TextState.IN_FORCE


def test_a_text_without_an_adoption_note_is_refused() -> None:
    from sewer_rules.law import adoption

    with pytest.raises(LawError, match="no adoption note"):
        adoption("§ 196-15 Definitions.\n\nA. Terms:\n")
