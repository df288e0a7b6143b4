"""The schema of the parameter keys: every file is checked on load against each key's type,
unit and bounds and the rules across keys; a bad file is refused with every problem listed."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from sewer_rules.parameter_schema import SchemaError, parameter_schema, schema_from
from sewer_rules.parameters import (
    BUNDLED,
    ParameterError,
    load_jurisdiction,
    parse_parameter_text,
)

WAPPINGER = load_jurisdiction("wappinger")


def extend(values: dict[str, dict[str, Any]]) -> str:
    """A file extending wappinger, as demo does: ``{key: {date: value}}``."""
    return yaml.safe_dump(
        {
            "jurisdiction": "t",
            "parameters": {k: {"values": v} for k, v in values.items()},
        },
        sort_keys=False,
        allow_unicode=True,
    )


def refused(text: str) -> tuple[str, ...]:
    with pytest.raises(ParameterError) as info:
        parse_parameter_text(text, "t.yaml", WAPPINGER)
    return info.value.problems


def accepted(text: str) -> None:
    parse_parameter_text(text, "t.yaml", WAPPINGER)


# --- each rule, with the exact message: file, key, value, effective date, rule -----------------


def test_a_negative_daily_fine_is_refused() -> None:
    problems = refused(extend({"fine.daily_amount": {"2004-03-22": "-5.00"}}))
    assert problems == ("t.yaml: fine.daily_amount = -5.00 (from 2004-03-22): money must be ≥ 0",)


def test_a_free_fine_is_money_too() -> None:
    """0.00 is not below 0: a Town Board may set no fine (the bound is ≥, not >)."""
    accepted(extend({"fine.daily_amount": {"2004-03-22": "0.00"}}))


@pytest.mark.parametrize(("days", "ok"), [("3", False), ("9", False), ("10", True), ("30", True)])
def test_correction_period_is_at_least_the_articles_ten_days(days: str, ok: bool) -> None:
    """§ 196-22 A: "shall have 10 days" — a notice may give more, never fewer."""
    text = extend({"notice.correction_days": {"2026-01-01": days}})
    if ok:
        accepted(text)
        return
    (problem,) = refused(text)
    assert problem.startswith(f"t.yaml: notice.correction_days = {days} (from 2026-01-01): ")
    assert "must be ≥ 10 (§ 196-22 A" in problem


def test_a_correction_period_in_fractions_of_a_day_is_refused() -> None:
    (problem,) = refused(extend({"notice.correction_days": {"2026-01-01": "10.5"}}))
    assert problem.endswith("an integer must be whole")


@pytest.mark.parametrize(("rate", "ok"), [("1.5", False), ("-0.01", False), ("1", True)])
def test_a_fraction_lies_within_0_and_1(rate: str, ok: bool) -> None:
    text = extend({"fee.subdivision_sewer.rate": {"2026-01-01": rate}})
    if ok:
        accepted(text)
        return
    assert refused(text) == (
        f"t.yaml: fee.subdivision_sewer.rate = {rate} (from 2026-01-01): "
        "a fraction must be within [0, 1]",
    )


def test_a_schedule_rate_above_one_is_refused() -> None:
    table = [{"up_to": "1000.00", "rate": "0.03"}, {"up_to": None, "rate": "2"}]
    problems = refused(extend({"fee.subdivision_sewer.schedule": {"2027-01-01": table}}))
    assert problems == (
        "t.yaml: fee.subdivision_sewer.schedule bracket 2 rate = 2 (from 2027-01-01): "
        "a rate must be a fraction within [0, 1]",
    )


def test_only_a_schedule_takes_a_table() -> None:
    table = [{"up_to": None, "rate": "0.5"}]
    (problem,) = refused(extend({"fine.daily_amount": {"2027-01-01": table}}))
    assert problem.endswith("only a schedule takes a table")


@pytest.mark.parametrize(
    ("key", "value", "rule"),
    [
        ("snc.chronic_percent", "101", "a percentage must be within [0, 100]"),
        ("notice.deadline_rollover", "2", "a yes/no value must be 1 (yes) or 0 (no)"),
        ("notice.deadline_rollover", "0.5", "a yes/no value must be 1 (yes) or 0 (no)"),
        ("grease_interceptor.sizing_method", "4", "must be one of 0, 1, 2, 3"),
        ("slug.multiple", "1", "must be > 1"),
        ("ph.maximum", "15", "must be ≤ 14"),
        ("industrial_approval.term_years", "6", "must be ≤ 5"),
        ("holding_time.bod5", "0", "must be > 0"),
        ("surcharge.rate.bod", "-0.01", "money must be ≥ 0"),
    ],
)
def test_each_type_and_bound(key: str, value: str, rule: str) -> None:
    (problem,) = refused(extend({key: {"2026-01-01": value}}))
    assert problem.startswith(f"t.yaml: {key} = {value} (from 2026-01-01): {rule}")


def test_null_is_always_allowed() -> None:
    """Null = not configured (or ended): the rules then say so; no bound applies."""
    accepted(extend({"notice.correction_days": {"2026-01-01": None}}))


def test_not_a_finite_number_is_refused() -> None:
    (problem,) = refused(extend({"fine.daily_amount": {"2026-01-01": "NaN"}}))
    assert "is not a finite number" in problem


def test_dates_out_of_order_are_refused() -> None:
    problems = refused(
        extend({"fine.daily_amount": {"2024-01-01": "300.00", "2020-01-01": "250.00"}})
    )
    assert problems == (
        "t.yaml: parameter fine.daily_amount 2020-01-01: effective dates must increase, "
        "2020-01-01 is written after 2024-01-01",
    )


def test_the_same_date_twice_is_refused_even_written_two_ways() -> None:
    """A quoted and an unquoted date are two YAML keys but the same effective date."""
    text = extend({"fine.daily_amount": {"2024-01-01": "300.00"}}).replace(
        "'2024-01-01': '300.00'", "'2024-01-01': '300.00'\n      2024-01-01: '310.00'"
    )
    assert "2024-01-01: '310.00'" in text
    (problem,) = refused(text)
    assert "effective dates must increase, 2024-01-01 is written after 2024-01-01" in problem


def test_a_key_the_schema_does_not_know_is_refused() -> None:
    text = """
jurisdiction: t
parameters:
  colour.maximum:
    description: d
    reference: "§ 196-19 D(5)"
    unit: mg/l
    values:
      1992-09-28: "5"
"""
    with pytest.raises(ParameterError) as info:
        parse_parameter_text(text, "t.yaml")
    assert info.value.problems == (
        "t.yaml: parameter colour.maximum: not in the parameter schema "
        "(sewer_rules/parameter_schema.yaml): add it there with its type, unit and bounds",
    )


def test_a_unit_other_than_the_schemas_is_refused() -> None:
    text = """
jurisdiction: t
parameters:
  ph.minimum:
    description: d
    reference: "§ 196-19 C(3)"
    unit: mg/l
    values:
      1992-09-28: "5.5"
"""
    with pytest.raises(ParameterError, match="unit 'mg/l', but the schema says 'SU'"):
        parse_parameter_text(text, "t.yaml")


# --- rules across keys --------------------------------------------------------------------------


def test_a_ph_minimum_above_the_maximum_is_refused_naming_both() -> None:
    # wappinger: ph.maximum 9.5 from 1992-09-28; the file sets the minimum to 10 from 2020
    problems = refused(extend({"ph.minimum": {"2020-01-01": "10"}}))
    assert len(problems) == 1
    assert problems[0].startswith(
        "t.yaml: ph.minimum = 10 (from 2020-01-01) must be below ph.maximum = 9.5 "
        "(from 1992-09-28) (§ 196-19 C(3) and § 196-19 D(8)"
    )


def test_a_rule_is_checked_on_each_date_both_are_in_force() -> None:
    """Minimum 9.5 from 2020 breaks "below 9.5"; the maximum raised to 10 from 2021 mends it:
    one problem (the 2020 pair), none for 2021 on."""
    problems = refused(
        extend({"ph.minimum": {"2020-01-01": "9.5"}, "ph.maximum": {"2021-01-01": "10"}})
    )
    assert len(problems) == 1 and "(from 2020-01-01)" in problems[0]
    assert "ph.maximum = 9.5 (from 1992-09-28)" in problems[0]


def test_durations_are_compared_across_units() -> None:
    """1440 min = 24 h: a slug lasting longer than the whole 24-hour window is refused;
    1439 min is below 24 × 60 = 1440 min and accepted."""
    accepted(extend({"slug.minimum_duration": {"2026-01-01": "1439"}}))
    (problem,) = refused(extend({"slug.minimum_duration": {"2026-01-01": "1440"}}))
    assert "must be below slug.baseline_window = 24" in problem


def test_every_problem_is_listed_at_once() -> None:
    problems = refused(
        extend(
            {
                "fine.daily_amount": {"2004-03-22": "-5.00"},
                "notice.correction_days": {"2026-01-01": "3"},
                "fee.subdivision_sewer.rate": {"2026-01-01": "1.5"},
                "ph.minimum": {"2020-01-01": "10"},
            }
        )
    )
    assert [p.split(" ")[1] for p in problems] == [
        "fine.daily_amount",
        "notice.correction_days",
        "fee.subdivision_sewer.rate",
        "ph.minimum",
    ]
    with pytest.raises(ParameterError) as info:
        parse_parameter_text(
            extend({"fine.daily_amount": {"2004-03-22": "-5.00"}}), "t.yaml", WAPPINGER
        )
    assert (
        str(info.value) == "t.yaml: fine.daily_amount = -5.00 (from 2004-03-22): money must be ≥ 0"
    )


# --- the schema and the shipped files -----------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_the_shipped_files_pass(name: str) -> None:
    load_jurisdiction(name)  # raises ParameterError listing every problem otherwise


def test_schema_and_files_cover_each_other() -> None:
    """Every key of a shipped file is in the schema (else the load refuses it), and every
    schema key is in a shipped file — so the schema stays complete and nothing in it is dead."""
    schema = parameter_schema()
    shipped = {p.name: p.unit for name in BUNDLED for p in load_jurisdiction(name)}
    assert sorted(set(schema.keys) - set(shipped)) == []
    assert sorted(set(shipped) - set(schema.keys)) == []
    assert {k: s.unit for k, s in schema.keys.items()} == shipped


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"type": "money!", "unit": "USD", "why": "w"}, "type must be one of"),
        ({"type": "decimal", "unit": "furlong", "why": "w"}, "unknown unit"),
        ({"type": "decimal", "unit": "USD"}, "say why"),
        ({"type": "code", "unit": "1", "why": "w"}, "only a code, lists its choices"),
        ({"type": "decimal", "unit": "1", "choices": [0], "why": "w"}, "only a code"),
        ({"type": "code", "unit": "1", "choices": [None], "why": "w"}, "list of whole numbers"),
        ({"type": "decimal", "unit": "1", "min": 0.5, "why": "w"}, "write the bound quoted"),
        ({"type": "decimal", "unit": "1", "max": "lots", "why": "w"}, "not a number"),
        ({"type": "decimal", "unit": "1", "colour": "red", "why": "w"}, "unknown field"),
    ],
)
def test_a_bad_schema_entry_is_refused(entry: dict[str, Any], message: str) -> None:
    with pytest.raises(SchemaError, match=message):
        schema_from({"parameters": {"k.x": entry}}, "schema.yaml")


def test_a_rule_needs_two_comparable_keys_of_the_schema() -> None:
    keys = {
        "a.x": {"type": "decimal", "unit": "SU", "why": "w"},
        "b.x": {"type": "decimal", "unit": "mg/l", "why": "w"},
        "c.x": {"type": "decimal", "unit": "h", "why": "w"},
        "d.x": {"type": "decimal", "unit": "day", "why": "w"},
    }
    with pytest.raises(SchemaError, match="do not compare"):
        schema_from({"parameters": keys, "rules": [{"less": ["a.x", "b.x"], "why": "w"}]}, "s")
    with pytest.raises(SchemaError, match="two keys of the schema"):
        schema_from({"parameters": keys, "rules": [{"less": ["a.x", "z.x"], "why": "w"}]}, "s")
    # durations of different units compare (hours with days)
    ok = schema_from({"parameters": keys, "rules": [{"at_most": ["c.x", "d.x"], "why": "w"}]}, "s")
    assert ok.rules[0].kind == "at_most"
