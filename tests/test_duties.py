"""Which provisions impose a duty or a prohibition (sewer_rules.duties), read from the law.

Each expectation below was decided by reading the provision's words in
jurisdictions/wappinger/article-vii.txt ("shall", "no person shall", "it shall be unlawful"
impose; a definition, a fee, a penalty, a savings clause do not).
"""

from __future__ import annotations

import json

import pytest

from sewer_rules.citations import Citation
from sewer_rules.duties import Nature, duty_of, imposes_duty, judge
from sewer_rules.law import provisions
from sewer_rules.sections import REGISTRY


@pytest.mark.parametrize(
    ("cited", "nature", "decided_by"),
    [
        ("§ 196-15 TOWN", Nature.DEFINITION, "§ 196-15"),
        ("§ 196-15 NORMAL SEWAGE", Nature.DEFINITION, "§ 196-15"),
        ("§ 196-15 B", Nature.DEFINITION, "§ 196-15"),
        ("§ 196-16 I", Nature.SAVINGS, "§ 196-16 I"),
        ("§ 196-17 G", Nature.SAVINGS, "§ 196-17 G"),
        ("§ 196-18 B(1)", Nature.FEE, "§ 196-18 B(1)"),
        ("§ 196-18 C", Nature.CHARGE, "§ 196-18 C"),
        ("§ 196-19 B", Nature.POWER, "§ 196-19 B"),
        ("§ 196-19 E(1)(d)", Nature.CHARGE, "§ 196-19 E(1)(d)"),
        ("§ 196-19 I", Nature.EVIDENCE, "§ 196-19 I"),
        ("§ 196-19 J", Nature.CHARGE, "§ 196-19 J"),
        ("§ 196-21 C", Nature.POWER, "§ 196-21 C"),
        ("§ 196-21 D", Nature.POWER, "§ 196-21 D"),
        ("§ 196-22 B", Nature.PENALTY, "§ 196-22"),  # under the penalty section
        ("§ 196-22 A", Nature.PENALTY, "§ 196-22"),
        ("§ 196-23 C", Nature.FEE, "§ 196-23 C"),
        ("§ 196-23 D", Nature.FEE, "§ 196-23 D"),
        ("§ 196-19", Nature.CONTAINER, "§ 196-19"),
        ("§ 196-19 E", Nature.CONTAINER, "§ 196-19 E"),
    ],
)
def test_provisions_that_impose_nothing(cited: str, nature: Nature, decided_by: str) -> None:
    duty = duty_of(cited)
    assert (duty.imposes, duty.nature, duty.decided_by) == (False, nature, decided_by)
    assert duty.refusal.startswith(cited + " ")


@pytest.mark.parametrize(
    ("cited", "decided_by"),
    [
        ("§ 196-16 A", "§ 196-16 A"),  # "it shall be unlawful ... to deposit"
        ("§ 196-16 E", "§ 196-16 E"),  # "written approval ... is required"
        ("§ 196-18 A", "§ 196-18 A"),  # "no unauthorized person shall uncover"
        ("§ 196-18 B", "§ 196-18 B"),  # "the owner ... shall make application"
        ("§ 196-18 H", "§ 196-18 H"),
        ("§ 196-19 A", "§ 196-19 A"),
        ("§ 196-19 C(3)", "§ 196-19 C"),  # under "no person shall discharge"
        ("§ 196-19 D(9)(d)", "§ 196-19 D"),
        ("§ 196-19 E(1)(b)", "§ 196-19 E(1)"),  # a requirement imposed binds the user
        ("§ 196-19 F(2)", "§ 196-19 F(2)"),
        ("§ 196-19 G", "§ 196-19 G"),
        ("§ 196-19 K", "§ 196-19 K"),  # "must conform"
        ("§ 196-20", "§ 196-20"),
        ("§ 196-21 A", "§ 196-21 A"),  # "shall be permitted to enter"
    ],
)
def test_provisions_that_impose_a_duty(cited: str, decided_by: str) -> None:
    duty = duty_of(cited)
    assert duty.imposes and duty.decided_by == decided_by and duty.refusal == ""


def test_the_refusal_names_the_section_and_why() -> None:
    assert duty_of("§ 196-15 TOWN").refusal == (
        "§ 196-15 TOWN is a definition: it imposes no duty, so nothing can violate it"
    )
    assert "penalty section" in duty_of("§ 196-22 B").refusal
    assert "savings clause" in duty_of("§ 196-16 I").refusal
    assert "fee section" in duty_of("§ 196-23 D").refusal


def test_federal_requirements_the_town_enforces() -> None:
    assert imposes_duty("40 CFR 403.8(f)(2)(viii)")
    assert imposes_duty("40 CFR 403.12(e)")
    assert imposes_duty("40 CFR 403.8(f)(1)(iv)")
    assert not imposes_duty("40 CFR 136.3")  # methods: the evidence, not the user's conduct
    assert not imposes_duty("40 CFR 403.120")  # not 403.12: prefixes end at a boundary
    assert duty_of("40 CFR 136.3").nature is Nature.UNKNOWN


def test_compound_citations_impose_a_duty_when_one_part_does() -> None:
    assert imposes_duty("40 CFR 403.8(f)(2)(viii); § 196-19 C(3)")
    slug = duty_of("§ 196-15 SLUG; § 196-19 D(9)(d)")
    assert slug.imposes and slug.citation == "§ 196-19 D(9)(d)"
    both = duty_of("§ 196-15 TOWN; § 196-23 D")
    assert not both.imposes and both.refusal.startswith("§ 196-15 TOWN is a definition")


def test_not_a_provision() -> None:
    assert duty_of("§ 196-19 Z").nature is Nature.UNKNOWN
    assert duty_of("196-19 C").nature is Nature.UNKNOWN


def test_every_provision_and_registry_entry_is_judged() -> None:
    """No provision of the law falls through the table (a gap would say "not judged")."""
    unjudged = [c for c in provisions() if judge(c).nature is Nature.UNKNOWN]
    assert unjudged == []
    assert all(judge(c).nature is not Nature.UNKNOWN for c in REGISTRY)
    # definitions, whatever their term, are all definitions
    terms = [c for c in provisions() if c.term]
    assert len(terms) > 20 and all(not judge(c).imposes for c in terms)
    assert judge(Citation(20)).imposes


def test_sewer_use_sections_says_whether_a_provision_can_be_violated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sewer_cli.main import main

    assert main(["sections", "§ 196-15 TOWN"]) == 0
    out = capsys.readouterr().out
    assert (
        "imposes a duty or prohibition: no — § 196-15 TOWN is a definition: it imposes no "
        "duty, so nothing can violate it"
    ) in out
    assert main(["sections", "§ 196-19 C(3)", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["duty"] == {
        "imposes": True,
        "nature": "prohibition",
        "why": "forbids the listed discharges absolutely",
        "decided_by": "§ 196-19 C",
    }
