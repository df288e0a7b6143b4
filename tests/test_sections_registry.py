"""The registry of sections is complete and agrees with the code; sewer_rules stays pure."""

from __future__ import annotations

import ast
import contextlib
import importlib
import re
from pathlib import Path

import sewer_rules
from sewer_rules.citations import Citation
from sewer_rules.law import provisions
from sewer_rules.rulebook import implementers
from sewer_rules.sections import REGISTRY, Coverage

SRC = Path(sewer_rules.__file__).parent
CITATION_IN_CODE = re.compile(
    r"§ 196-\d\d(?: [A-Z][A-Z ,\-]*[A-Z](?![a-z])| [A-Z](?:\((?:\d+|[a-z])\))*(?![A-Za-z]))?"
)


def test_every_entry_has_a_status_and_reasons_where_due() -> None:
    for section in REGISTRY.values():
        assert isinstance(section.coverage, Coverage)
        if section.coverage is Coverage.NOT_FORMALIZED:
            assert section.reason, f"{section.citation} is not formalized without a reason"


def test_implemented_entries_have_functions_and_functions_have_entries() -> None:
    impl = implementers()
    for citation, section in REGISTRY.items():
        if section.coverage is Coverage.IMPLEMENTED:
            # computed by the rules, or carried out by the office's functions (checked to
            # exist and cite the provision by tests/office/test_sections_office.py)
            assert impl.get(citation) or section.office, (
                f"{citation} is marked implemented but nothing implements it"
            )
        if section.office:
            assert section.coverage is Coverage.IMPLEMENTED, (
                f"{citation} is carried out by the office but not marked implemented"
            )
            assert section.reason, f"{citation}: say what the office does not do"
    for citation, names in impl.items():
        assert citation in REGISTRY, f"{citation} implemented by {names} is not in the registry"
        assert REGISTRY[citation].coverage is Coverage.IMPLEMENTED, (
            f"{citation} is implemented but not marked so"
        )
        for name in names:
            module, _, attr = name.rpartition(".")
            obj = importlib.import_module(module)
            assert hasattr(obj, attr.split(".")[0]), name


def test_every_citation_in_the_code_is_in_the_registry() -> None:
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        found.update(
            m.group(0).strip() for m in CITATION_IN_CODE.finditer(path.read_text(encoding="utf-8"))
        )
    for path in SRC.rglob("*.yaml"):
        found.update(
            m.group(0).strip() for m in CITATION_IN_CODE.finditer(path.read_text(encoding="utf-8"))
        )
    missing = []
    for text in sorted(found):
        try:
            c = Citation.parse(text)
        except ValueError:
            continue  # prose such as "§ 196-19 D" inside a sentence is checked as its prefix
        if c not in REGISTRY:
            missing.append(text)
    assert not missing, f"cited in code but not registered: {missing}"


def test_every_lettered_subsection_of_the_law_is_registered() -> None:
    """Read from the law shipped with the jurisdiction, not from outside the repository."""
    law = provisions("wappinger")
    missing = sorted(str(c) for c in law if c not in REGISTRY)
    assert not missing, f"provisions of the law without a registry entry: {missing}"
    lettered = {c for c in law if len(c.path) == 1}
    assert len(lettered) == 54  # every A., B., ... of § 196-15 to § 196-23 was read


def test_every_registry_entry_is_a_provision_of_the_law() -> None:
    law = provisions("wappinger")
    absent = sorted(str(c) for c in REGISTRY if c not in law)
    assert not absent, f"registered but not in the article's text: {absent}"


def test_sewer_rules_imports_no_django_and_no_office() -> None:
    forbidden = ("django", "rest_framework", "sewer_office", "sewer_cli")
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path} imports {name}"


def _citations_in(value: object) -> set[Citation]:
    found: set[Citation] = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= _citations_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _citations_in(v)
    elif isinstance(value, str):
        for m in CITATION_IN_CODE.finditer(value):
            with contextlib.suppress(ValueError):
                found.add(Citation.parse(m.group(0).strip()))
    return found


def test_every_implemented_subsection_has_a_legal_case() -> None:
    import yaml

    cited: set[Citation] = set()
    for path in (Path(__file__).parent / "cases").glob("*.yaml"):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            for text in (
                [case["cites"]] if isinstance(case.get("cites"), str) else case.get("cites", [])
            ):
                c = Citation.parse(text)
                assert c in REGISTRY, (
                    f"{path.name}: case {case['name']!r} cites unregistered {text}"
                )
                cited.add(c)
            cited |= _citations_in(case.get("expect")) | _citations_in(case["name"])
    # The rules' computations have legal cases; what only the office carries out (records of
    # costs, referrals) is proven by the office's tests (tests/office/test_sections_office.py).
    impl = implementers()
    missing = [
        str(c)
        for c, s in REGISTRY.items()
        if s.coverage is Coverage.IMPLEMENTED and impl.get(c) and c not in cited
    ]
    assert not missing, f"implemented without a legal case: {missing}"


def _reason(text: str) -> str:
    return REGISTRY[Citation.parse(text)].reason


def test_nothing_says_implemented_that_is_not() -> None:
    """What the audit found overstated says what is not done: the law's DEC 1988 sizing method
    (PDI/UPC are references), the laboratory methods of § 196-19 I, the general toxics of
    § 196-19 C(2); § 196-21 D, which the office does not carry out at all, is not formalized."""
    for text, words in (
        ("§ 196-19 F(2)", "Design Standards for Wastewater Treatment Works (1988), which is not"),
        ("§ 196-19 I", "laboratory method a result reports is not checked against Standard"),
        ("§ 196-19 C(2)", "only the cyanide limit"),
        ("§ 196-19 G", "pump-out clock"),
    ):
        assert REGISTRY[Citation.parse(text)].coverage is Coverage.IMPLEMENTED
        assert _reason(text).startswith("partial: ") and words in _reason(text), text
    d = REGISTRY[Citation.parse("§ 196-21 D")]
    assert d.coverage is Coverage.NOT_FORMALIZED and d.office == ()
    assert "has no enforcement action in the office" in d.reason
    for text in ("§ 196-19 C(5)", "§ 196-19 D(5)", "§ 196-19 D(6)", "§ 196-19 D(7)"):
        assert "inert" in _reason(text), text  # no Wappinger figures: computed, never decides
    # the § 196-22 B count as the interpretation reads it, and the text not on file before 2004
    assert "the day the violation ceased" in _reason("§ 196-22 B")
    assert "L.L. No. 5-2004" in _reason("§ 196-22 B")


def test_every_partial_entry_is_implemented_and_says_what_is_not_done() -> None:
    for entry in REGISTRY.values():
        if entry.reason.startswith("partial:"):
            assert entry.coverage is Coverage.IMPLEMENTED, entry.citation
            assert " not " in entry.reason or "found by inspection" in entry.reason


def test_every_engine_names_a_reference_that_exists_and_the_registry_does_not_load_rules() -> None:
    """An engine registers the reference it speeds up (``engine_of``); that reference is a
    function of the rules, and the registry module imports no rule (the rules import it)."""
    import ast
    import importlib
    from pathlib import Path

    import sewer_rules.sections as sections_module
    from sewer_engines.catalogue import load
    from sewer_rules.sections import _ENGINES

    load()
    assert "sewer_rules.monitoring.slugs.slugs_of" in _ENGINES
    assert "sewer_rules.federal.snc_determination.determine" in _ENGINES
    for reference, engines in _ENGINES.items():
        module, _, name = reference.rpartition(".")
        assert module.startswith("sewer_rules.")
        assert callable(getattr(importlib.import_module(module), name))
        assert all(e.startswith("sewer_engines.") for e in engines)
    tree = ast.parse(Path(str(sections_module.__file__)).read_text())
    imported = [
        n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1
    ]
    rule_packages = {"ordinance", "federal", "monitoring", "network", "evaluation", "billing"}
    assert not rule_packages & {m.split(".")[0] for m in imported}
    assert "importlib" not in Path(str(sections_module.__file__)).read_text()
