"""Reading a network from three CSV files (the GIS export most towns can make).

``manholes.csv`` — ``id, public, x, y``
``pipes.csv`` — ``id, from, to, public`` and optionally ``diameter_in``, ``vertices``
``connections.csv`` (optional) — ``parcel`` and ``pipe`` or ``manhole``; optionally ``x, y``
(required for a connection on a pipe: where along it the building sewer joins) and ``id``

- Header names are case-insensitive; other columns are ignored; a missing required column
  makes the file unusable (:class:`~.model.NetworkFormatError`).
- ``x, y`` are longitude, latitude (WGS 84) or easting, northing in the CRS given to the
  reader (``--crs`` on the command line).
- ``public`` is ``true``/``false`` (also ``yes``/``no``, ``y``/``n``, ``1``/``0``).
- A pipe runs straight from its ``from`` manhole to its ``to`` manhole, through the
  ``vertices`` when given: intermediate bends as ``x y`` pairs separated by ``;``
  (``"100 200; 120 240"``). Flow runs from ``from`` to ``to``.
- Errors name the file, its line number (the header is line 1), the row's id and the column.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .build import build_network
from .feature_fields import RawFeature
from .geo import CRS, CRSError, parse_crs
from .model import NetworkFormatError
from .network import Network

MANHOLE_COLUMNS = ("id", "public", "x", "y")
PIPE_COLUMNS = ("id", "from", "to", "public")
PIPE_OPTIONAL = ("diameter_in", "vertices")
CONNECTION_COLUMNS = ("parcel",)
CONNECTION_OPTIONAL = ("pipe", "manhole", "x", "y", "id")
_TRUE = {"true", "yes", "y", "1", "t"}
_FALSE = {"false", "no", "n", "0", "f"}


def _rows(text: str, name: str, required: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise NetworkFormatError(f"{name}: empty file (no header)") from None
    except csv.Error as e:
        raise NetworkFormatError(f"{name}: not CSV: {e}") from None
    columns = [h.strip().lower().lstrip("\ufeff") for h in header]
    missing = [c for c in required if c not in columns]
    if missing:
        raise NetworkFormatError(
            f"{name}: missing column(s) {', '.join(missing)} (found {', '.join(columns)})"
        )
    out: list[tuple[int, dict[str, str]]] = []
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            values = {c: (row[i].strip() if i < len(row) else "") for i, c in enumerate(columns)}
            out.append((reader.line_num, values))
    except csv.Error as e:
        raise NetworkFormatError(f"{name} line {reader.line_num}: not CSV: {e}") from None
    return out


def _text(v: str) -> str | None:
    return v if v else None


def _bool(v: str) -> bool | str | None:
    """True/False for the accepted spellings; the text itself otherwise (reported as an error
    by the validation, with the other fields), None when blank."""
    low = v.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    return v or None


def _number(v: str, column: str, problems: list[tuple[str, str]]) -> float | None:
    try:
        return float(v)
    except ValueError:
        problems.append((column, f"not a number: {v!r}" if v else "missing"))
        return None


def _point(row: dict[str, str], problems: list[tuple[str, str]]) -> dict[str, Any] | None:
    x, y = _number(row.get("x", ""), "x", problems), _number(row.get("y", ""), "y", problems)
    if x is None or y is None:
        return None
    return {"type": "Point", "coordinates": [x, y]}


def _bends(text: str, problems: list[tuple[str, str]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        nums = part.replace(",", " ").split()
        try:
            if len(nums) != 2:
                raise ValueError
            out.append((float(nums[0]), float(nums[1])))
        except ValueError:
            problems.append(("vertices", f"{part!r} is not an 'x y' pair"))
    return out


def parse_csv(
    manholes_csv: str,
    pipes_csv: str,
    connections_csv: str | None = None,
    *,
    crs: CRS | str | None = None,
    names: tuple[str, str, str] = ("manholes.csv", "pipes.csv", "connections.csv"),
) -> Network:
    """Validate the three files' text and build the network (all or nothing)."""
    try:
        the_crs = crs if isinstance(crs, CRS) else parse_crs(crs)
    except CRSError as e:
        raise NetworkFormatError(f"crs: {e}") from None
    features: list[RawFeature] = []
    for line, row in _rows(manholes_csv, names[0], MANHOLE_COLUMNS):
        problems: list[tuple[str, str]] = []
        props: dict[str, Any] = {"kind": "manhole", "id": _text(row["id"])}
        props["public"] = _bool(row["public"])
        geometry = _point(row, problems)
        features.append(
            RawFeature(
                names[0],
                line,
                {"geometry": geometry, "properties": props},
                problems=tuple(problems),
            )
        )
    for line, row in _rows(pipes_csv, names[1], PIPE_COLUMNS):
        problems = []
        props = {"kind": "pipe", "id": _text(row["id"]), "from": _text(row["from"])}
        props["to"] = _text(row["to"])
        props["public"] = _bool(row["public"])
        props["diameter_in"] = _text(row.get("diameter_in", ""))
        bends = _bends(row.get("vertices", ""), problems)
        features.append(
            RawFeature(
                names[1],
                line,
                {"geometry": None, "properties": props},
                implicit_line=True,
                bends=tuple(bends),
                problems=tuple(problems),
            )
        )
    if connections_csv is not None:
        for line, row in _rows(connections_csv, names[2], CONNECTION_COLUMNS):
            problems = []
            props = {"kind": "connection", "parcel": _text(row["parcel"])}
            for key in ("pipe", "manhole", "id"):
                props[key] = _text(row.get(key, ""))
            has_xy = bool(row.get("x") or row.get("y"))
            geometry = None
            if has_xy:
                geometry = _point(row, problems)
            elif props["pipe"]:
                problems.append(
                    ("x", "a connection on a pipe needs x, y (where it joins the pipe)")
                )
            features.append(
                RawFeature(
                    names[2],
                    line,
                    {"geometry": geometry, "properties": props},
                    problems=tuple(problems),
                )
            )
    return build_network(features, the_crs)


def load_csv_dir(directory: str | Path, *, crs: CRS | str | None = None) -> Network:
    """Read ``manholes.csv``, ``pipes.csv`` and (if present) ``connections.csv`` of a folder."""
    folder = Path(directory)
    texts: list[str | None] = []
    for name, required in (("manholes.csv", True), ("pipes.csv", True), ("connections.csv", False)):
        path = folder / name
        if not path.is_file():
            if required:
                raise NetworkFormatError(f"{folder}: no {name}")
            texts.append(None)
            continue
        try:
            texts.append(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError) as e:
            raise NetworkFormatError(f"{path}: cannot read: {e}") from None
    manholes, pipes, connections = texts
    assert manholes is not None and pipes is not None
    return parse_csv(manholes, pipes, connections, crs=crs)
