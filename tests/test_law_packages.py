"""Jurisdictions as packages of law: the loader, the grammars, the ladder's clock, the cases.

Wappinger's package must say what the code already says (its registry, its citations, its
§ 196-22 A deadline); the Town of Poughkeepsie's must count from mailing; a package with a
mistake must be refused with the file and the field named.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from sewer_cli.main import main
from sewer_rules.citation_grammar import (
    ModelOrdinanceGrammar,
    OnlineCodeGrammar,
    ProvisionRef,
    TownCodeGrammar,
)
from sewer_rules.citations import Citation, CitationError
from sewer_rules.enforcement_ladder import Clock, ClockStart, DayCount, Step
from sewer_rules.law_cases import Case, CaseFileError, check_cases, run_case
from sewer_rules.law_package import LawPackageError, bundled_laws, load_law
from sewer_rules.ordinance.s196_22_penalties import notice_deadline
from sewer_rules.parameters import load_jurisdiction
from sewer_rules.response_clock import Events, ResponseClockError, response_due
from sewer_rules.sections import REGISTRY

pytestmark = pytest.mark.database_free

WAPPINGER = TownCodeGrammar(chapter=196, first=15, last=23, definitions=15)


def test_the_bundled_packages_load() -> None:
    assert {"wappinger", "demo", "town-of-poughkeepsie"} <= set(bundled_laws())
    for key in bundled_laws():
        law = load_law(key)
        assert law.sections and law.ladder.steps
        law.params()


def test_wappinger_package_is_the_registry_and_its_grammar_reads_as_citation_does() -> None:
    law = load_law("wappinger")
    assert [r.citation for r in law.sections] == [str(c) for c in REGISTRY]
    for citation in REGISTRY:
        text = str(citation)
        assert WAPPINGER.format(WAPPINGER.parse(text)) == text == str(Citation.parse(text))
    for bad in ("§ 196-24", "§ 196-14 A", "§ 196-19 c", "§ 195-19 A", "§ 196-19 SLUG"):
        with pytest.raises(CitationError):
            Citation.parse(bad)
        with pytest.raises(CitationError):
            WAPPINGER.parse(bad)
    assert load_law("demo").sections == law.sections  # the demo is Wappinger's law


@pytest.mark.parametrize(
    ("grammar", "text", "ref"),
    [
        (ModelOrdinanceGrammar("1.4"), "Section 10.1", ProvisionRef("10.1")),
        (ModelOrdinanceGrammar("1.4"), "Section 2.1(B)(4)", ProvisionRef("2.1", ("B", "4"))),
        (
            ModelOrdinanceGrammar("1.4"),
            "Section 1.4 SLUG LOAD",
            ProvisionRef("1.4", term="SLUG LOAD"),
        ),
        (
            OnlineCodeGrammar("T. Poughkeepsie Code"),
            "T. Poughkeepsie Code [ecode360 6322621] B(2)",
            ProvisionRef("6322621", ("B", "2")),
        ),
    ],
)
def test_grammars_round_trip(grammar: object, text: str, ref: ProvisionRef) -> None:
    assert grammar.parse(text) == ref  # type: ignore[attr-defined]
    assert grammar.format(ref) == text  # type: ignore[attr-defined]


def test_model_ordinance_grammar_refuses_a_town_code_citation() -> None:
    with pytest.raises(CitationError):
        ModelOrdinanceGrammar("1.4").parse("§ 196-19 A")
    with pytest.raises(CitationError):
        ModelOrdinanceGrammar("1.4").parse("Section 2.1 SLUG")  # terms only under 1.4


def test_wappinger_ladder_gives_the_196_22_a_deadline_every_day() -> None:
    law = load_law("demo")
    step, params = law.ladder.step("notice_of_violation"), law.params()
    day = date(2024, 1, 1)
    while day < date(2028, 1, 1):
        for stated in (None, 10, 17):
            due = response_due(step, Events(served=day), params, stated)
            assert due.due == notice_deadline(day, params, stated).deadline, (day, stated)
        day += timedelta(days=1)


def test_poughkeepsie_counts_from_mailing_and_wappinger_from_service() -> None:
    town = load_law("town-of-poughkeepsie")
    nov = town.ladder.step("notice_of_violation")
    events = Events(served=date(2026, 7, 27), mailed=date(2026, 7, 24))
    assert response_due(nov, events, town.params()).due == date(2026, 8, 3)
    w = load_law("wappinger")
    assert response_due(w.ladder.step("notice_of_violation"), events, w.params()).due == date(
        2026, 8, 6
    )
    assert town.ladder.step("administrative_order").may_end_service
    assert town.ladder.fine.kind == "not_configured"


def test_business_days_skip_weekends_and_holidays_as_they_are_counted() -> None:
    params = load_jurisdiction("wappinger")
    step = Step(
        "x",
        "A step of business days",
        "§ 196-22 A",
        "superintendent",
        clock=Clock(ClockStart.RECEIPT, DayCount.BUSINESS, days=5),
    )
    # received Wednesday 2026-11-04: Thu 5, Fri 6, (Sat, Sun), Mon 9, Tue 10, (Wed 11 Veterans'
    # Day), Thu 12 — the fifth business day
    due = response_due(step, Events(received=date(2026, 11, 4)), params)
    assert due.due == date(2026, 11, 12)
    assert [d.day for d in due.moved_over] == [
        date(2026, 11, 7),
        date(2026, 11, 8),
        date(2026, 11, 11),
    ]
    with pytest.raises(ResponseClockError, match="receipt"):
        response_due(step, Events(served=date(2026, 11, 4)), params)


@pytest.mark.parametrize("key", bundled_laws())
def test_each_package_passes_its_own_cases(key: str) -> None:
    outcomes = check_cases(load_law(key))
    failed = [(o.case.name, o.problems) for o in outcomes if not o.passed]
    assert not failed
    if key in ("wappinger", "town-of-poughkeepsie"):
        assert outcomes  # both carry cases of their own


def test_each_parameter_an_implemented_row_names_exists() -> None:
    for key in bundled_laws():
        law = load_law(key)
        params = law.params()
        for row in law.sections:
            for name in row.implemented_by:
                if name.startswith("parameter:"):
                    assert name.removeprefix("parameter:") in params.parameters, (key, row.citation)


def _package(tmp_path: Path, law: str, sections: str) -> Path:
    d = tmp_path / "town"
    d.mkdir()
    (d / "law.yaml").write_text(law, encoding="utf-8")
    (d / "sections.yaml").write_text(sections, encoding="utf-8")
    (d / "parameters.yaml").write_text("jurisdiction: town\nparameters: {}\n", encoding="utf-8")
    return d


LAW = """key: town
name: A town
law: Its code
grammar: {kind: model-ordinance, definitions: "1.4"}
parameters: parameters.yaml
sections: sections.yaml
officials: {director: {title: Director}}
ladder:
  notice:
    label: Notice
    citation: Section 10.1
    issued_by: director
    demand: explain_and_plan
    clock: {start: receipt, days: 30}
"""


@pytest.mark.parametrize(
    ("law", "sections", "message"),
    [
        (LAW.replace("model-ordinance", "statute"), "sections: []", "law.yaml: grammar: kind"),
        (
            LAW.replace("issued_by: director", "issued_by: mayor"),
            "sections: []",
            "ladder.notice.issued_by",
        ),
        (
            LAW.replace("start: receipt", "start: posting"),
            "sections: []",
            "ladder.notice.clock.start",
        ),
        (
            LAW.replace("days: 30}", "days: 30, stated: true}"),
            "sections: []",
            "a period the order states has no days or parameter of its own",
        ),
        (
            LAW,
            "sections: [{citation: Section 10.1, heading: N, status: not_formalized}]",
            "says why",
        ),
        (
            LAW,
            "sections: [{citation: Section 10.1, heading: N, status: implemented}]",
            "names what implements",
        ),
        (
            LAW,
            "sections: [{citation: Section 10.1, heading: N, status: implemented, implemented_by: 'ladder:order'}]",
            "no such step",
        ),
        (
            LAW,
            "sections: [{citation: Section 10.1, heading: N, status: implemented, implemented_by: sewer_rules.response_clock.nothing}]",
            "no such function",
        ),
        (
            LAW,
            "sections: [{citation: Section 10.1(A), heading: N, status: informational}]",
            "without its section Section 10.1",
        ),
        (
            LAW,
            "sections: [{citation: § 196-19, heading: N, status: informational}]",
            "sections.yaml: sections, item 1: citation",
        ),
        (
            LAW,
            "sections: [{citation: Section 1, heading: N, status: informational}, {citation: Section 1, heading: M, status: informational}]",
            "listed twice",
        ),
    ],
)
def test_a_package_with_a_mistake_is_refused_with_its_file_and_field(
    tmp_path: Path, law: str, sections: str, message: str
) -> None:
    d = _package(tmp_path, law, sections)
    with pytest.raises(LawPackageError, match=None) as e:
        load_law(str(d))
    assert message in str(e.value)


def test_a_package_on_disk_loads_and_answers(tmp_path: Path) -> None:
    sections = (
        "sections: [{citation: Section 10.1, heading: Notification of violation, status: "
        "implemented, implemented_by: 'ladder:notice'}]"
    )
    law = load_law(str(_package(tmp_path, LAW, sections)))
    due = response_due(law.ladder.step("notice"), Events(received=date(2026, 3, 2)), law.params())
    assert due.due == date(2026, 4, 1)  # no rollover parameter: the 30th day as it falls


def test_cli_fines_and_sections_under_poughkeepsie(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "fines",
            "--jurisdiction",
            "town-of-poughkeepsie",
            "--mailed",
            "2026-11-01",
            "--format",
            "json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert out["response"]["due"] == "2026-11-12"
    assert out["response"]["citation"] == "T. Poughkeepsie Code [ecode360 6322621] A"
    assert out["fine"]["kind"] == "not_configured"
    assert main(["fines", "--jurisdiction", "town-of-poughkeepsie", "--served", "2026-11-01"]) == 2
    assert "mailing" in capsys.readouterr().err
    assert main(["sections", "--jurisdiction", "town-of-poughkeepsie", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["coverage"]["implemented"] == 4
    assert main(["sections", "--jurisdiction", "town-of-poughkeepsie", "§ 196-22 A"]) == 2
    # Wappinger's answers stay as they were
    assert (
        main(
            [
                "fines",
                "--served",
                "2026-01-05",
                "--corrected",
                "2026-01-20",
                "--jurisdiction",
                "demo",
                "--format",
                "json",
            ]
        )
        == 1
    )
    assert json.loads(capsys.readouterr().out)["total"] == "1550.00"


def test_commands_of_wappingers_article_refuse_another_law(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Another town's law is never judged by Wappinger's article: check, slugs and the other
    article commands refuse it and say where to read what its law does."""
    results = Path(__file__).resolve().parents[1] / "examples" / "lab-results-2026-03.csv"
    assert main(["check", str(results), "--jurisdiction", "town-of-poughkeepsie"]) == 2
    err = capsys.readouterr().err
    assert "Article VII" in err and "sections --jurisdiction town-of-poughkeepsie" in err
    assert main(["params", "--jurisdiction", "town-of-poughkeepsie", "--format", "json"]) == 0


def test_a_rule_case_calls_only_what_the_registry_names() -> None:
    """A package's ``rule`` case runs a function its registry says implements a provision,
    never any function a case file names."""
    town = load_law("town-of-poughkeepsie")
    named = Case(
        "x.yaml",
        "n",
        "rule",
        {
            "rule": "sewer_rules.local.town_of_poughkeepsie.explosion_hazard",
            "args": {"readings": ["41"], "taken_on": "2026-03-02"},
        },
        [],
    )
    assert run_case(town, named) == [
        {
            "test": "a single reading",
            "readings": [1],
            "percents": ["41"],
            "limit": "40",
            "limit_authority": "L.L. No. 4-1999",
            "citation": "T. Poughkeepsie Code [ecode360 6322550] A(1)",
        }
    ]
    stranger = Case(
        "x.yaml",
        "s",
        "rule",
        {"rule": "sewer_rules.calendars.election_day", "args": {"year": 2026}},
        [],
    )
    with pytest.raises(CaseFileError, match="implements no provision"):
        run_case(town, stranger)
