"""Shared output helpers for the commands: where to write, tables, JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from .main import UsageError


@contextmanager
def destination(path: str | None) -> Iterator[TextIO]:
    """``--output FILE`` or standard output."""
    if not path:
        yield sys.stdout
        return
    try:
        with Path(path).open("w", encoding="utf-8", newline="") as fh:
            yield fh
    except OSError as e:
        raise UsageError(f"{path}: cannot write: {e.strerror}") from None


def dump_json(data: Any, out: TextIO) -> None:
    json.dump(data, out, ensure_ascii=False, indent=2)
    out.write("\n")


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table with aligned columns."""
    cells = [[str(h) for h in headers], *[["" if c is None else str(c) for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
