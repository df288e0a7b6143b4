"""EPA's ICIS-NPDES schema 5.14 for the tests that validate an export against it.

The XSDs are EPA's and never ship with the project: a test that validates sets
``ICIS_XSD_DIR`` to the directory holding ``ICIS_v5.14.xsd`` (and the files it includes) and
is skipped without it. The schema is big (1,200 elements): it is read once per test process.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = "ICIS_v5.14.xsd"


def schema_dir() -> Path | None:
    raw = os.environ.get("ICIS_XSD_DIR", "").strip()
    return Path(raw) if raw else None


needs_xsd = pytest.mark.skipif(
    schema_dir() is None, reason="ICIS_XSD_DIR is not set (EPA's ICIS-NPDES 5.14 XSDs)"
)


@cache
def schema() -> Any:
    """The compiled schema (xmlschema), once per process."""
    import xmlschema

    where = schema_dir()
    assert where is not None
    return xmlschema.XMLSchema(str(where / ROOT))


def validate(content: bytes) -> None:
    """Raise (xmlschema's error, naming the element and the reason) unless ``content`` is a
    valid ICIS-NPDES document."""
    schema().validate(content.decode("utf-8"))
