from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sewer_rules.citations import Citation, CitationError, cite


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
