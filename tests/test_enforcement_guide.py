"""The enforcement response guide is dated data, read strictly; § 196-20 is referred at once."""

from __future__ import annotations

from datetime import date

import pytest

from sewer_rules.citations import cite
from sewer_rules.enforcement_guide import (
    GuideError,
    first_response,
    load_guide,
    next_response,
    parse_guide,
)

DAY = date(2026, 3, 1)

SMALL = """
responses:
  notice_of_violation: {label: NOV, citation: "§ 196-22 A", correction_clock: true}
  referral_town_attorney: {label: Attorney, citation: "§ 196-22 B", correction_clock: false}
  referral_for_arrest: {label: Arrest, citation: "§ 196-20", correction_clock: false}
guide:
  2020-01-01:
    authority: resolution 2020-1
    kinds:
      result_exceedance: {first: notice_of_violation, escalation: [referral_town_attorney]}
      damage: {first: referral_for_arrest}
  2026-01-01:
    authority: resolution 2026-7
    kinds:
      result_exceedance: {first: referral_town_attorney}
      damage: {first: referral_for_arrest}
"""


def test_wappinger_guide_gives_every_kind_a_first_response_with_its_citation() -> None:
    guide = load_guide("wappinger")
    version = guide.on(DAY)
    assert "not adopted by the Town Board" in version.authority
    single = first_response(guide, "result_exceedance", DAY)
    assert single.code == "notice_of_violation"
    assert str(single.citation) == "§ 196-22 A"
    assert single.correction_clock
    snc = first_response(guide, "significant_noncompliance", DAY)
    assert snc.code == "administrative_order"


def test_escalation_follows_the_guide_after_an_uncorrected_deadline() -> None:
    guide = load_guide("wappinger")
    taken = ["notice_of_violation"]
    steps = []
    while (step := next_response(guide, "result_exceedance", DAY, taken)) is not None:
        steps.append(step.code)
        taken.append(step.code)
    assert steps == [
        "second_notice",
        "administrative_order",
        "referral_town_attorney",
        "injunction_request",
    ]
    assert str(guide.responses["injunction_request"].citation) == "§ 196-22 D"


def test_section_196_20_is_referred_at_once_whatever_the_kind() -> None:
    guide = load_guide("wappinger")
    response = first_response(guide, "discharge_seen", DAY, violated=cite("§ 196-20"))
    assert response.code == "referral_for_arrest"
    assert not response.correction_clock


def test_a_newer_dated_guide_replaces_the_older_from_its_date() -> None:
    guide = parse_guide(SMALL, "small.yaml")
    assert first_response(guide, "result_exceedance", date(2025, 12, 31)).code == (
        "notice_of_violation"
    )
    assert first_response(guide, "result_exceedance", date(2026, 1, 1)).code == (
        "referral_town_attorney"
    )
    assert guide.on(date(2026, 1, 1)).authority == "resolution 2026-7"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SMALL.replace("first: notice_of_violation", "first: warning_letter"), "unknown response"),
        (SMALL.replace("authority: resolution 2020-1", "authority: ''"), "missing 'authority'"),
        (SMALL.replace("label: NOV,", "label: NOV, colour: red,"), "unknown key(s) colour"),
        (SMALL.replace("damage: {first: referral_for_arrest}\n  2026", "\n  2026"), "'damage'"),
        (SMALL + "guide: {}\n", "duplicate key"),
    ],
)
def test_the_loader_is_strict(text: str, message: str) -> None:
    with pytest.raises(GuideError, match=r"small\.yaml") as exc:
        parse_guide(text, "small.yaml")
    assert message in str(exc.value)


def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(GuideError, match="known: damage, result_exceedance"):
        first_response(parse_guide(SMALL, "small.yaml"), "noise", DAY)


def test_the_bundled_guide_cites_what_each_response_rests_on() -> None:
    """An administrative order imposes a compliance schedule under the Control Authority's
    power of 40 CFR 403.8(f)(1)(iv) (§ 196-19 E(1) reaches only § 196-19 D wastes); a
    prohibited discharge seen on inspection is one of § 196-19 A, C or D — § 196-19 B (storm
    water to storm sewers) prohibits nothing."""
    from datetime import date

    from sewer_rules.citations import ExternalReference
    from sewer_rules.enforcement_guide import load_guide

    guide = load_guide("wappinger")
    order = guide.responses["administrative_order"].citation
    assert isinstance(order, ExternalReference) and str(order) == "40 CFR 403.8(f)(1)(iv)"
    label = guide.kind("discharge_seen", date(2026, 1, 5)).label
    assert label.endswith("(§ 196-19 A, C, D)") and "B" not in label.split("§ 196-19")[1]
