"""The import rules that ruff enforces (pyproject ``[tool.ruff.lint.flake8-tidy-imports]``).

Each case gives ruff one small source as if it were a file at a given place in the project
(``--stdin-filename``, so the per-file rules apply), and says which TID codes it must report.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).with_name("ruff")

IN_A_FUNCTION = "def run():\n    import polars\n\n    return polars\n"

CASES = [
    # sewer_cli is the top layer: nothing below it imports it
    ("src/sewer_office/meters/charts.py", "import sewer_cli\n", {"TID251"}),
    ("src/sewer_office/monitoring/x.py", "from sewer_cli.check_io import frame\n", {"TID251"}),
    ("src/sewer_io/x.py", "from sewer_cli import main\n", {"TID251"}),
    ("src/sewer_rules/x.py", "import sewer_cli.main\n", {"TID251"}),
    ("src/sewer_cli/cmd_x.py", "from sewer_cli.main import UsageError\n", set()),
    ("tests/test_x.py", "from sewer_cli.main import main\n", set()),
    # relative imports: siblings only
    ("src/sewer_office/permits/services/x.py", "from ..models import Permit\n", {"TID252"}),
    ("src/sewer_office/permits/x.py", "from .models import Permit\n", set()),
    # the command line keeps heavy libraries out of module level (tests/test_cli_startup.py)
    ("src/sewer_cli/cmd_x.py", "import polars\n", {"TID253"}),
    ("src/sewer_cli/cmd_x.py", "from django.conf import settings\n", {"TID253"}),
    ("src/sewer_cli/cmd_x.py", "from sewer_office.core import audit\n", {"TID253"}),
    ("src/sewer_cli/cmd_x.py", IN_A_FUNCTION, set()),
    ("src/sewer_office/core/x.py", "import polars\n", set()),
]


def _tid_codes(path: str, source: str) -> set[str]:
    done = subprocess.run(
        [
            str(RUFF),
            "check",
            "--no-cache",
            "--output-format",
            "json",
            "--stdin-filename",
            path,
            "-",
        ],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return {d["code"] for d in json.loads(done.stdout) if d["code"].startswith("TID")}


@pytest.mark.parametrize(("path", "source", "expected"), CASES)
def test_import_rules(path: str, source: str, expected: set[str]) -> None:
    assert _tid_codes(path, source) == expected
