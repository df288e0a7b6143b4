"""The article's text ships with the jurisdiction and is read by citation."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sewer_rules.citations import Citation
from sewer_rules.law import LawError, law_text, parse_law, provision, provisions

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
