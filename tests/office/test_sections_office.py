"""The registry of sections tells the truth about the office: every office function it names
exists, is callable and cites the provision in its docstring (or, for a workflow step, carries
it as its citation); what the office carries out is listed with its functions; § 196-20 and
§ 196-22 A–D are marked implemented only by what the office now does."""

from __future__ import annotations

import importlib
import inspect
import json
from datetime import date
from typing import Any

from sewer_office.core.workflow import Workflow
from sewer_rules.citations import Citation
from sewer_rules.parameters import load_jurisdiction
from sewer_rules.rulebook import explain
from sewer_rules.sections import OFFICE, REGISTRY, Coverage
from tests.test_citations_in_code import article_citations

ENFORCEMENT = ("§ 196-20", "§ 196-22 A", "§ 196-22 B", "§ 196-22 C", "§ 196-22 D")


def _resolve(name: str) -> object:
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def _cited_in(text: str) -> set[Citation]:
    """The article's provisions a docstring names, lists and ranges read into each one."""
    return {c for _, found in article_citations(text) if isinstance(found, list) for c in found}


def test_every_office_implementer_exists_and_cites_its_provision() -> None:
    """A function's docstring names the provision (alone, in a list or a range); a workflow
    step (``module.WORKFLOW:transition``) carries it as its citation."""
    for text, names in OFFICE.items():
        cited = Citation.parse(text)
        entry = REGISTRY[cited]
        assert entry.coverage is Coverage.IMPLEMENTED and entry.office == names
        for name in names:
            assert name.startswith("sewer_office."), name
            if ":" in name:
                where, _, step = name.partition(":")
                workflow = _resolve(where)
                assert isinstance(workflow, Workflow), name
                (transition,) = [t for t in workflow.transitions if t.name == step]
                assert cited in _cited_in(transition.citation), (
                    f"{name} cites {transition.citation}"
                )
                continue
            func = _resolve(name)
            assert callable(func), name
            assert cited in _cited_in(inspect.getdoc(func) or ""), f"{name} does not cite {text}"


#: What the office carries out that the registry once called "not formalized" (the audit's
#: list), each now naming its office functions.
CARRIED_OUT = (
    "§ 196-16 D",
    "§ 196-16 E",
    "§ 196-16 F",
    "§ 196-17 A",
    "§ 196-17 E",
    "§ 196-18 A",
    "§ 196-18 E",
    "§ 196-18 J",
    "§ 196-18 K",
    "§ 196-19 G",
    "§ 196-19 H",
    "§ 196-19 L",
    "§ 196-21 A",
    "§ 196-21 B",
    "§ 196-23 A",
    "§ 196-23 B",
)


def test_what_the_office_does_is_listed_with_its_functions() -> None:
    for text in CARRIED_OUT:
        entry = REGISTRY[Citation.parse(text)]
        assert entry.coverage is Coverage.IMPLEMENTED and entry.office, text
        assert entry.reason, f"{text}: say what the office does not do"


def test_every_office_citation_of_an_unformalized_provision_is_looked_at() -> None:
    """The other way: a provision the office's code cites in a docstring or a workflow step is
    either carried out (listed in OFFICE, or computed by the rules) or the registry says why
    not — never "not formalized" while an office function says it does it, unless that
    function only mentions it (listed here with the reason)."""
    from sewer_rules.rulebook import implementers

    mentions = {
        # the office records the County's approval and the certificate as facts it is told:
        # the decisions are another agency's or the Building Inspector's
        "§ 196-17 B": "a step recording the Health Department's approval (another agency)",
        "§ 196-17 C": "a step noting the certificate of occupancy (the Building Inspector's)",
        # the law gives the power to reject to the Superintendent; the office records only
        # the engineer's rejection of an approval request
        "§ 196-19 E(1)(a)": "the engineer's rejection recorded, not the Superintendent's",
    }
    impl = implementers()
    steps: set[str] = set()
    for wf in _workflows():
        for t in wf.transitions:
            steps |= {str(c) for c in _cited_in(t.citation)}
    unlisted = []
    for text in sorted(steps):
        entry = REGISTRY.get(Citation.parse(text))
        if entry is None or entry.coverage is Coverage.INFORMATIONAL:
            continue
        if entry.coverage is Coverage.NOT_FORMALIZED and text not in mentions:
            unlisted.append(
                f"{text}: a workflow step records it, the registry says {entry.reason!r}"
            )
        if entry.coverage is Coverage.IMPLEMENTED:
            assert impl.get(entry.citation) or entry.office, text
    assert not unlisted, "\n".join(unlisted)
    assert set(mentions) <= steps, "a mention no workflow makes any more: drop it"


def _workflows() -> list[Workflow]:
    import pkgutil

    import sewer_office.permits.workflows as permits_workflows

    found = []
    for mod in pkgutil.iter_modules(permits_workflows.__path__):
        module = importlib.import_module(f"{permits_workflows.__name__}.{mod.name}")
        wf = getattr(module, "WORKFLOW", None)
        if isinstance(wf, Workflow):
            found.append(wf)
    return found


def test_enforcement_provisions_are_marked_by_what_the_office_does() -> None:
    assert set(ENFORCEMENT) <= set(OFFICE)
    for text in ENFORCEMENT:
        entry = REGISTRY[Citation.parse(text)]
        assert entry.coverage is Coverage.IMPLEMENTED and entry.office, text
        assert entry.reason, f"{text}: say what the office does not do"
    # what the software does not do is said: conviction, recovery, the injunction itself
    assert "conviction" in REGISTRY[Citation.parse("§ 196-22 B")].reason
    assert "billed" in REGISTRY[Citation.parse("§ 196-22 C")].reason
    assert "unpaid bill in court" in REGISTRY[Citation.parse("§ 196-22 C")].reason
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
    assert "sewer_office.enforcement.liability.fines" in listed["§ 196-22 B"]["implemented_by"]
    assert main(["sections", "--status", "implemented"]) == 0
    table = capsys.readouterr().out
    assert "office: enforcement.services.record_cost" in table
