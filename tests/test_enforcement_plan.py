"""The enforcement response plan as dated data: its format read strictly, the severity rule, the
time frames, and the fingerprint of the text a body adopts (40 CFR 403.8(f)(5))."""

from __future__ import annotations

from datetime import date

import pytest

from sewer_rules.enforcement_guide import (
    GuideError,
    Severity,
    first_response,
    load_guide,
    next_response,
    parse_guide,
)
from sewer_rules.enforcement_plan import (
    EarlierViolation,
    SeverityFacts,
    escalation_step,
    first_step,
    late,
    months_before,
    plan_rows,
    plan_sha256,
    severity_of,
)

DAY = date(2026, 3, 1)

PLAN = """
responses:
  notice_of_violation: {label: Notice of violation, citation: "§ 196-22 A", correction_clock: true}
  second_notice: {label: Second notice, citation: "§ 196-22 A", correction_clock: true}
  administrative_order: {label: Administrative order, citation: "40 CFR 403.8(f)(1)(iv)", correction_clock: true}
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
    investigation: The Superintendent reviews every finding.
    severity:
      look_back_months: 12
      significant_kinds: [damage]
      snc_is_significant: true
      harm_is_significant: false
    escalation_within_days: 30
    officials:
      notice_of_violation: Superintendent
      second_notice: Superintendent
      administrative_order: Superintendent
      referral_town_attorney: Town Attorney
      referral_for_arrest: Superintendent
    kinds:
      result_exceedance:
        escalation: [second_notice, administrative_order, referral_town_attorney]
        severities:
          isolated: {first: notice_of_violation, within_days: 30}
          recurring: {first: administrative_order, within_days: 30}
          significant: {first: administrative_order, within_days: 15, official: Town Board}
      damage:
        severities:
          isolated: {first: referral_for_arrest, within_days: 0}
          recurring: {first: referral_for_arrest, within_days: 0}
          significant: {first: referral_for_arrest, within_days: 0}
"""


def test_both_formats_are_read_and_only_the_newer_is_a_plan() -> None:
    guide = parse_guide(PLAN, "plan.yaml")
    old, new = guide.versions
    assert not old.is_plan and new.is_plan
    assert first_response(guide, "result_exceedance", date(2025, 6, 1)).code == (
        "notice_of_violation"
    )
    # under the plan the severity decides; without one the isolated answer stands
    assert first_response(guide, "result_exceedance", DAY).code == "notice_of_violation"
    assert first_response(guide, "result_exceedance", DAY, severity="recurring").code == (
        "administrative_order"
    )
    # under the older format the severity changes nothing
    assert first_response(
        guide, "result_exceedance", date(2025, 6, 1), severity="recurring"
    ).code == ("notice_of_violation")
    answer = new.kinds["result_exceedance"].severities[Severity.SIGNIFICANT]
    assert (answer.within_days, answer.official) == (15, "Town Board")  # its own official
    assert new.kinds["result_exceedance"].severities[Severity.ISOLATED].official == "Superintendent"


def test_the_bundled_plan_answers_every_kind_and_severity_with_days_and_an_official() -> None:
    guide = load_guide("wappinger")
    version = guide.on(DAY)
    assert version.is_plan and version.plan is not None
    assert "Superintendent" in version.plan.investigation
    rows = plan_rows(version)
    assert len(rows) == 3 * len(version.kinds)
    assert all(r.official and r.within_days >= 0 for r in rows)
    assert {r.response.code for r in rows if r.kind == "damage"} == {"referral_for_arrest"}
    exceedance = version.kinds["result_exceedance"].severities
    assert exceedance[Severity.ISOLATED].first.code == "notice_of_violation"
    assert exceedance[Severity.RECURRING].first.code == "administrative_order"
    # every response used has its official, by title (403.8(f)(5)(iii))
    used = {s.code for k in version.kinds.values() for s in k.escalation}
    assert used <= set(version.plan.officials)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "    investigation: The Superintendent reviews every finding.\n",
            "",
            "missing 'investigation'",
        ),
        (
            "recurring: {first: administrative_order, within_days: 30}",
            "",
            "severity recurring: missing",
        ),
        (
            "within_days: 30}\n          recurring",
            "within_days: -1}\n          recurring",
            "whole number of days",
        ),
        (
            "within_days: 30}\n          recurring",
            "within_days: true}\n          recurring",
            "whole number of days",
        ),
        ("significant_kinds: [damage]", "significant_kinds: [noise]", "unknown kind(s) noise"),
        (
            "      referral_town_attorney: Town Attorney\n",
            "",
            "no official responsible named for referral_town_attorney",
        ),
        (
            "isolated: {first: notice_of_violation, within_days: 30}",
            "isolated: {first: notice_of_violation, within_days: 30, colour: red}",
            "unknown key(s) colour",
        ),
        ("snc_is_significant: true", "snc_is_significant: yes please", "true or false"),
        (
            "        severities:\n          isolated: {first: notice_of_violation",
            "        first: notice_of_violation\n        severities:\n          isolated: {first: notice_of_violation",
            "unknown key(s) first",
        ),
        (
            "      second_notice: Superintendent\n",
            "      second_notice: Superintendent\n      warning: Clerk\n",
            "unknown response 'warning'",
        ),
        ("look_back_months: 12", "look_back_months: 0", "at least 1"),
    ],
)
def test_the_plan_format_is_read_strictly_naming_file_and_key(
    old: str, new: str, message: str
) -> None:
    assert old in PLAN, old
    with pytest.raises(GuideError, match=r"plan\.yaml: guide 2026-01-01") as exc:
        parse_guide(PLAN.replace(old, new, 1), "plan.yaml")
    assert message in str(exc.value)


def test_damage_is_referred_at_once_under_every_severity() -> None:
    text = PLAN.replace(
        "significant: {first: referral_for_arrest, within_days: 0}",
        "significant: {first: notice_of_violation, within_days: 0}",
    )
    with pytest.raises(GuideError, match="'damage'"):
        parse_guide(text, "plan.yaml")


def test_months_before_keeps_the_day_or_the_months_last() -> None:
    assert months_before(date(2026, 3, 1), 12) == date(2025, 3, 1)
    assert months_before(date(2026, 3, 31), 1) == date(2026, 2, 28)
    assert months_before(date(2024, 3, 31), 1) == date(2024, 2, 29)
    assert months_before(date(2026, 1, 15), 13) == date(2024, 12, 15)


def test_the_severity_rule() -> None:
    rule = parse_guide(PLAN, "plan.yaml").on(DAY).plan.severity  # type: ignore[union-attr]
    isolated = severity_of(rule, SeverityFacts("result_exceedance", DAY))
    assert isolated.severity is Severity.ISOLATED
    # another violation of the same kind within 12 months before it: recurring
    earlier = (EarlierViolation("VIOL-3", date(2025, 3, 1)),)
    recurring = severity_of(rule, SeverityFacts("result_exceedance", DAY, earlier))
    assert (
        recurring.severity is Severity.RECURRING and "VIOL-3 found 2025-03-01" in recurring.reason
    )
    # one day more than 12 months back, or the same day (one occasion): not recurring
    for day in (date(2025, 2, 28), DAY):
        facts = SeverityFacts("result_exceedance", DAY, (EarlierViolation("VIOL-3", day),))
        assert severity_of(rule, facts).severity is Severity.ISOLATED
    # significant: a kind the plan names; the user in SNC within the period; harm only if counted
    assert severity_of(rule, SeverityFacts("damage", DAY)).severity is Severity.SIGNIFICANT
    snc = severity_of(rule, SeverityFacts("result_exceedance", DAY, earlier, (date(2025, 9, 30),)))
    assert snc.severity is Severity.SIGNIFICANT and "40 CFR 403.8(f)(2)(viii)" in snc.reason
    stale = SeverityFacts("result_exceedance", DAY, snc_found=(date(2024, 9, 30),))
    assert severity_of(rule, stale).severity is Severity.ISOLATED
    harm = SeverityFacts("result_exceedance", DAY, harm_likely=True)
    assert severity_of(rule, harm).severity is Severity.ISOLATED  # harm_is_significant: false
    counted = type(rule)(rule.look_back_months, rule.significant_kinds, True, True)
    assert severity_of(counted, harm).severity is Severity.SIGNIFICANT


def test_time_frames_and_the_words_of_a_step() -> None:
    version = parse_guide(PLAN, "plan.yaml").on(DAY)
    rule = version.plan.severity  # type: ignore[union-attr]
    recurring = severity_of(
        rule,
        SeverityFacts("result_exceedance", DAY, (EarlierViolation("VIOL-3", date(2025, 9, 1)),)),
    )
    step = first_step(version, "result_exceedance", recurring, date(2026, 3, 2))
    assert step is not None and step.due == date(2026, 4, 1)
    assert step.text == (
        "result exceedance, recurring → administrative order within 30 days, the Superintendent"
    )
    assert not late(step, date(2026, 4, 1), date(2026, 5, 1))  # issued on its last day
    assert late(step, date(2026, 4, 2), date(2026, 4, 2))  # issued a day after
    assert not late(step, None, date(2026, 4, 1))
    assert late(step, None, date(2026, 4, 2))  # not issued, the last day passed
    response = version.kinds["result_exceedance"].escalation[0]
    after = escalation_step(
        version, "result_exceedance", recurring, response, date(2026, 5, 11), "NOV-4"
    )
    assert after is not None and after.step == "after NOV-4" and after.due == date(2026, 6, 11)
    assert "within 30 days of the deadline passing" in after.text
    # the older format is no plan: no step, no time frame
    older = parse_guide(PLAN, "plan.yaml").on(date(2025, 6, 1))
    assert first_step(older, "result_exceedance", recurring, date(2025, 6, 1)) is None


def test_escalation_never_steps_below_where_the_violation_started() -> None:
    guide = parse_guide(PLAN, "plan.yaml")
    # an administrative order first (recurring): the next step is the referral, not a second notice
    assert next_response(guide, "result_exceedance", DAY, ["administrative_order"]).code == (  # type: ignore[union-attr]
        "referral_town_attorney"
    )
    # a notice first: the whole escalation, as before
    assert next_response(guide, "result_exceedance", DAY, ["notice_of_violation"]).code == (  # type: ignore[union-attr]
        "second_notice"
    )


def test_the_fingerprint_is_of_the_text_and_changes_with_it() -> None:
    version = parse_guide(PLAN, "plan.yaml").on(DAY)
    same = parse_guide(PLAN.replace("  2026-01-01:", "  2026-01-01:  # a comment"), "x.yaml").on(
        DAY
    )
    assert plan_sha256(version) == plan_sha256(same) and len(plan_sha256(version)) == 64
    changed = parse_guide(PLAN.replace("within_days: 15", "within_days: 14"), "plan.yaml").on(DAY)
    assert plan_sha256(changed) != plan_sha256(version)
