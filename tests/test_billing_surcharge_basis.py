"""The surcharge by decision (§ 196-19 E(1)(d), J) and the daily-average strength of § 196-15
NORMAL SEWAGE, as pure rules. Demo parameters: normal strength BOD 240, SS 300, grease 50 mg/l;
rates BOD 0.45, SS 0.40, grease 0.55 USD/lb; 8.34 lb per mg/l per million gallons."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from sewer_rules.billing.authority import AGREEMENT, DECISION, Basis, covered_spans
from sewer_rules.billing.facility_surcharge import NOT_COMPUTABLE, MeterFlow
from sewer_rules.billing.period_bill import NO_DECISION, NOT_LISTED, bill_facility
from sewer_rules.billing.strength import Result, daily_average_strength
from sewer_rules.parameters import load_jurisdiction

DEMO = load_jurisdiction("demo")
Q1 = (date(2026, 1, 1), date(2026, 3, 31))


def comp(day: date, analyte: str, value: str, unit: str = "mg/l") -> Result:
    return Result(day, analyte, "composite", value, unit)


def grab(day: date, analyte: str, value: str) -> Result:
    return Result(day, analyte, "grab", value, "mg/l")


def no_meter(span: object) -> MeterFlow | None:
    return None


def test_strength_is_the_mean_of_daily_means_not_of_results() -> None:
    # Jan 10: 300 and 500 → day 400; Jan 11: 100 → period (400 + 100) / 2 = 250
    # (the mean of the three results would be 300)
    s = daily_average_strength(
        [
            comp(date(2026, 1, 10), "bod5", "300"),
            comp(date(2026, 1, 10), "bod5", "500"),
            comp(date(2026, 1, 11), "bod5", "100"),
        ]
    )
    assert s["bod"].average == Decimal(250)
    assert s["bod"].daily == ((date(2026, 1, 10), Decimal(400)), (date(2026, 1, 11), Decimal(100)))
    assert s["bod"].used == 3 and s["suspended_solids"].average is None


def test_grease_from_grabs_only_bod_and_ss_from_composites_only() -> None:
    # grease: grabs 80 and 60 on two days → 70; the composite's 200 is ignored.
    # BOD: the grab 900 is ignored; the composite 300 stands. A non-detect reads as 0.
    s = daily_average_strength(
        [
            grab(date(2026, 1, 10), "oil_grease", "80"),
            grab(date(2026, 1, 11), "oil_grease", "60"),
            comp(date(2026, 1, 10), "oil_grease", "200"),
            grab(date(2026, 1, 10), "bod5", "900"),
            comp(date(2026, 1, 10), "bod5", "300"),
            comp(date(2026, 1, 11), "tss", "<5"),
            comp(date(2026, 1, 12), "tss", "500000", "µg/l"),
        ]
    )
    assert s["grease_oil"].average == Decimal(70) and s["grease_oil"].ignored == 1
    assert s["bod"].average == Decimal(300) and s["bod"].ignored == 1
    # SS: day 11 non-detect 0, day 12 500000 µg/l = 500 mg/l → (0 + 500) / 2
    assert s["suspended_solids"].average == Decimal(250)


def test_decision_from_mid_period_bills_only_its_days_on_their_values() -> None:
    rows = [
        comp(date(2026, 1, 10), "bod5", "600"),
        comp(date(2026, 1, 10), "tss", "250"),
        grab(date(2026, 1, 10), "oil_grease", "80"),
        comp(date(2026, 2, 20), "bod5", "400"),
        comp(date(2026, 2, 20), "tss", "250"),
        grab(date(2026, 2, 20), "oil_grease", "60"),
    ]
    decision = Basis(DECISION, "decision-1", date(2026, 2, 15), None)
    bill = bill_facility(
        *Q1, DEMO, results=rows, bases=[decision], meter_for=no_meter,
        declared_flow_gpd=Decimal(20000),
    )  # fmt: skip
    # Feb 15 – Mar 31 = 14 + 31 = 45 days × 0.02 MGD = 0.9 MG; only Feb 20 counts:
    # BOD 400 − 240 = 160 × 0.9 × 8.34 = 1200.96 lb × 0.45 = 540.432
    # grease 60 − 50 = 10 × 0.9 × 8.34 = 75.06 lb × 0.55 = 41.283; SS below normal
    # 581.715 → 581.72 (half-up); Jan 1 – Feb 14 (45 days) not billed
    assert bill.status == "charged" and bill.amount == Decimal("581.72")
    assert [(s.span.first_day, s.span.days) for s in bill.spans] == [(date(2026, 2, 15), 45)]
    assert bill.uncovered_days == 45 and "not billed" in bill.message


def test_agreement_ended_mid_period_and_its_own_rate() -> None:
    rows = [
        comp(date(2026, 1, 20), "bod5", "400"),
        comp(date(2026, 1, 20), "tss", "300"),
        grab(date(2026, 1, 20), "oil_grease", "50"),
        comp(date(2026, 3, 1), "bod5", "2000"),  # after the end: not billed
    ]
    agreement = Basis(
        AGREEMENT, "agreement-1", date(2025, 7, 1), date(2026, 2, 14), "J", {"bod": Decimal("1")}
    )
    bill = bill_facility(
        *Q1, DEMO, results=rows, bases=[agreement], meter_for=no_meter,
        declared_flow_gpd=Decimal(20000),
    )  # fmt: skip
    # Jan 1 – Feb 14 = 45 days × 0.02 = 0.9 MG; BOD 160 excess → 1200.96 lb at the agreed
    # 1.00 USD/lb (not the Board's 0.45); SS and grease at normal → 0
    assert bill.amount == Decimal("1200.96")
    assert bill.spans[0].span.last_day == date(2026, 2, 14)


def test_no_decision_is_listed_not_billed_and_normal_strength_is_not_listed() -> None:
    rows = [comp(date(2026, 1, 10), "bod5", "241")]
    bill = bill_facility(*Q1, DEMO, results=rows, bases=[], meter_for=no_meter)
    assert bill.status == NO_DECISION and bill.amount is None
    assert "abnormal strength, no surcharge decision" in bill.message.lower()
    normal = bill_facility(
        *Q1, DEMO, results=[comp(date(2026, 1, 10), "bod5", "240")], bases=[], meter_for=no_meter
    )
    assert normal.status == NOT_LISTED


def test_composites_without_a_grab_leave_grease_uncomputed() -> None:
    # grease only from composites: no grease strength; the surcharge is not stated (the
    # formula charges the three strengths together; an unmeasured one is not assumed normal)
    rows = [
        comp(date(2026, 1, 10), "bod5", "600"),
        comp(date(2026, 1, 10), "tss", "250"),
        comp(date(2026, 1, 10), "oil_grease", "80"),
    ]
    basis = Basis(DECISION, "decision-1", date(2026, 1, 1), None)
    bill = bill_facility(
        *Q1, DEMO, results=rows, bases=[basis], meter_for=no_meter,
        declared_flow_gpd=Decimal(20000),
    )  # fmt: skip
    assert bill.status == NOT_COMPUTABLE and bill.amount is None
    assert "grease or oil: no grab result" in bill.message
    assert "1 result(s) of another sample type ignored" in bill.message


@pytest.mark.parametrize(
    ("bases", "expected"),
    [
        # a decision ends Jan 31, an agreement from Feb 10: two spans, Feb 1–9 uncovered
        (
            [
                Basis(DECISION, "d", date(2025, 1, 1), date(2026, 1, 31)),
                Basis(AGREEMENT, "a", date(2026, 2, 10), None),
            ],
            [
                ("d", date(2026, 1, 1), date(2026, 1, 31)),
                ("a", date(2026, 2, 10), date(2026, 3, 31)),
            ],
        ),
        # both in force: the agreement governs its days
        (
            [
                Basis(DECISION, "d", date(2026, 1, 1), None),
                Basis(AGREEMENT, "a", date(2026, 3, 1), date(2026, 3, 10)),
            ],
            [
                ("d", date(2026, 1, 1), date(2026, 2, 28)),
                ("a", date(2026, 3, 1), date(2026, 3, 10)),
                ("d", date(2026, 3, 11), date(2026, 3, 31)),
            ],
        ),
    ],
)
def test_covered_spans(bases: list[Basis], expected: list[tuple[str, date, date]]) -> None:
    got = [(s.basis.ident, s.first_day, s.last_day) for s in covered_spans(*Q1, bases)]
    assert got == expected


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from sewer_cli.main import main

    code = main(["surcharge", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_results_file_daily_average_and_grabs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.csv"
    results.write_text(
        "date,parameter,sample_type,value,unit\n"
        "2026-01-10,BOD,composite,300,mg/l\n"
        "2026-01-10,BOD,composite,500,mg/l\n"
        "2026-01-11,BOD5,composite,100,mg/l\n"
        "2026-01-10,TSS,composite,300,mg/l\n"
        "2026-01-10,Oil and grease,grab,80,mg/l\n"
        "2026-01-10,Oil and grease,composite,200,mg/l\n"
        "2026-02-10,BOD,composite,9000,mg/l\n"
    )
    base = ("--start", "2026-01-01", "--end", "2026-01-30", "--flow-mgd", "0.02")
    code, out, _ = _cli(
        capsys, *base, "--results", str(results), "--jurisdiction", "demo", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    # BOD days 400 and 100 → 250 (Feb 10 is outside the period); SS 300; grease the grab 80
    # 30 d × 0.02 = 0.6 MG: BOD 10 × 0.6 × 8.34 = 50.04 lb × 0.45 = 22.518; grease 30 × 0.6 ×
    # 8.34 = 150.12 lb × 0.55 = 82.566; 105.084 → 105.08
    assert data["strength"]["bod"]["average_mg_l"] == "250"
    assert data["strength"]["grease_oil"]["results_ignored"] == 1
    assert data["total_usd"] == "105.08"
    no_grab = tmp_path / "no-grab.csv"
    no_grab.write_text(
        "date,parameter,sample_type,value\n"
        "2026-01-10,BOD,composite,300\n"
        "2026-01-10,TSS,composite,300\n"
        "2026-01-10,oil_grease,composite,200\n"
    )
    code, _, err = _cli(capsys, *base, "--results", str(no_grab), "--jurisdiction", "demo")
    assert code == 2 and "grease or oil: no grab result" in err
    code, _, err = _cli(capsys, *base, "--results", str(no_grab), "--bod", "300")
    assert code == 2 and "do not also give --bod" in err
