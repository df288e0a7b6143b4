"""Test configuration: legal cases as YAML (``tests/cases/*.yaml``) are collected as tests.

A case file holds a list of cases::

    - name: pH 5.4 is prohibited
      kind: result                 # runner: tests/case_kinds/result.py
      date: 2026-03-02
      jurisdiction: wappinger      # default
      input: {parameter: pH, value: "5.4", unit: SU, sample_type: grab}
      expect:
        status: prohibited
        findings: [{status: prohibited, citation: "§ 196-19 C(3)"}]

Each ``kind`` names a module of ``tests/case_kinds`` whose ``run(case)`` returns plain data
(dicts, lists, strings); ``expect`` must match it: every key given must be equal, lists must
have the same length and match element by element, numbers are compared as decimals.
"""

from __future__ import annotations

import importlib
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from sewer_rules.law_cases import mismatches


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and file_path.parent.name == "cases":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):  # type: ignore[no-untyped-def]
        cases = yaml.safe_load(self.path.read_text(encoding="utf-8")) or []
        if not isinstance(cases, list):
            raise TypeError(f"{self.path}: a case file is a list of cases")
        seen: set[str] = set()
        for case in cases:
            name = case["name"]
            if name in seen:
                raise ValueError(f"{self.path}: case {name!r} appears twice")
            seen.add(name)
            yield CaseItem.from_parent(self, name=name, case=case)


class CaseItem(pytest.Item):
    def __init__(self, *, case: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        kind = self.case["kind"]
        runner = importlib.import_module(f"tests.case_kinds.{kind}")
        actual = plain(runner.run(self.case))
        problems = list(mismatches(self.case["expect"], actual, "expect"))
        if problems:
            raise CaseFailure(problems, actual)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, CaseFailure):
            lines = [f"case {self.name!r} ({self.path.name}):", *excinfo.value.problems]
            lines.append(f"actual: {excinfo.value.actual!r}")
            return "\n".join(lines)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"case: {self.name}"


class CaseFailure(Exception):
    def __init__(self, problems: list[str], actual: Any) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
        self.actual = actual


def plain(value: Any) -> Any:
    """Runner output as YAML-comparable data."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Decimal | date | datetime):
        return str(value)
    if hasattr(value, "value") and type(value).__name__ in {"Status", "Coverage"}:
        return str(value)
    return value
