"""The registry of sections tells the truth about the office: every office function it names
exists, is callable and cites the provision in its docstring, and § 196-20, § 196-21 D and
§ 196-22 A–D are marked implemented only by what the office now does."""

from __future__ import annotations

import importlib
import inspect
import json
from datetime import date
from typing import Any

from sewer_rules.citations import Citation
from sewer_rules.parameters import load_jurisdiction
from sewer_rules.sections import OFFICE, REGISTRY, Coverage, explain

ENFORCEMENT = ("§ 196-20", "§ 196-21 D", "§ 196-22 A", "§ 196-22 B", "§ 196-22 C", "§ 196-22 D")


def _resolve(name: str) -> object:
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def test_every_office_implementer_exists_and_cites_its_provision() -> None:
    for text, names in OFFICE.items():
        entry = REGISTRY[Citation.parse(text)]
        assert entry.coverage is Coverage.IMPLEMENTED and entry.office == names
        for name in names:
            assert name.startswith("sewer_office."), name
            func = _resolve(name)
            assert callable(func), name
            assert text in (inspect.getdoc(func) or ""), f"{name} does not cite {text}"


def test_enforcement_provisions_are_marked_by_what_the_office_does() -> None:
    assert set(ENFORCEMENT) <= set(OFFICE)
    for text in ENFORCEMENT:
        entry = REGISTRY[Citation.parse(text)]
        assert entry.coverage is Coverage.IMPLEMENTED and entry.office, text
        assert entry.reason, f"{text}: say what the office does not do"
    # what the software does not do is said: conviction, recovery, the injunction itself
    assert "conviction" in REGISTRY[Citation.parse("§ 196-22 B")].reason
    assert "not computed" in REGISTRY[Citation.parse("§ 196-22 C")].reason
    assert "Supreme Court" in REGISTRY[Citation.parse("§ 196-22 D")].reason
    ex = explain("§ 196-22 C", load_jurisdiction("wappinger"), date(2026, 6, 1))
    assert ex.in_office == OFFICE["§ 196-22 C"] and ex.implemented_by == ()


def test_sections_command_names_the_office_functions(capsys: Any) -> None:
    from sewer_cli.main import main

    assert main(["sections", "§ 196-22 C", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "implemented"
    assert data["implemented_by"] == list(OFFICE["§ 196-22 C"])
    assert main(["sections", "--format", "json"]) == 0
    listed = {s["citation"]: s for s in json.loads(capsys.readouterr().out)["sections"]}
    assert (
        "sewer_rules.ordinance.s196_22_penalties.accrued_fines"
        in (listed["§ 196-22 B"]["implemented_by"])
    )
    assert "sewer_office.enforcement.services.fines" in listed["§ 196-22 B"]["implemented_by"]
    assert main(["sections", "--status", "implemented"]) == 0
    table = capsys.readouterr().out
    assert "office: enforcement.services.record_cost" in table
