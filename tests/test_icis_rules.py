"""The pure decisions between the office's records and the ICIS-NPDES report
(sewer_rules.icis_report), and the jurisdiction's text parameters that configure it."""

from __future__ import annotations

from datetime import date

import pytest

from sewer_rules.icis_report import (
    Mechanism,
    Sampling,
    icis_data,
    indicators,
    listing_months,
    local_limit_analytes,
    month_text,
    report_period,
    required_samples,
)
from sewer_rules.parameters import ParameterError, load_jurisdiction, parse_parameter_text

D = date


def test_listing_months_are_those_the_determinations_share_with_the_period() -> None:
    spans = [(D(2025, 7, 1), D(2025, 12, 31)), (D(2026, 1, 1), D(2026, 6, 30))]
    months = listing_months(spans, D(2026, 1, 1), D(2026, 12, 31))
    assert months == tuple((2026, m) for m in range(1, 7))
    # a rolling window crossing the year, one day in a month lists the month
    assert listing_months([(D(2025, 10, 1), D(2026, 3, 31))], D(2026, 3, 31), D(2026, 12, 31)) == (
        (2026, 3),
    )
    assert listing_months([(D(2024, 1, 1), D(2024, 6, 30))], D(2026, 1, 1), D(2026, 12, 31)) == ()
    # overlapping determinations list a month once
    twice = [(D(2026, 1, 1), D(2026, 6, 30)), (D(2026, 4, 1), D(2026, 9, 30))]
    assert len(listing_months(twice, D(2026, 1, 1), D(2026, 12, 31))) == 9


def test_a_month_is_written_in_the_configured_form_seven_characters() -> None:
    assert month_text(2026, 3, "MM/YYYY") == "03/2026"
    assert month_text(2026, 11, "YYYY-MM") == "2026-11"
    with pytest.raises(ValueError, match="not a form of month"):
        month_text(2026, 3, "MMYYYY")


def test_required_samples_share_a_sample_per_point_and_type_and_are_prorated() -> None:
    monthly = [Sampling("CM-1", "composite", 12), Sampling("cm-1", "composite", 12)]
    weekly = [Sampling("CM-1", "grab", 52)]
    year = (D(2026, 1, 1), D(2026, 12, 31))
    whole = Mechanism(D(2020, 1, 1), None, (*monthly, *weekly))
    assert required_samples([whole], *year) == 64  # 12 composites carry both + 52 grabs
    # another sampling point is other samples
    two = Mechanism(D(2020, 1, 1), None, (*monthly, Sampling("CM-2", "composite", 4)))
    assert required_samples([two], *year) == 16
    # in force from April 1: 275 of 365 days → 64 × 275 / 365 = 48.2 → 48
    april = Mechanism(D(2026, 4, 1), D(2031, 3, 31), (*monthly, *weekly))
    assert required_samples([april], *year) == 48
    # a mechanism replaced mid-year: each counts its own days (182 + 183 of 365)
    old = Mechanism(D(2021, 7, 1), D(2026, 7, 1), (Sampling("CM-1", "composite", 12),))
    new = Mechanism(D(2026, 7, 2), None, (Sampling("CM-1", "composite", 4),))
    assert required_samples([old, new], *year) == 8  # 12×182/365 + 4×183/365 = 7.99 → 8
    # none in force: None (nothing to say), none required: 0
    assert required_samples([Mechanism(D(2010, 1, 1), D(2015, 1, 1), ())], *year) is None
    assert required_samples([Mechanism(D(2010, 1, 1), None, ())], *year) == 0
    # a leap year counts 366 days as one year
    assert required_samples([whole], D(2028, 1, 1), D(2028, 12, 31)) == 64


def test_each_criterion_sets_its_indicator() -> None:
    assert indicators(["A", "B"]) == {"standards_limits"}
    assert indicators(["F", "G"]) == {"reporting"}
    assert indicators(["C"]) == {"potw_operations"} == indicators(["D"])
    assert indicators(["E", "H"]) == {"other_requirement"}
    assert indicators(["Z"]) == frozenset()


def test_the_period_is_a_year_or_two_dates() -> None:
    assert report_period(year=2025) == (D(2025, 1, 1), D(2025, 12, 31))
    assert report_period(period="2025-07-01..2026-06-30") == (D(2025, 7, 1), D(2026, 6, 30))
    for bad in ("2025", "2025-07-01..", "2026-01-02..2026-01-01", "2024-01-01..2025-12-31"):
        with pytest.raises(ValueError, match="period"):
            report_period(period=bad)
    with pytest.raises(ValueError, match="not both"):
        report_period(year=2025, period="2025-01-01..2025-12-31")


def test_local_limits_are_the_articles_numeric_limits_configured() -> None:
    w = local_limit_analytes(load_jurisdiction("wappinger"), D(2026, 1, 1))
    assert w == ("cyanide_total", "oil_grease", "ph", "temperature")
    d = local_limit_analytes(load_jurisdiction("demo"), D(2026, 1, 1))
    assert {"copper", "chromium", "zinc", "nickel", "phenols"} <= set(d)
    assert "iron" not in d and "bod5" not in d  # iron not set by the demo; BOD is a surcharge


def test_wappinger_configures_only_what_is_on_file() -> None:
    w = icis_data(load_jurisdiction("wappinger"), D(2026, 12, 31))
    assert w.potw_permit_id is None and w.snc_month_format is None
    assert w.local_limits_adopted == D(1992, 9, 28)  # L.L. No. 9-1992, the article's adoption
    assert w.local_limits_evaluated is None
    assert dict(w.parameter_codes) == {} and dict(w.action_codes) == {}
    demo = icis_data(load_jurisdiction("demo"), D(2026, 12, 31))
    assert demo.potw_permit_id == "NYEXAMPLE" and demo.snc_month_format == "MM/YYYY"
    assert demo.parameter_codes["copper"] == "01042" and demo.parameter_codes["ph"] == "00400"
    assert set(demo.action_codes) >= {"notice_of_violation", "referral_town_attorney"}
    params = load_jurisdiction("demo")
    assert "EXAMPLE" in params.get("icis.potw_permit_id", D(2026, 1, 1)).authority


TEXT = """
jurisdiction: t
parameters:
  icis.potw_permit_id:
    description: d
    reference: 40 CFR 403.12(i)
    unit: text
    values:
      1992-09-28: null
      2020-01-01: {value: "NY0026271", authority: a}
  icis.parameter_code.copper:
    description: d
    reference: 40 CFR 403.12(i)
    unit: text
    values:
      1992-09-28: "01042"
  icis.local_limits_adopted:
    description: d
    reference: 40 CFR 403.12(i)
    unit: text
    values:
      1992-09-28: 1992-09-28
"""


def test_a_text_parameter_keeps_its_value_as_written() -> None:
    p = parse_parameter_text(TEXT, "t.yaml")
    assert p.get("icis.potw_permit_id", D(2019, 1, 1)).configured is False
    v = p.get("icis.potw_permit_id", D(2021, 1, 1))
    assert (v.string, v.text, v.value, v.configured) == ("NY0026271", "NY0026271", None, True)
    assert p.get("icis.parameter_code.copper", D(2021, 1, 1)).string == "01042"  # leading 0 kept
    assert p.get("icis.local_limits_adopted", D(2021, 1, 1)).string == "1992-09-28"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('1992-09-28: "01042"', "1992-09-28: 01042", "must be written quoted"),
        ('1992-09-28: "01042"', '1992-09-28: "1042"', r"must match \[0-9A-Z\]\{5\}"),
        ('{value: "NY0026271", authority: a}', '{value: "NY02627", authority: a}', "must match"),
        ("1992-09-28: 1992-09-28", '1992-09-28: "1992-9-28"', "YYYY-MM-DD"),
        ('1992-09-28: "01042"', '1992-09-28: "  "', "an empty text"),
    ],
)
def test_a_bad_text_value_is_refused(old: str, new: str, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        parse_parameter_text(TEXT.replace(old, new), "t.yaml")


def test_every_response_and_analyte_has_its_icis_key() -> None:
    """A response added to the enforcement guide, or an analyte to the vocabulary, needs its
    code key (unconfigured in Wappinger) so the export can name what is missing."""
    from sewer_rules.analytes import ANALYTES
    from sewer_rules.enforcement_guide import load_guide

    keys = {p.name for p in load_jurisdiction("wappinger")}
    for code in load_guide("wappinger").responses:
        assert f"icis.action_code.{code}" in keys, code
    for a in ANALYTES:
        assert f"icis.parameter_code.{a.name}" in keys, a.name
