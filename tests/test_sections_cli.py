"""``sewer-use sections``: the registry list, and one provision with its text, status,
implementing functions and the parameters it authorises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sewer_cli.main import main
from sewer_rules.law import provision
from sewer_rules.sections import REGISTRY


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_without_a_citation_the_list_is_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sections", "--status", "implemented")
    assert code == 0
    assert out.splitlines()[0].split() == [
        "citation",
        "heading",
        "status",
        "implemented",
        "by",
        "/",
        "reason",
    ]
    assert "§ 196-19 C(3)" in out and "§ 196-19 C(1) " not in out
    code, out, _ = run(capsys, "sections", "--format", "json")
    data = json.loads(out)
    assert len(data["sections"]) == len(REGISTRY)
    assert set(data["sections"][0]) == {"citation", "heading", "status", "implemented_by", "reason"}


def test_one_implemented_subsection_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sections", "§ 196-19 C(3)", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["citation"] == "§ 196-19 C(3)"
    assert data["status"] == "implemented"
    assert data["text"] == provision("§ 196-19 C(3)").text
    assert data["text"].startswith("(3) Any waters or wastes having a pH lower than 5.5")
    assert (
        "sewer_rules.ordinance.s196_19_use_of_public_sewers.prohibitions.PH_LOW"
        in data["implemented_by"]
    )
    assert data["parameters"] == [
        {
            "name": "ph.minimum",
            "value": "5.5",
            "unit": "SU",
            "effective": "1992-09-28",
            "authority": "L.L. No. 9-1992",
        }
    ]


def test_one_subsection_as_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sections", "§ 196-19 D(9)(d)")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "§ 196-19 D(9)(d) — Slugs; immediate report"
    assert lines[1] == "status: implemented"
    assert "(d) Unusual volume of flow or concentration of wastes constituting slugs" in out
    assert "implemented by:" in out


def test_a_definition_with_its_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sections", "§ 196-15 SLUG", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["text"].splitlines()[0] == "SLUG"
    names = {p["name"] for p in data["parameters"]}
    assert {"slug.multiple", "slug.minimum_duration", "slug.baseline_window"} <= names
    assert all(n.startswith("slug.") for n in names)  # only what § 196-15 SLUG authorises


def test_not_formalized_shows_its_reason_and_no_parameters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "sections", "§ 196-19 C(1)")
    assert code == 0
    assert "status: not_formalized — no numeric limit; found by inspection" in out
    assert "gasoline, benzene, naphtha" in out
    assert "implemented by: nothing (not computed)" in out
    assert "parameters it authorises: none" in out
    code, out, _ = run(capsys, "sections", "§ 196-19", "--format", "json")
    data = json.loads(out)
    assert data["status"] == "informational" and data["parameters"] == []
    assert "(10) Waters or wastes" in data["text"]


def test_parameters_that_are_not_configured_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sections", "§ 196-19 D(5)")
    assert code == 0
    assert "local_limit.iron" in out and "not configured" in out


def test_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "c3.json"
    code, out, _ = run(
        capsys, "sections", "§ 196-19 C(3)", "--format", "json", "--output", str(target)
    )
    assert code == 0 and out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["citation"] == "§ 196-19 C(3)"


@pytest.mark.parametrize(
    ("citation", "message"),
    [
        ("§ 196-19 C(9)", "§ 196-19 C(9) is not a section or subsection of Article VII"),
        ("§ 196-15 FOO", "§ 196-15 FOO is not a section or subsection of Article VII"),
        ("C(3)", "not a citation of Article VII: 'C(3)'"),
        ("§ 196-30", "§ 196-30 is not a section of Article VII"),
    ],
)
def test_an_unknown_citation_exits_2_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], citation: str, message: str
) -> None:
    code, out, err = run(capsys, "sections", citation)
    assert code == 2 and out == ""
    assert err.startswith("sewer-use: ") and message in err


def test_status_does_not_apply_to_one_citation(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sections", "§ 196-19 C(3)", "--status", "implemented")
    assert code == 2 and "--status" in err


# --- the text by date (--on) ----------------------------------------------------------------


def test_a_provision_added_later_is_absent_on_an_earlier_day(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """§ 196-21 D was added 2003-08-18 by L.L. No. 10-2003: the day before, no words; it says
    so and exits 0 (a past day is a question with an answer, not an error)."""
    code, out, _ = run(capsys, "sections", "§ 196-21 D", "--on", "2003-08-17", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["text_on"] == "2003-08-17"
    assert data["text_state"] == "not_in_force" and data["text"] == ""
    assert "added 2003-08-18 by L.L. No. 10-2003" in data["text_note"]
    assert data["history"] == [
        {
            "citation": "§ 196-21 D",
            "change": "added",
            "effective": "2003-08-18",
            "law": "L.L. No. 10-2003",
        }
    ]
    code, out, _ = run(capsys, "sections", "§ 196-21 D", "--on", "2003-08-18", "--format", "json")
    data = json.loads(out)
    assert data["text_state"] == "in_force" and data["text_note"] == ""
    assert data["text"] == provision("§ 196-21 D").text  # from its first day, today's words


def test_an_amended_provision_before_its_amendment_is_not_on_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """§ 196-22 B as amended 2004-03-22 (L.L. No. 5-2004) is all the shipped article gives: on
    2004-03-21 its words are not on file, and no text is invented; the table says so."""
    code, out, _ = run(capsys, "sections", "§ 196-22 B", "--on", "2004-03-21")
    assert code == 0
    assert "text in force on 2004-03-21:" in out
    assert "NOTE: text before L.L. No. 5-2004 not on file" in out
    assert "122-20Y" not in out.split("implemented by")[0]  # the amended words are not shown
    code, out, _ = run(capsys, "sections", "§ 196-22 B", "--on", "2004-03-22", "--format", "json")
    data = json.loads(out)
    assert data["text_state"] == "in_force" and "122-20Y of the Code" in data["text"]


def test_on_dates_the_parameters_too_and_needs_a_citation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "sections", "§ 196-19 C(3)", "--on", "1995-01-01", "--format", "json"
    )
    data = json.loads(out)
    assert code == 0 and data["parameters_on"] == "1995-01-01"
    assert [p["effective"] for p in data["parameters"]] == ["1992-09-28"]
    # before the article's adoption (1992-09-28): nothing in force, no parameter either
    code, out, _ = run(
        capsys, "sections", "§ 196-19 C(3)", "--on", "1992-09-27", "--format", "json"
    )
    data = json.loads(out)
    assert code == 0 and data["text_state"] == "not_in_force" and data["parameters"] == []
    assert "adopted 1992-09-28 by L.L. No. 9-1992" in data["text_note"]
    code, _, err = run(capsys, "sections", "--on", "2003-01-01")
    assert code == 2 and "--on dates the text of one provision" in err
    with pytest.raises(SystemExit):
        main(["sections", "§ 196-21 D", "--on", "2003-13-01"])


# --- the list agrees with the code, both ways --------------------------------------------------


def test_the_list_names_exactly_what_implements_each_entry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every implemented entry lists what implements it (rules or office) and nothing else
    does: the command prints the registry and the @implements declarations, no other source."""
    from sewer_rules.rulebook import implementers
    from sewer_rules.sections import OFFICE, Coverage

    code, out, _ = run(capsys, "sections", "--format", "json")
    assert code == 0
    listed = {s["citation"]: s for s in json.loads(out)["sections"]}
    impl = implementers()
    for citation, entry in REGISTRY.items():
        row = listed[str(citation)]
        expected = [*impl.get(citation, []), *OFFICE.get(str(citation), ())]
        assert row["implemented_by"] == expected, citation
        assert row["status"] == str(entry.coverage)
        # implemented ⇔ something implements it
        assert (entry.coverage is Coverage.IMPLEMENTED) == bool(expected), citation


def test_a_provision_shows_its_reference_and_the_engine_beside_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The readable rule first (its dotted name and first sentence), the engine tested equal
    to it on the next line."""
    code, out, _ = run(capsys, "sections", "§ 196-15 SLUG")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("implemented by:")
    assert lines[at + 1].startswith("  sewer_rules.monitoring.slugs.slugs_of — § 196-15 SLUG read")
    assert lines[at + 2] == "    engine: sewer_engines.monitoring.slugs.detect_slugs"
    code, out, _ = run(capsys, "sections", "§ 196-19 C(3)", "--format", "json")
    refs = {r["name"]: r for r in json.loads(out)["references"]}
    ph = refs["sewer_rules.monitoring.excursions.ph_below_minimum"]
    assert ph["engines"] == ["sewer_engines.monitoring.excursions.excursions"]
    assert ph["summary"].startswith("§ 196-19 C(3): runs of pH lower than 5.5")
