"""``--mapping NAME`` of ``check`` and ``import-results``: a laboratory's own layout.

NAME is, in this order: a mapping file (a name ending in .yaml, .yml or .json, or a path with a
slash), a preset shipped with the project (``sewer_io/lab_layouts``), or a mapping saved in the
office. Only the last starts the office (Django and its database): ``check`` with a preset or a
file works without any office, and starts as fast as without a mapping. The office refuses to
save a mapping under a preset's name or a file's, so the three never overlap.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .cmd_office import _setup
from .main import UsageError

if TYPE_CHECKING:  # polars loads when the command runs (start-up, see main.py)
    from sewer_io.lab_mapping import LabMapping

HELP = (
    "read a laboratory's own file layout (its EDD) through a mapping: a preset "
    "(generic-edd, edd-date-time, sewer-use), a mapping file (.yaml/.json), or the name of a "
    "mapping saved in the office (docs/laboratory-files.md)"
)


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mapping", metavar="NAME", default=None, help=HELP)


def named_mapping(spec: str, *, office_ready: bool = False) -> LabMapping:
    """The mapping ``spec`` names (:class:`UsageError`, exit status 2, when none).

    ``office_ready``: Django is already set up (``import-results``)."""
    from sewer_io import lab_mapping as layouts

    spec = spec.strip()
    try:
        if layouts.looks_like_file(spec):
            return layouts.read_mapping_file(spec)
        if spec in layouts.preset_names():
            return layouts.preset(spec)
    except layouts.MappingError as e:
        raise UsageError(f"--mapping: {e}") from None
    return _office_mapping(spec, office_ready)


def _office_mapping(name: str, office_ready: bool) -> LabMapping:
    """A mapping saved in the office: Django is started for it (and only for it)."""
    if not office_ready:
        _setup()
    from django.db import DatabaseError

    from sewer_io.lab_mapping import MappingError, preset_names
    from sewer_office.monitoring import mappings

    try:
        found = mappings.named(name)
    except mappings.NoSuchMapping as e:
        raise UsageError(f"--mapping: {e}") from None
    except MappingError as e:
        raise UsageError(f"--mapping: the office's {e}") from None
    except DatabaseError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        presets = ", ".join(preset_names())
        raise UsageError(
            f"--mapping: '{name}' is neither a preset ({presets}) nor a mapping file, and the "
            f"office's database could not be read ({first})"
        ) from None
    return found


def mapping_of(args: Any, *, office_ready: bool = False) -> LabMapping | None:
    """The mapping of the command's ``--mapping`` (None without one)."""
    spec = getattr(args, "mapping", None)
    return named_mapping(spec, office_ready=office_ready) if spec else None
