"""The one name for JSON (or YAML) read from a user's file before it is validated.

A rule that reads a file (a building sewer design, a sewer network, a parameter file) first
gets whatever the parser made of it: objects whose keys are text and whose values may be
anything. That is what :data:`JsonObject` names. It is *unvalidated input*: the reader checks
every field it takes and turns it into a typed value (a dataclass, a TypedDict) before any rule
sees it, so no rule reasons on a ``JsonObject``. Output with a known shape is typed where it is
made, never with this alias.
"""

from __future__ import annotations

from typing import Any, TypeAlias

#: A JSON object as parsed, before validation: text keys, values of any JSON type.
JsonObject: TypeAlias = dict[str, Any]
#: A JSON value as parsed, before validation (an object, array, text, number, true/false, null).
JsonValue: TypeAlias = Any
