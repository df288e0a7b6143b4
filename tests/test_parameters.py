from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from sewer_rules.law_package import load_law
from sewer_rules.parameters import (
    BUNDLED,
    Bracket,
    ParameterError,
    load_jurisdiction,
    parse_parameter_text,
)

GOOD = """
jurisdiction: t
parameters:
  ph.minimum:
    description: d
    reference: "§ 196-19 C(3)"
    unit: SU
    values:
      1992-09-28: {value: "5.5", authority: L.L. No. 9-1992}
      2030-01-01: "6"
"""


def test_values_by_date() -> None:
    p = parse_parameter_text(GOOD, "t.yaml")
    assert p.get("ph.minimum", date(2029, 12, 31)).value == Decimal("5.5")
    assert p.get("ph.minimum", date(2030, 1, 1)).value == Decimal("6")
    with pytest.raises(ParameterError, match="no value before"):
        p.get("ph.minimum", date(1992, 9, 27))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace('      2030-01-01: "6"\n', '      1992-09-28: "6"\n'), "duplicate key"),
        (GOOD.replace("    unit: SU\n", "    unit: SU\n    colour: red\n"), "unknown key"),
        (GOOD.replace("2030-01-01", "2030-13-01"), "not a date"),
        (GOOD.replace("unit: SU", "unit: furlongs"), "unknown unit"),
        (GOOD.replace('"§ 196-19 C(3)"', '"§ 196-19 c3"'), "not a"),
        (GOOD.replace('"6"', '"six"'), "not a number"),
        (GOOD.replace("jurisdiction: t\n", "jurisdiction: t\nextra: 1\n"), "unknown key"),
    ],
)
def test_strict_loader_refuses(text: str, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        parse_parameter_text(text, "t.yaml")


def test_float_money_is_an_error() -> None:
    text = GOOD.replace("unit: SU", "unit: USD").replace('"6"', "25.5")
    with pytest.raises(ParameterError, match="money must be written exactly"):
        parse_parameter_text(text, "t.yaml")


def test_wappinger_ships_resolution_amounts_unconfigured() -> None:
    w = load_jurisdiction("wappinger")
    on = date(2026, 3, 2)
    for name in (
        "fee.building_sewer.class_1",
        "fee.building_sewer.class_2",
        "fine.daily_amount",
        "surcharge.rate.bod",
        "local_limit.copper",
        "local_limit.phenols",
    ):
        assert w.get(name, on).value is None, name
    assert w.value("ph.minimum", on) == Decimal("5.5")
    assert w.value("temperature.maximum", on) == Decimal("150")


def test_demo_extends_wappinger_with_labelled_amounts() -> None:
    d = load_jurisdiction("demo")
    fine = d.get("fine.daily_amount", date(2026, 3, 2))
    assert fine.value == Decimal("350.00")
    assert "EXAMPLE" in fine.authority
    assert d.value("ph.minimum", date(2026, 3, 2)) == Decimal("5.5")
    assert "EXAMPLE" in d.notice


@pytest.mark.parametrize("name", BUNDLED)
def test_every_month_has_exactly_one_value_in_force(name: str) -> None:
    """Temporal walk: from 1992-09 to a year ahead, no gap (and, keyed by date, no overlap)."""
    params = load_jurisdiction(name)
    start = load_law(name).in_force
    assert start is not None, f"{name}: its law.yaml says from when it is in force"
    end = datetime.now(ZoneInfo("America/New_York")).date() + timedelta(days=366)
    for p in params:
        dates = [v.effective for v in p.values]
        assert dates == sorted(set(dates)), f"{p.name}: effective dates repeat"
        assert dates[0] <= start, f"{p.name} starts after the law is in force ({start})"
        month = start
        while month <= end:
            in_force = [v for v in p.values if v.effective <= month]
            assert in_force, f"{p.name}: gap on {month}"
            month = (month.replace(day=1) + timedelta(days=32)).replace(day=1)


SCHEDULE = """
jurisdiction: t
parameters:
  fee.subdivision_sewer.schedule:
    description: d
    reference: "§ 196-23 C"
    unit: USD
    values:
      1992-09-28: null
      2027-01-01:
        value:
          - {up_to: "100000.00", rate: "0.03"}
          - {up_to: null, rate: "0.02"}
        authority: EXAMPLE
"""


def test_a_value_may_be_a_bracket_table() -> None:
    p = parse_parameter_text(SCHEDULE, "t.yaml")
    before = p.get("fee.subdivision_sewer.schedule", date(2026, 12, 31))
    assert before.table is None and not before.configured
    pv = p.get("fee.subdivision_sewer.schedule", date(2027, 1, 1))
    assert pv.configured and pv.value is None and pv.authority == "EXAMPLE"
    assert pv.table == (
        Bracket(Decimal("100000.00"), Decimal("0.03")),
        Bracket(None, Decimal("0.02")),
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('{up_to: "100000.00", rate: "0.03"}', '{up_to: 100000.5, rate: "0.03"}', "money must"),
        ('{up_to: null, rate: "0.02"}', '{up_to: "90000", rate: "0.02"}', "above the bracket"),
        ('{up_to: null, rate: "0.02"}', '{up_to: "200000", rate: "0.02"}', "must be unbounded"),
        ('{up_to: "100000.00", rate: "0.03"}', '{up_to: null, rate: "0.03"}', "only the last"),
        ('rate: "0.02"}', 'rate: "-0.02"}', "non-negative"),
        ('rate: "0.02"}', 'rate: "0.02", cap: "5"}', "unknown key"),
        ('{up_to: null, rate: "0.02"}', '{rate: "0.02"}', "needs 'up_to'"),
    ],
)
def test_a_bad_bracket_table_is_refused(old: str, new: str, message: str) -> None:
    assert old in SCHEDULE
    with pytest.raises(ParameterError, match=message):
        parse_parameter_text(SCHEDULE.replace(old, new), "t.yaml")


def test_empty_table_is_refused() -> None:
    text = SCHEDULE.split("        value:")[0] + "        value: []\n"
    with pytest.raises(ParameterError, match="at least one bracket"):
        parse_parameter_text(text, "t.yaml")


def test_subdivision_schedule_not_configured_in_wappinger_example_in_demo() -> None:
    on = date(2027, 3, 1)
    w = load_jurisdiction("wappinger").get("fee.subdivision_sewer.schedule", on)
    assert w.table is None and w.value is None
    d = load_jurisdiction("demo").get("fee.subdivision_sewer.schedule", on)
    assert d.table is not None and d.table[-1].up_to is None and "EXAMPLE" in d.authority


def test_a_table_reads_as_text() -> None:
    pv = parse_parameter_text(SCHEDULE, "t.yaml").get(
        "fee.subdivision_sewer.schedule", date(2027, 1, 1)
    )
    assert pv.text == "0.03 up to 100000.00; 0.02 above"
