"""Mappings that come from files: the presets shipped with the project (YAML in
``sewer_io/lab_layouts/``, package data) and a mapping written as YAML or JSON (``--mapping``).
The only files this package opens: the laboratory's own file is read by ``sewer_io.check_io``.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import yaml

from .mapping import LabMapping
from .vocabulary import MappingError

#: The presets' folder in the ``sewer_io`` package.
LAYOUTS = "lab_layouts"


def _presets() -> Traversable:
    return resources.files("sewer_io").joinpath(LAYOUTS)


def preset_names() -> list[str]:
    """The names of the mappings shipped with the project (``lab_layouts/*.yaml``)."""
    return sorted(p.name[: -len(".yaml")] for p in _presets().iterdir() if p.name.endswith(".yaml"))


def preset(name: str) -> LabMapping:
    """A shipped mapping by its name (:class:`KeyError` when there is none)."""
    if name not in preset_names():
        raise KeyError(name)
    text = _presets().joinpath(f"{name}.yaml").read_text("utf-8")
    return LabMapping.from_dict(yaml.safe_load(text), name=name)


def mapping_from_text(text: str, source: str) -> LabMapping:
    """A mapping written as YAML or JSON (JSON is YAML); :class:`MappingError` when unusable."""
    try:
        data = json.loads(text) if source.lower().endswith(".json") else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as e:
        raise MappingError(source, [f"unreadable: {str(e).splitlines()[0]}"]) from None
    return LabMapping.from_dict(data)


MAPPING_SUFFIXES = (".yaml", ".yml", ".json")


def looks_like_file(spec: str) -> bool:
    """Whether a ``--mapping`` argument names a file (a mapping file's suffix, or a path)."""
    return spec.lower().endswith(MAPPING_SUFFIXES) or "/" in spec or "\\" in spec


def read_mapping_file(path: str | Path) -> LabMapping:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MappingError(
            str(p), [f"cannot be read: {getattr(e, 'strerror', None) or e}"]
        ) from None
    return mapping_from_text(text, str(p))
