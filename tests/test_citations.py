from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sewer_rules.citations import (
    Citation,
    CitationError,
    FederalCitation,
    cite,
    expand,
    lies_within,
    parse_any,
    read_cited,
)
from sewer_rules.federal.provisions import federal_provisions, federal_subject


@pytest.mark.parametrize(
    "text",
    [
        "§ 196-19 C(3)",
        "§ 196-19 D(9)(d)",
        "§ 196-15 NORMAL SEWAGE",
        "§ 196-22 B",
        "§ 196-20",
        "§ 196-19 E(1)(d)",
        "§ 196-15 WASTEWATER, DOMESTIC",
        "§ 196-18 B(2)",
    ],
)
def test_parse_format_round_trip(text: str) -> None:
    assert str(Citation.parse(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "196-19 C(3)",
        "§196-19 C(3)",
        "§ 196-14 A",
        "§ 196-24",
        "§ 196-19 c(3)",
        "§ 196-19 C(3",
        "§ 196-19 SLUG",
    ],
)
def test_malformed_citations_are_refused(text: str) -> None:
    with pytest.raises(CitationError):
        Citation.parse(text)


def test_parent_walks_up_the_subsections() -> None:
    c = cite("§ 196-19 D(9)(d)")
    assert str(c.parent) == "§ 196-19 D(9)"
    assert str(c.parent.parent) == "§ 196-19 D"  # type: ignore[union-attr]
    assert str(cite("§ 196-15 SLUG").parent) == "§ 196-15"


@given(
    st.integers(16, 23),
    st.sampled_from("ABCDEFGHIJKL"),
    st.lists(st.one_of(st.integers(1, 12).map(str), st.sampled_from("abcd")), max_size=2),
)
def test_round_trip_property(section: int, letter: str, parts: list[str]) -> None:
    c = Citation(section, (letter, *parts))
    assert Citation.parse(str(c)) == c


# --- federal citations ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "40 CFR 403.8(f)(2)(viii)",
        "40 CFR 403.8(f)(2)(viii)(E)",
        "40 CFR 403.12(e)",
        "40 CFR 403",
        "40 CFR 3.2000(b)(5)(vi)",
    ],
)
def test_a_federal_citation_round_trips(text: str) -> None:
    assert str(FederalCitation.parse(text)) == text
    assert parse_any(text) == FederalCitation.parse(text)


def test_a_federal_citation_is_read_into_its_parts() -> None:
    c = FederalCitation.parse("40 CFR 403.8(f)(2)(viii)")
    assert (c.title, c.part, c.section, c.path) == (40, 403, 8, ("f", "2", "viii"))
    assert str(c.parent) == "40 CFR 403.8(f)(2)"
    assert c.within(FederalCitation.parse("40 CFR 403.8")) and not c.within(
        FederalCitation.parse("40 CFR 403.12")
    )
    # a table is the reader's, not the citation's
    assert str(FederalCitation.parse("40 CFR 136.3(e) Table II")) == "40 CFR 136.3(e)"


@pytest.mark.parametrize("text", ["40 CFR", "CFR 403.12", "40 CFR 403.12(e", "403.12(e)"])
def test_a_malformed_federal_citation_is_refused(text: str) -> None:
    with pytest.raises(CitationError):
        FederalCitation.parse(text)


def test_every_listed_federal_provision_is_written_as_it_reads_back() -> None:
    listed = federal_provisions()
    assert FederalCitation.parse("40 CFR 403.8(f)(2)(viii)") in listed
    assert "noncompliance" in federal_subject("40 CFR 403.8(f)(2)(viii)")
    with pytest.raises(CitationError, match="not among the federal provisions"):
        federal_subject("40 CFR 403.8(f)(2)(ix)")


def test_compound_citations_and_what_lies_within() -> None:
    assert [str(c) for c in read_cited("40 CFR 403.8(f)(2)(viii); § 196-19 D(2)")] == [
        "40 CFR 403.8(f)(2)(viii)",
        "§ 196-19 D(2)",
    ]
    with pytest.raises(CitationError):
        read_cited(" ; ")
    assert lies_within("40 CFR 403.12(e)", "40 CFR 403.12")
    assert lies_within("40 CFR 403.8(f)(2)(viii); § 196-16 E", "40 CFR 403.8(f)(2)(viii)")
    assert not lies_within("40 CFR 403.8(f)(2)(viii)(E)", "40 CFR 403.8(f)(1)(iv)")
    assert lies_within("§ 196-19 D(9)(d)", "§ 196-19 D")
    assert not lies_within("§ 196-19 D(9)", "40 CFR 403.12")
    assert not lies_within("nonsense", "§ 196-19 D")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("§ 196-21 A, B", ["§ 196-21 A", "§ 196-21 B"]),
        ("§ 196-16 D–F", ["§ 196-16 D", "§ 196-16 E", "§ 196-16 F"]),
        ("§ 196-19 E(1)(a)–(c)", ["§ 196-19 E(1)(a)", "§ 196-19 E(1)(b)", "§ 196-19 E(1)(c)"]),
        ("§ 196-19 D(9)–(10)", ["§ 196-19 D(9)", "§ 196-19 D(10)"]),
        ("§ 196-19 C(3), D(8)", ["§ 196-19 C(3)", "§ 196-19 D(8)"]),
        ("§ 196-15 WASTEWATER, DOMESTIC", ["§ 196-15 WASTEWATER, DOMESTIC"]),
        ("§ 196-20", ["§ 196-20"]),
    ],
)
def test_lists_and_ranges_expand(text: str, expected: list[str]) -> None:
    assert [str(c) for c in expand(text)] == expected


def test_a_backward_range_is_refused() -> None:
    with pytest.raises(CitationError, match="not a range"):
        expand("§ 196-16 F–D")
