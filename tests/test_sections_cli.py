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
    assert {p["name"] for p in data["parameters"]} == {
        "slug.multiple",
        "slug.minimum_duration",
        "slug.baseline_window",
    }


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
