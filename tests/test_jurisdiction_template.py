"""``sewer-use jurisdiction new NAME --from epa-model-2007``: a package written from EPA's model
ordinance loads at once, says "not configured" for everything the town must choose, and is
written all or nothing; ``list``, ``show`` and ``check`` read packages."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
import yaml

from sewer_cli import cmd_jurisdiction
from sewer_cli.main import main
from sewer_rules import jurisdiction_template
from sewer_rules.enforcement_ladder import ClockStart, Demand, FineKind
from sewer_rules.jurisdiction_template import TemplateError, schema_gaps, slug, write_package
from sewer_rules.law_package import bundled_laws, load_law
from sewer_rules.parameter_schema import Schema, parameter_schema
from sewer_rules.response_clock import Events, ResponseClockError, petition_due, response_due
from sewer_rules.templates import template, template_names

ADOPTED = date(2027, 1, 4)
MODEL = template("epa-model-2007")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def written(tmp_path: Path, name: str = "Town of Fishkill") -> Path:
    return write_package(name, tmp_path / slug(name), adopted=ADOPTED)


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(directory)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_the_written_package_loads_with_every_provision_not_configured(tmp_path: Path) -> None:
    law = load_law(str(written(tmp_path)))
    assert (law.key, law.name, law.template) == ("town-of-fishkill", "Town of Fishkill", MODEL.key)
    assert law.grammar.kind == "model-ordinance"
    assert law.cite("Section 1.4 SUPERINTENDENT") == "Section 1.4 SUPERINTENDENT"
    assert law.counts() == {
        "implemented": 0,
        "not_formalized": 0,
        "informational": 0,
        "not_configured": 85,
    }
    assert [r.citation for r in law.sections] == [s.citation for s in MODEL.sections]
    assert {"Section 10", "Section 13.3", "Section 15"} <= {r.citation for r in law.sections}
    assert [r.citation for r in law.sections if r.citation.startswith("Section 10.")] == [
        f"Section 10.{n}" for n in range(1, 9)
    ]
    assert all(r.summary and r.source == MODEL.source_url for r in law.sections)
    assert [(s.title, s.url) for s in law.sources] == [(MODEL.source_title, MODEL.source_url)]


def test_the_ladder_is_the_models_with_no_days_configured(tmp_path: Path) -> None:
    law = load_law(str(written(tmp_path)))
    ladder = law.ladder
    assert [s.key for s in ladder.steps] == [
        "notice_of_violation",
        "consent_order",
        "show_cause_hearing",
        "compliance_order",
        "cease_and_desist_order",
        "administrative_fine",
        "emergency_suspension",
        "termination_of_discharge",
    ]
    assert [s.citation for s in ladder.steps] == [f"Section 10.{n}" for n in range(1, 9)]
    cited = {r.citation for r in law.sections}
    assert all(s.citation in cited for s in ladder.steps)
    assert [o.title for o in ladder.officials] == ["Superintendent (to be named by the town)"]
    notice = ladder.step("notice_of_violation")
    assert notice.demand is Demand.EXPLAIN_AND_PLAN
    assert notice.clock is not None and notice.clock.start is ClockStart.RECEIPT
    assert notice.clock.days is None
    ending = {s.key for s in ladder.steps if s.may_end_service}
    assert ending == {"compliance_order", "emergency_suspension", "termination_of_discharge"}
    assert ladder.fine.kind is FineKind.ADMINISTRATIVE
    assert ladder.fine.citation == "Section 10.6"
    assert ladder.fine.reason.endswith("amount not configured")
    # the law says it cannot count rather than guessing a number of days
    events = Events(received=date(2027, 3, 5))
    with pytest.raises(ResponseClockError, match="not configured"):
        response_due(notice, events, law.params())
    with pytest.raises(ResponseClockError, match="not configured"):
        petition_due(ladder.step("administrative_fine"), events, law.params())


def test_its_parameters_load_each_null_from_the_day_of_adoption(tmp_path: Path) -> None:
    law = load_law(str(written(tmp_path)))
    params = law.params()
    assert (params.jurisdiction, params.timezone, params.holidays) == (
        "town-of-fishkill",
        "America/New_York",
        "",
    )
    wanted = {p.key for p in MODEL.parameters} - {p.key for p in schema_gaps()}
    assert set(params.parameters) == wanted
    assert {"notice.explanation_days", "industrial_approval.term_years"} <= wanted
    assert wanted <= set(parameter_schema().keys)
    for p in params.parameters.values():
        assert [(v.effective, v.value, v.authority) for v in p.values] == [
            (ADOPTED, None, "not configured (EPA model template)")
        ]
    clocks = [s.clock for s in law.ladder.steps if s.clock] + [
        s.petition.clock for s in law.ladder.steps if s.petition
    ]
    assert all(c.parameter in params.parameters for c in clocks if c.parameter)


def test_a_key_the_schema_lacks_is_left_out_and_its_clock_names_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = parameter_schema()
    keys = {k: v for k, v in real.keys.items() if k != "notice.explanation_days"}
    monkeypatch.setattr(jurisdiction_template, "parameter_schema", lambda: Schema(keys, ()))
    law = load_law(str(written(tmp_path, "Village of Gaps")))
    clock = law.ladder.step("notice_of_violation").clock
    assert clock is not None and (clock.days, clock.parameter) == (None, "")
    assert "notice.explanation_days" not in law.params().parameters
    readme = (tmp_path / "village-of-gaps" / "README.md").read_text(encoding="utf-8")
    assert "`notice.explanation_days` (day, Section 10.1)" in readme


def test_its_cases_file_is_an_empty_list_that_says_how_to_write_a_case(tmp_path: Path) -> None:
    directory = written(tmp_path)
    law = load_law(str(directory))
    assert [c.name for c in law.cases] == ["cases.yaml"]
    text = (directory / "cases" / "cases.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text) == []
    assert "kind: response" in text and "expect:" in text


def test_a_second_new_into_the_same_directory_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = written(tmp_path)
    before = snapshot(directory)
    with pytest.raises(TemplateError, match="exists and is not empty"):
        write_package("Town of Fishkill", directory, adopted=date(2028, 1, 1))
    code, _, err = run(
        capsys,
        "jurisdiction",
        "new",
        "Town of Fishkill",
        "--from",
        "epa-model-2007",
        "--directory",
        str(directory),
    )
    assert code == 2 and "exists and is not empty" in err
    assert snapshot(directory) == before
    assert list(tmp_path.iterdir()) == [directory]  # no temporary directory left beside it


def test_an_empty_directory_is_written_into_and_a_bad_option_leaves_nothing(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    write_package("Town of Empty", empty, adopted=ADOPTED)
    assert (empty / "law.yaml").is_file()
    with pytest.raises(TemplateError, match="holidays must name a calendar"):
        write_package("Town of Bad", tmp_path / "bad", adopted=ADOPTED, holidays="new york")
    with pytest.raises(TemplateError, match="not a time zone"):
        write_package("Town of Bad", tmp_path / "bad", adopted=ADOPTED, timezone="Mars/Base")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]


def test_new_list_show_and_check_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "fishkill"
    code, out, _ = run(
        capsys,
        "jurisdiction",
        "new",
        "Town of Fishkill",
        "--from",
        "epa-model-2007",
        "--directory",
        str(directory),
        "--adopted",
        "2027-01-04",
        "--holidays",
        "US-NY",
    )
    assert code == 0
    assert "85 sections and subsections, all not_configured" in out
    assert "null from 2027-01-04" in out and "next steps" in out
    assert load_law(str(directory)).params().holidays == "US-NY"

    code, out, _ = run(
        capsys, "jurisdiction", "show", str(directory), "--format", "json", "--on", "2027-02-01"
    )
    assert code == 0
    data = json.loads(out)
    assert data["template"] == "epa-model-2007" and data["sections"]["not_configured"] == 85
    notice = data["ladder"][0]
    assert notice["citation"] == "Section 10.1"
    assert notice["issued_by"] == "Superintendent (to be named by the town)"
    assert notice["counted_from"] == "receipt (calendar days)"
    assert notice["days"] == "notice.explanation_days = not configured"
    assert [s["may_end_service"] for s in data["ladder"]] == [
        False,
        False,
        False,
        True,
        False,
        False,
        True,
        True,
    ]
    assert data["fine"] == {
        "kind": "administrative",
        "citation": "Section 10.6",
        "daily_amount_parameter": None,
        "reason": "imposed by the Superintendent, reconsidered at a hearing on the user's request; amount not configured",
    }
    code, out, _ = run(capsys, "jurisdiction", "show", str(directory), "--on", "2026-12-31")
    assert code == 0 and "1. Notice of violation" in out and "8. Termination of discharge" in out
    assert "days: notice.explanation_days: no value yet on 2026-12-31" in out

    code, out, _ = run(capsys, "jurisdiction", "list", "--format", "json")
    assert code == 0
    listed = {j["key"]: j for j in json.loads(out)}
    assert set(listed) == set(bundled_laws())
    assert listed["wappinger"]["example"] == "§ 196-15 A"
    assert sum(listed["wappinger"]["sections"].values()) == len(load_law("wappinger").sections)
    code, out, _ = run(capsys, "jurisdiction", "list")
    assert code == 0 and "wappinger — Town of Wappinger" in out

    code, out, _ = run(capsys, "jurisdiction", "check", str(directory))
    assert code == 0 and out.strip().endswith("0 case(s), 0 passed, 0 failed")


def test_check_fails_on_a_case_the_law_does_not_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = written(tmp_path)
    case = {
        "name": "a notice received on a Friday",
        "kind": "response",
        "input": {"step": "notice_of_violation", "received": "2027-03-05"},
        "expect": {"due": "2027-03-15"},
    }
    (directory / "cases" / "cases.yaml").write_text(yaml.safe_dump([case]), encoding="utf-8")
    code, out, _ = run(capsys, "jurisdiction", "check", str(directory))
    assert code == 1 and "FAIL" in out and "not configured" in out


def test_a_bad_template_or_package_exits_2_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "fishkill"
    code, out, err = run(
        capsys,
        "jurisdiction",
        "new",
        "Town of Fishkill",
        "--from",
        "epa-model-1992",
        "--directory",
        str(directory),
    )
    assert code == 2 and out == ""
    assert "unknown template 'epa-model-1992': use one of epa-model-2007" in err
    assert not directory.exists()
    code, _, err = run(capsys, "jurisdiction", "show", str(tmp_path / "nowhere"))
    assert code == 2 and "no jurisdiction" in err


def test_the_templates_named_in_help_are_the_ones_shipped() -> None:
    assert template_names() == cmd_jurisdiction.TEMPLATES


def test_the_key_is_the_names_slug() -> None:
    assert slug("Town of Fishkill, N.Y.") == "town-of-fishkill-n-y"
    assert slug("Ville de Lévis") == "ville-de-levis"
    assert slug("  --  ") == ""
    with pytest.raises(TemplateError, match="letters or digits"):
        write_package("--", Path("unused"))
