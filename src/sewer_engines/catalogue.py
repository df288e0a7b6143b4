"""Every engine loaded, so that each is registered beside its reference.

An engine declares the reference rule it speeds up where it is written
(:func:`sewer_rules.sections.engine_of`); ``sewer-use sections`` calls :func:`load` before
showing a provision's reference functions with their engines.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from sewer_rules import rulebook

#: The packages of engines (imported by name: importing one loads numpy and polars).
PACKAGES = ("sewer_engines.monitoring", "sewer_engines.federal", "sewer_engines.evaluation")


@cache
def load() -> None:
    """Import every rule (:func:`sewer_rules.rulebook.load`) and every engine module (once)."""
    rulebook.load()
    for name in PACKAGES:
        try:
            pkg = importlib.import_module(name)
        except ModuleNotFoundError:
            continue  # a package of engines not (yet) written
        for mod in pkgutil.walk_packages(pkg.__path__, name + "."):
            importlib.import_module(mod.name)
