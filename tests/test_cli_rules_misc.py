"""The rules commands beyond ``check``: fines, surcharge, sewer-design, grinder,
plant-temperature — output, JSON, exit statuses and error messages."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from sewer_cli.main import main

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "building-sewer-design.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code, out, _ = run(capsys, *argv, "--format", "json")
    return code, json.loads(out)


# --- fines -------------------------------------------------------------------------------------


def test_fines_table_shows_each_step_with_citations_and_dated_amounts(capsys) -> None:
    code, out, _ = run(
        capsys,
        "fines",
        "--served",
        "2026-01-05",
        "--corrected",
        "2026-01-20",
        "--jurisdiction",
        "demo",
    )
    assert code == 1
    assert "Correction deadline: end of 2026-01-15" in out
    assert "Days of continuing violation: 5, 2026-01-16 to 2026-01-20" in out
    assert "EXAMPLE resolution 2026-02 (demo)" in out
    assert "2004-03-22" in out
    assert "Accrued fine: USD 1,550.00 (§ 196-22 B)" in out
    assert "subject to conviction" in out
    assert "NOTE: EXAMPLE amounts" in out


def test_fines_json(capsys) -> None:
    code, data = run_json(
        capsys,
        "fines",
        "--served",
        "2026-01-05",
        "--corrected",
        "2026-01-20",
        "--jurisdiction",
        "demo",
    )
    assert code == 1
    assert data["deadline"] == "2026-01-15"
    assert data["days"] == 5
    assert data["total"] == "1550.00"
    assert [s["amount"] for s in data["segments"]] == ["500.00", "1050.00"]  # type: ignore[index]
    assert data["citations"] == ["§ 196-22 A", "§ 196-22 B"]
    assert str(data["parameters_version"]).startswith("demo@")


def test_fines_corrected_in_time_exits_0(capsys) -> None:
    code, out, _ = run(capsys, "fines", "--served", "2026-01-05", "--corrected", "2026-01-15")
    assert code == 0
    assert "no fine" in out


def test_fines_unconfigured_amount_is_said_clearly(capsys) -> None:
    code, out, _ = run(capsys, "fines", "--served", "2026-01-05", "--corrected", "2026-01-20")
    assert code == 1
    assert "not configured" in out
    assert "Accrued fine: not stated" in out
    code, data = run_json(capsys, "fines", "--served", "2026-01-05", "--corrected", "2026-01-20")
    assert data["total"] is None
    assert data["unconfigured_days"] == 5


def test_fines_as_of_defaults_to_today_in_town_time(capsys) -> None:
    today = datetime.now(ZoneInfo("America/New_York")).date()
    code, data = run_json(capsys, "fines", "--served", "2026-01-05")
    assert data["as_of"] == today.isoformat()
    assert code == (1 if data["days"] else 0)


def test_fines_section_196_20_is_referred_at_once(capsys) -> None:
    code, out, _ = run(capsys, "fines", "--served", "2026-01-05", "--violation", "§ 196-20")
    assert code == 1
    assert "referred at once" in out
    assert "immediate arrest" in out
    code, data = run_json(capsys, "fines", "--served", "2026-01-05", "--violation", "§ 196-20")
    assert data["procedure"]["correction_clock"] is False  # type: ignore[index]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--served", "2026-01-05", "--as-of", "2026-01-04"],
            "before the notice",
        ),
        (["--served", "2026-01-05", "--violation", "section 20"], "--violation"),
        (["--served", "2026-01-05", "--jurisdiction", "nowhere"], "no jurisdiction"),
        (["--served", "2026-01-05", "--corrected", "2999-01-01"], "in the future"),
        (
            ["--served", "2026-01-05", "--period", "9", "--as-of", "2026-02-01"],
            "shorter than the 10 days § 196-22 A gives the offender",
        ),
    ],
)
def test_fines_unusable_input_exits_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "fines", *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_fines_json_carries_the_clock_contract(capsys) -> None:
    code, data = run_json(
        capsys, "fines", "--served", "2026-01-07", "--period", "10", "--corrected", "2026-01-22",
        "--jurisdiction", "demo",
    )  # fmt: skip
    assert code == 1
    assert data["served"] == "2026-01-07"
    assert data["period_days"] == 10
    assert data["nominal_deadline"] == "2026-01-17"
    assert data["deadline"] == "2026-01-20"  # Sat, Sun, Martin Luther King Jr. Day passed over
    assert data["days"] == 2
    assert data["daily"] == [
        {
            "first_day": "2026-01-21",
            "last_day": "2026-01-22",
            "days": 2,
            "daily_amount": "350.00",
            "configured": True,
            "effective": "2026-01-18",
            "authority": "EXAMPLE resolution 2026-02 (demo)",
            "amount": "700.00",
        }
    ]
    assert data["total"] == "700.00"
    assert data["citations"] == ["§ 196-22 A", "§ 196-22 B"]


def test_fines_bad_date_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["fines", "--served", "2026-13-05"])
    assert exc.value.code == 2
    assert "not a date" in capsys.readouterr().err


# --- surcharge ---------------------------------------------------------------------------------

DOMAIN = [
    "--start",
    "2026-03-01",
    "--end",
    "2026-03-30",
    "--bod",
    "600",
    "--tss",
    "250",
    "--grease",
    "80",
]


def test_surcharge_domain_example(capsys) -> None:
    code, out, _ = run(
        capsys, "surcharge", *DOMAIN, "--flow-mgd", "0.020", "--jurisdiction", "demo"
    )
    assert code == 0
    assert "0.6 million gallons" in out
    assert "1801.44" in out
    assert "150.12" in out
    assert "EXAMPLE resolution 2019-88 (demo)" in out
    assert "Surcharge: USD 893.21" in out
    assert "§ 196-19 E(1)(d)" in out


def test_surcharge_json_and_volume(capsys) -> None:
    code, data = run_json(
        capsys, "surcharge", *DOMAIN, "--volume-mg", "0.6", "--jurisdiction", "demo"
    )
    assert code == 0
    pounds = {p["pollutant"]: p["pounds"] for p in data["pollutants"]}  # type: ignore[attr-defined]
    assert pounds == {"bod": "1801.44", "suspended_solids": "0", "grease_oil": "150.12"}
    assert data["total_usd"] == "893.21"


def test_surcharge_without_rates_says_not_configured(capsys) -> None:
    code, out, _ = run(capsys, "surcharge", *DOMAIN, "--flow-mgd", "0.020")
    assert code == 0
    assert "Surcharge: not stated" in out
    assert "surcharge.rate.bod" in out


def test_surcharge_accepts_a_concentration_unit(capsys) -> None:
    argv = [a if a != "80" else "80000 µg/l" for a in DOMAIN]
    code, data = run_json(capsys, "surcharge", *argv, "--flow-mgd", "0.020")
    assert code == 0
    assert data["pollutants"][2]["pounds"] == "150.12"  # type: ignore[index]


def test_surcharge_needs_exactly_one_flow(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["surcharge", *DOMAIN])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["surcharge", *DOMAIN, "--flow-mgd", "0.02", "--volume-mg", "0.6"])
    assert exc.value.code == 2
    capsys.readouterr()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [
                "--start",
                "2026-03-30",
                "--end",
                "2026-03-01",
                "--bod",
                "1",
                "--tss",
                "1",
                "--grease",
                "1",
                "--flow-mgd",
                "1",
            ],
            "before it starts",
        ),
        ([*DOMAIN, "--flow-mgd", "lots"], "--flow-mgd"),
        ([*DOMAIN[:-1], "80 gpd", "--flow-mgd", "0.02"], "--grease"),
    ],
)
def test_surcharge_unusable_input_exits_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "surcharge", *argv)
    assert code == 2
    assert message in err


# --- sewer-design ------------------------------------------------------------------------------


def test_sewer_design_example_fails_with_sump_pump_and_2_percent_slope(capsys) -> None:
    code, out, _ = run(capsys, "sewer-design", str(EXAMPLE), "--date", "2026-03-02")
    assert code == 1
    assert "sump pump" in out
    assert "2 % (= 0.24 in/ft)" in out
    assert "FAIL" in out
    assert "building_sewer.minimum_slope = 0.25 in/ft, in force since 1992-09-28" in out
    assert "The design does not conform: § 196-18 F, § 196-18 H." in out


def test_sewer_design_json(capsys) -> None:
    code, data = run_json(capsys, "sewer-design", str(EXAMPLE), "--date", "2026-03-02")
    assert code == 1
    assert data["failed"] == 2
    failed = [c["citation"] for c in data["checks"] if c["passed"] is False]  # type: ignore[attr-defined]
    assert failed == ["§ 196-18 F", "§ 196-18 H"]
    assert data["parameters"][0]["name"] == "building_sewer.minimum_diameter"  # type: ignore[index]


def test_sewer_design_conforming_exits_0(capsys, tmp_path: Path) -> None:
    design = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    design["buildings"][0]["connected_sources"].remove("sump_pump")
    design["building_sewers"][1]["slope"] = "1/4 in/ft"
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(design), encoding="utf-8")
    code, out, _ = run(capsys, "sewer-design", str(path), "--date", "2026-03-02")
    assert code == 0
    assert "No check failed." in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty file"),
        ("{", "not valid JSON"),
        ("[]", "field (top)"),
        ('{"buildings": [], "building_sewers": []}', "field building_sewers: required"),
        (
            '{"buildings": [{"id": "h", "building_sewer": "S1"}],'
            ' "building_sewers": [{"id": "S1", "diameter": "4 furlongs", "slope": "1/4 in/ft"}]}',
            "field building_sewers[0].diameter: unknown unit 'furlongs'",
        ),
    ],
)
def test_sewer_design_unusable_file_names_file_and_field(
    capsys, tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "design.json"
    path.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "sewer-design", str(path))
    assert code == 2
    assert str(path) in err
    assert message in err
    assert "Traceback" not in err


def test_sewer_design_missing_file(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "sewer-design", str(tmp_path / "nope.json"))
    assert code == 2
    assert "cannot read" in err


# --- grinder -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hp", "code"),
    [("0.75", 1), ("3/4 hp", 1), ("0.75 HP", 1), ("0.74", 0), ("1/2", 0), ("1 hp", 1)],
)
def test_grinder_threshold(capsys, hp: str, code: int) -> None:
    got, out, _ = run(capsys, "grinder", "--hp", hp, "--date", "2026-03-02")
    assert got == code
    assert (
        "grinder.approval_horsepower = 0.75 hp, in force since 1992-09-28, L.L. No. 9-1992" in out
    )
    assert ("review and approval of the Superintendent" in out) == (code == 1)


def test_grinder_with_particle(capsys) -> None:
    code, data = run_json(capsys, "grinder", "--hp", "0.5", "--particle", "1/2 inch")
    assert code == 0
    assert [c["passed"] for c in data["checks"]] == [True, True]  # type: ignore[attr-defined]
    code, data = run_json(capsys, "grinder", "--hp", "0.5", "--particle", "0.51 in")
    assert code == 1
    assert data["checks"][1]["citation"] == "§ 196-15 PROPERLY SHREDDED GARBAGE"  # type: ignore[index]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hp", "0.5 kW"], "unknown unit 'kW'"),
        (["--hp", "0.5 in"], "not a unit of power"),
        (["--hp", "big"], "--hp"),
        (["--hp", "-1"], "negative"),
        (["--hp", "0.5", "--particle", "0.5"], "needs a unit"),
    ],
)
def test_grinder_unusable_input_exits_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "grinder", *argv)
    assert code == 2
    assert message in err


# --- plant-temperature -------------------------------------------------------------------------


def test_plant_temperature_exactly_40_is_not_prohibited(capsys) -> None:
    code, out, _ = run(
        capsys,
        "plant-temperature",
        "--flow",
        "1 MGD",
        "--temperature",
        "176 °F",
        "--jurisdiction",
        "demo",
    )
    assert code == 0
    assert "= 40 °C (104 °F)" in out
    assert "plant.flow = 2000000 gpd, in force since 2010-01-01, EXAMPLE plant figure (demo)" in out
    assert "plant_influent.temperature_maximum = 40 °C" in out
    assert "§ 196-19 C(5)" in out


def test_plant_temperature_modelled_above_40_is_review_not_prohibited(capsys) -> None:
    code, data = run_json(
        capsys,
        "plant-temperature",
        "--flow",
        "1000001 gpd",
        "--temperature",
        "80 C",
        "--jurisdiction",
        "demo",
    )
    assert code == 1
    assert data["status"] == "review"
    assert data["finding"]["status"] == "review"  # type: ignore[index]
    assert data["finding"]["citation"] == "§ 196-19 C(5)"  # type: ignore[index]


def test_plant_temperature_not_configured_in_wappinger(capsys) -> None:
    code, _, err = run(capsys, "plant-temperature", "--flow", "50000 gpd", "--temperature", "180 F")
    assert code == 2
    assert "plant.flow, plant.temperature not configured" in err
    assert "--plant-flow" in err


def test_plant_temperature_with_plant_figures_given(capsys) -> None:
    code, out, _ = run(
        capsys,
        "plant-temperature",
        "--flow", "1 MGD",
        "--temperature", "177 F",
        "--plant-flow", "2 MGD",
        "--plant-temperature", "20 C",
    )  # fmt: skip
    assert code == 1
    assert "given on the command line" in out
    assert "Result: REVIEW (modelled estimate)" in out
    assert "PROHIBITED" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--flow", "35", "--temperature", "180 F"], "--flow: '35' needs a unit"),
        (["--flow", "35 gpm", "--temperature", "180"], "--temperature: '180' needs a unit"),
        (["--flow", "35 F", "--temperature", "180 F"], "not a unit of flow"),
        (["--flow", "-35 gpm", "--temperature", "180 F", "--jurisdiction", "demo"], "negative"),
    ],
)
def test_plant_temperature_unusable_input_exits_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "plant-temperature", *argv)
    assert code == 2
    assert message in err
