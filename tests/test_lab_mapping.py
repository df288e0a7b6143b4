"""A laboratory's own file read through its mapping (sewer_io.lab_mapping): presets, CAS
numbers, dates read only in the format the mapping names, qualifier codes only with their
meaning, row numbers of the laboratory's file, and ``sewer-use check --mapping``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

from sewer_cli import mapping_arg
from sewer_cli.main import main
from sewer_engines.evaluation import evaluate_table
from sewer_engines.evaluation.times import parse_datetimes
from sewer_io import lab_mapping as lm
from sewer_io.check_io import frame_with_rows, read_results
from sewer_rules.analytes import (
    ANALYTES,
    BY_NAME,
    CAS_NUMBERS,
    UnknownAnalyte,
    cas_check_digit_ok,
    resolve,
)
from sewer_rules.parameters import load_jurisdiction

from .lab_edd import EDD, EDD_MAPPING, HEADER, ROOT, without_row_text, write_both


def frame(text: str) -> pl.DataFrame:
    return pl.read_csv(io.StringIO(text), infer_schema=False)


def edd(*rows: str, header: str = HEADER) -> pl.DataFrame:
    return frame(header + "\n" + "\n".join(rows) + "\n")


def mapping(**changes: Any) -> lm.LabMapping:
    data = lm.preset("generic-edd").to_dict()
    data.update(changes)
    return lm.LabMapping.from_dict(data)


# --- CAS numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "name"),
    [
        ("7440-50-8", "copper"),
        ("7440-66-6", "zinc"),
        ("7439-92-1", "lead"),
        ("7440-02-0", "nickel"),
        ("7440-47-3", "chromium"),
        ("7439-89-6", "iron"),
        ("57-12-5", "cyanide_total"),
        ("16887-00-6", "chloride"),
    ],
)
def test_a_cas_number_resolves_like_a_name(number: str, name: str) -> None:
    assert resolve(number).name == name
    assert resolve(f"  {number} ").name == name
    assert CAS_NUMBERS[number] == name


def test_cas_numbers_are_written_with_their_dashes() -> None:
    with pytest.raises(UnknownAnalyte):
        resolve("7440508")  # without dashes a bare number: not read as copper
    with pytest.raises(UnknownAnalyte):
        resolve("7440-50-9")  # a wrong check digit names nothing


def test_check_digits_and_what_has_no_cas_number() -> None:
    assert all(cas_check_digit_ok(n) for a in ANALYTES for n in a.cas)
    assert not cas_check_digit_ok("7440-50-9") and not cas_check_digit_ok("7440508")
    for name in ("bod5", "tss", "ph", "temperature", "oil_grease", "phenols", "flow", "color"):
        assert BY_NAME[name].cas == (), name


# --- presets and the dictionary form ------------------------------------------------------------


def test_presets_ship_and_round_trip() -> None:
    assert {"generic-edd", "edd-date-time", "sewer-use"} <= set(lm.preset_names())
    for name in lm.preset_names():
        m = lm.preset(name)
        assert m.name == name and m.description
        again = lm.LabMapping.from_dict(yaml.safe_load(m.to_yaml()))
        assert again == m
        assert lm.LabMapping.from_dict(json.loads(json.dumps(m.to_dict()))) == m


def test_the_help_names_every_preset() -> None:
    for name in lm.preset_names():
        assert name in mapping_arg.HELP


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": 1}, "unknown field 'colour'"),
        ({"columns": {"sample_id": "ID"}}, "sampled_at: required"),
        ({"constants": {"value": "1"}}, "constants: 'value' cannot be a constant"),
        ({"constants": {"sample_type": "sometimes"}}, "is not one of grab"),
        ({"constants": {"sample_id": "S"}}, "sample_id: both a column and a constant"),
        ({"date_format": "%m/%Y %H:%M"}, "has no day"),
        ({"date_format": "%m/%d/%Y %I:%M"}, "without AM/PM"),
        ({"date_format": "%m/%d/%Y %Q"}, "is not a directive"),
        ({"timezone": "Mars/Olympus"}, "is not a time zone"),
        ({"analytes": {"Cu (tot. rec.)": "copperish"}}, "is not a project parameter"),
        ({"qualifiers": {"U": "keep"}}, "the project reads 'U' as a non-detect"),
        ({"qualifiers": {"J": "maybe"}}, "'maybe' is not a meaning"),
        ({"qualifiers": yaml.safe_load("{no: non-detect, 1: keep}")}, "quote it in YAML"),
        ({"optional": ["sample_id"]}, "sample_id is required"),
        ({"name": ""}, "name: missing"),
    ],
)
def test_a_mapping_is_refused_with_each_problem_named(change: dict[str, Any], message: str) -> None:
    with pytest.raises(lm.MappingError) as refused:
        mapping(**change)
    assert message in str(refused.value), refused.value.problems


def test_a_mapping_file_is_read(tmp_path: Path) -> None:
    m = lm.read_mapping_file(EDD_MAPPING)
    assert m.constants == {"facility": "ACME-PLATING"}
    path = tmp_path / "lab.json"
    path.write_text(json.dumps(m.to_dict()), encoding="utf-8")
    assert lm.read_mapping_file(path) == m
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(lm.MappingError, match="unreadable"):
        lm.read_mapping_file(path)


# --- reading a laboratory's file ----------------------------------------------------------------


def test_the_generic_edd_reads_into_the_project_layout() -> None:
    mapped = lm.preset("generic-edd").read(
        edd(
            "AP-1,03/02/2026 08:00,Composite,Copper,7440-50-8,0.5,mg/L,,0.01,EPA 200.7",
            'AP-1,03/02/2026 08:00,Composite,"Zinc, Total Recoverable",7440-66-6,1.1,mg/L,J,0.01,EPA 200.7',
            "AP-1,03/02/2026 08:00,Composite,Lead,7439-92-1,0.005,mg/L,U,0.005,EPA 200.7",
        ),
        "lab.csv",
    )
    assert mapped.errors.height == 0
    rows = mapped.frame.to_dicts()
    assert [r["row"] for r in rows] == [2, 3, 4]
    assert [r["parameter"] for r in rows] == ["copper", "zinc", "lead"]  # zinc by its CAS number
    assert {r["sampled_at"] for r in rows} == {"2026-03-02T08:00:00-05:00"}
    assert [r["qualifier"] for r in rows] == [None, "J", "U"]
    assert mapped.frame.columns[:7] == [
        "row",
        "sample_id",
        "sampled_at",
        "sample_type",
        "parameter",
        "value",
        "unit",
    ]


def test_a_date_reads_as_the_mapping_says_month_first_or_day_first() -> None:
    text = edd("S,03/02/2026 08:00,grab,pH,,7,SU,,,m")
    us = lm.preset("generic-edd").read(text, "lab.csv").frame
    day_first = mapping(date_format="%d/%m/%Y %H:%M").read(text, "lab.csv").frame
    assert us.item(0, "sampled_at") == "2026-03-02T08:00:00-05:00"  # 2 March
    assert day_first.item(0, "sampled_at") == "2026-02-03T08:00:00-05:00"  # 3 February


def test_an_ambiguous_date_is_not_guessed() -> None:
    sample = edd("S,03/02/2026 08:00,grab,pH,,7,SU,,,m", "S,03/04/2026 08:00,grab,pH,,7,SU,,,m")
    reading = next(r for r in lm.describe_columns(sample) if r.header == "Collection Date")
    assert reading.kind == "dates" and reading.dates is not None and reading.dates.ambiguous
    assert reading.text == (
        "dates, ambiguous: 03/02/2026 08:00 could be 2 March or 3 February: choose "
        "%m/%d/%Y %H:%M or %d/%m/%Y %H:%M"
    )
    suggestion = lm.suggest(sample)
    assert "date_format" not in suggestion.draft
    assert any("could be 2 March or 3 February" in q for q in suggestion.questions)
    # a mapping without a date format for these dates: the file is refused, the column named
    iso = mapping(date_format="iso")
    with pytest.raises(lm.FileDoesNotFit) as refused:
        iso.read(sample, "lab.csv")
    assert "'Collection Date' (sampled_at)" in str(refused.value)
    assert "%m/%d/%Y %H:%M or %d/%m/%Y %H:%M" in str(refused.value)


def test_a_date_that_reads_one_way_only_is_said_so() -> None:
    sample = edd("S,13/02/2026 08:00,grab,pH,,7,SU,,,m", "S,03/02/2026 08:00,grab,pH,,7,SU,,,m")
    reading = next(r for r in lm.describe_columns(sample) if r.header == "Collection Date")
    assert reading.dates is not None and reading.dates.formats == ("%d/%m/%Y %H:%M",)
    assert lm.suggest(sample).draft["date_format"] == "%d/%m/%Y %H:%M"


def test_another_date_column_tells_the_way_but_does_not_choose() -> None:
    sample = frame("Sample ID,Collection Date,Analysis Date\nS,03/02/2026 08:00,03/13/2026 09:00\n")
    suggestion = lm.suggest(sample)
    assert "date_format" not in suggestion.draft
    assert any(
        "the column 'Analysis Date' reads only as %m/%d/%Y %H:%M" in q for q in suggestion.questions
    )


def test_rows_the_mapping_refuses_keep_the_files_row_numbers() -> None:
    mapped = lm.preset("generic-edd").read(
        edd(
            "S,03/02/2026 08:00,grab,pH,,7,SU,,,m",
            "S,03/02/2026 08:00,grab,pH,,7,SU,Q,,m",  # a code without meaning
            "S,13/02/2026 08:00,grab,pH,,7,SU,,,m",  # not month first
            "S,03/08/2026 02:30,grab,pH,,7,SU,,,m",  # the spring change: never happened
            "S,03/02/2026 08:00,grab,Zinc,7439-92-1,1,mg/L,,,m",  # zinc's name, lead's number
            "S,03/02/2026 08:00,grab,pH,,7.2,SU,J,,m",
        ),
        "lab.csv",
    )
    assert mapped.frame.get_column("row").to_list() == [2, 7]
    errors = {(r, f): m for r, f, m in mapped.errors.iter_rows()}
    assert set(errors) == {(3, "qualifier"), (4, "sampled_at"), (5, "sampled_at"), (6, "parameter")}
    assert errors[3, "qualifier"].startswith("qualifier 'Q' has no meaning in the mapping")
    assert "is not a date in the mapping's format %m/%d/%Y %H:%M" in errors[4, "sampled_at"]
    assert "never happened in America/New_York" in errors[5, "sampled_at"]
    assert errors[6, "parameter"] == "'Zinc' is zinc but its CAS number 7439-92-1 is lead"
    with pytest.raises(lm.RowsRefused, match="the first: row 2, field qualifier"):
        lm.preset("generic-edd").apply(edd("S,03/02/2026 08:00,grab,pH,,7,SU,Q,,m"), "x")


def test_qualifier_meanings_are_the_projects_codes() -> None:
    m = mapping(qualifiers={"<RL": "non-detect", "E": "estimated", "BB": "blank", "*": "keep"})
    mapped = m.read(
        edd(
            "S,03/02/2026 08:00,grab,Copper,,0.01,mg/L,<RL,0.01,m",
            "S,03/02/2026 08:00,grab,Zinc,,0.02,mg/L,E,0.05,m",
            "S,03/02/2026 08:00,grab,Lead,,0.03,mg/L,BB,0.01,m",
            "S,03/02/2026 08:00,grab,Nickel,,0.04,mg/L,*,0.01,m",
            "S,03/02/2026 08:00,grab,Iron,,0.04,mg/L,u,0.01,m",  # codes are compared as written
        ),
        "lab.csv",
    )
    assert mapped.frame.get_column("qualifier").to_list() == ["U", "J", "B", "*"]
    assert mapped.errors.select("row", "field").rows() == [(6, "qualifier")]
    ev = evaluate_table(mapped.frame, load_jurisdiction("wappinger"))
    nd = dict(ev.results.select("analyte", "nd").iter_rows())
    assert nd == {"copper": True, "zinc": False, "lead": False, "nickel": False}


def test_the_laboratorys_own_names_and_the_cas_fallback() -> None:
    m = mapping(analytes={"Cu (Total Rec.)": "Copper", "Grease & Oil (HEM)": "oil_grease"})
    mapped = m.read(
        edd(
            "S,03/02/2026 08:00,composite,CU (total rec.),,0.5,mg/L,,,m",
            "S,03/02/2026 08:00,grab,Grease & Oil (HEM),,12,mg/L,,,m",
            "S,03/02/2026 08:00,composite,Unobtainium,7439-89-6,1,mg/L,,,m",
            "S,03/02/2026 08:00,composite,Unobtainium,,1,mg/L,,,m",
        ),
        "lab.csv",
    )
    assert mapped.frame.get_column("parameter").to_list() == [
        "copper",
        "oil_grease",
        "iron",
        "Unobtainium",  # left to the engine, which refuses it: unknown parameter
    ]
    ev = evaluate_table(mapped.frame, load_jurisdiction("wappinger"))
    assert ev.errors.select("row", "field", "message").rows() == [
        (5, "parameter", "unknown parameter 'Unobtainium'")
    ]


def test_separate_date_and_time_columns() -> None:
    header = (
        "Sample ID,Collection Date,Collection Time,Sample Type,Analyte,CAS Number,Result,Units,"
        "Qualifier,Reporting Limit,Method"
    )
    mapped = lm.preset("edd-date-time").read(
        edd(
            "S,03/02/2026,08:15,grab,pH,,7,SU,,,m",
            "T,03/02/2026,,grab,pH,,7,SU,,,m",  # no time: midnight, as 2026-03-02 in ISO
            "U,,08:15,grab,pH,,7,SU,,,m",
            header=header,
        ),
        "lab.csv",
    )
    assert mapped.frame.get_column("sampled_at").to_list() == [
        "2026-03-02T08:15:00-05:00",
        "2026-03-02T00:00:00-05:00",
        None,  # no date: the engine refuses the row (sampled_at)
    ]


def test_a_missing_column_refuses_the_file_naming_it() -> None:
    with pytest.raises(lm.FileDoesNotFit, match="no column 'Sample Type'"):
        lm.preset("generic-edd").read(frame("Sample ID,Collection Date\nS,03/02/2026 08:00\n"), "x")
    # the optional ones (Analysis Date, Facility, Sampling Point) may be absent, not the others
    short = HEADER.replace(",Method", "")
    with pytest.raises(lm.FileDoesNotFit, match="no column 'Method'"):
        lm.preset("generic-edd").read(edd("S,03/02/2026 08:00,grab,pH,,7,SU,,", header=short), "x")
    with pytest.raises(lm.FileDoesNotFit, match="appears twice"):
        lm.preset("generic-edd").read(frame("Result,result \n1,2\n"), "x")


def test_an_ambiguous_autumn_hour_is_read_as_the_engine_reads_it() -> None:
    mapped = (
        lm.preset("generic-edd").read(edd("S,11/01/2026 01:30,grab,pH,,7,SU,,,m"), "lab.csv").frame
    )
    ours = parse_datetimes(mapped.get_column("sampled_at"), "America/New_York")
    engine = parse_datetimes(pl.Series(["2026-11-01T01:30"]), "America/New_York")
    assert ours.equals(engine)
    assert mapped.item(0, "sampled_at") == "2026-11-01T01:30:00-04:00"  # the first of the two


def test_a_format_with_an_offset_keeps_the_instant() -> None:
    m = mapping(date_format="%Y/%m/%d %H:%M %z")
    mapped = m.read(edd("S,2026/03/02 13:00 +0000,grab,pH,,7,SU,,,m"), "lab.csv").frame
    assert mapped.item(0, "sampled_at") == "2026-03-02T08:00:00-05:00"


@pytest.mark.parametrize(
    "path",
    [
        ROOT / "examples" / "lab-results-2026-03.csv",
        ROOT / "examples" / "office" / "lab-results-acme.csv",
    ],
)
def test_the_identity_preset_is_no_mapping(path: Path) -> None:
    text = pl.read_csv(path, infer_schema=False)
    own = frame_with_rows(text, str(path))
    mapped = lm.preset("sewer-use").read(text, str(path))
    assert mapped.errors.height == 0
    params = load_jurisdiction("wappinger")
    a, b = evaluate_table(own, params), evaluate_table(mapped.frame, params)
    for part in ("results", "findings", "advisories", "errors", "monthly"):
        assert getattr(a, part).equals(getattr(b, part)), part


def test_describe_columns_says_what_each_holds() -> None:
    readings = {r.header: r for r in lm.describe_columns(pl.read_csv(EDD, infer_schema=False))}
    assert readings["CAS Number"].kind == "cas"
    assert "7440-50-8 → copper" in readings["CAS Number"].text
    assert readings["Qualifier"].text == "qualifier codes: J, U"
    assert readings["Qualifier"].codes == ("J", "U")
    assert readings["Units"].text.startswith("units: mg/L → mg/l")
    assert readings["Sample Type"].kind == "sample types"
    assert readings["Collection Date"].dates is not None
    assert readings["Collection Date"].dates.ambiguous
    assert readings["Analysis Date"].dates is not None
    assert readings["Analysis Date"].dates.formats == ("%m/%d/%Y %H:%M",)
    assert readings["Analyte"].kind == "parameters"
    assert readings["Sample ID"].kind == "text" and readings["Sample ID"].target == "sample_id"


# --- the command line ---------------------------------------------------------------------------


def test_check_with_a_mapping_finds_what_the_own_layout_finds(tmp_path: Path, capsys: Any) -> None:
    own, lab = write_both(tmp_path)
    limits = ROOT / "examples" / "permit-limits.csv"
    args = ["--format", "json", "--limits", str(limits)]
    assert main(["check", str(own), *args]) == 1
    mine = json.loads(capsys.readouterr().out)
    assert main(["check", str(lab), "--mapping", "generic-edd", *args]) == 1
    theirs = json.loads(capsys.readouterr().out)
    assert mine["results"] and any(r["findings"] for r in mine["results"])
    assert without_row_text(theirs) == without_row_text(mine)
    assert {(e["row"], e["field"]) for e in theirs["errors"]} == {
        (10, "sampled_at"),
        (11, "parameter"),
    }


def test_check_with_a_mapping_file_and_its_refusals(tmp_path: Path, capsys: Any) -> None:
    assert main(["check", str(EDD), "--mapping", str(EDD_MAPPING), "--format", "csv"]) in (0, 1)
    out = capsys.readouterr().out
    assert out.count("\n") == 56  # the header and the file's 55 results
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "\nS,03/02/2026 08:00,grab,pH,,7,SU,ZZ,,m\n", encoding="utf-8")
    assert main(["check", str(bad), "--mapping", "generic-edd"]) == 1
    out = capsys.readouterr().out
    assert "row 2, field qualifier: qualifier 'ZZ' has no meaning in the mapping" in out
    assert "0 result(s) evaluated: none; 1 row error(s)." in out


def test_check_refuses_an_unusable_mapping_or_file(tmp_path: Path, capsys: Any) -> None:
    wrong = tmp_path / "m.yaml"
    wrong.write_text("name: m\ncolumns: {sample_id: S}\n", encoding="utf-8")
    assert main(["check", str(EDD), "--mapping", str(wrong)]) == 2
    assert "sampled_at: required" in capsys.readouterr().err
    assert main(["check", str(EDD), "--mapping", str(tmp_path / "none.yaml")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    iso = tmp_path / "iso.yaml"
    iso.write_text(
        yaml.safe_dump({**lm.read_mapping_file(EDD_MAPPING).to_dict(), "date_format": "iso"}),
        encoding="utf-8",
    )
    assert main(["check", str(EDD), "--mapping", str(iso)]) == 2
    err = capsys.readouterr().err
    assert "'Collection Date' (sampled_at) holds dates like '03/02/2026 07:00'" in err
    own = ROOT / "examples" / "lab-results-2026-03.csv"
    assert main(["check", str(own), "--mapping", "generic-edd"]) == 2
    assert "no column 'Sample ID'" in capsys.readouterr().err


def test_check_with_a_preset_needs_no_office(tmp_path: Path) -> None:
    """A preset or a file never starts Django (and so works without any office database)."""
    code = (
        "import contextlib, io, sys\n"
        "from sewer_cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    a = main(['check', {str(EDD)!r}, '--mapping', 'generic-edd'])\n"
        f"    b = main(['check', {str(EDD)!r}, '--mapping', {str(EDD_MAPPING)!r}])\n"
        "print(a, b, 'django' in sys.modules)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "SEWER_USE_DATA_DIR": str(tmp_path / "nowhere")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["0", "0", "False"]


def test_the_identity_preset_on_the_command_line(capsys: Any) -> None:
    own = ROOT / "examples" / "lab-results-2026-03.csv"
    assert main(["check", str(own), "--format", "json"]) == 1
    plain = capsys.readouterr().out
    assert main(["check", str(own), "--format", "json", "--mapping", "sewer-use"]) == 1
    assert capsys.readouterr().out == plain
    assert read_results(own).height == 126
