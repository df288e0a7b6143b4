"""Strict reading of the YAML files of the law as data (parameters, schema, enforcement guide).

A silently misread number would be a wrong determination, so YAML's forgiving habits are
refused: a duplicate key (YAML would keep the last), a key a file may not hold, a date that is
not a calendar date. Every refusal is a :class:`ParameterError` naming the file and the place.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import yaml

from .json_input import JsonObject


class ParameterError(ValueError):
    """A parameter file that cannot be trusted, or a value asked for outside its dates.

    ``problems`` lists every problem found (one line each); the message is those lines.
    """

    def __init__(self, problems: str | list[str]) -> None:
        self.problems: tuple[str, ...] = (
            (problems,) if isinstance(problems, str) else tuple(problems)
        )
        super().__init__("\n".join(self.problems))


# --- strict YAML ---------------------------------------------------------------------------


#: libyaml's safe loader when PyYAML was built with it (the pure-Python one reads the
#: jurisdiction's parameters ten times slower: it was most of a command's start-up).
_SafeBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeBase):  # type: ignore[valid-type,misc]
    """SafeLoader that refuses duplicate keys (YAML would silently keep the last)."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node)
        if key in out:
            line = key_node.start_mark.line + 1
            raise ParameterError(f"duplicate key {key!r} at line {line}")
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_strict_yaml(text: str, source: str) -> JsonObject:
    try:
        data = yaml.load(text, Loader=_StrictLoader)
    except ParameterError as e:
        raise ParameterError(f"{source}: {e}") from None
    except yaml.YAMLError as e:
        raise ParameterError(f"{source}: not valid YAML: {e}") from None
    except ValueError as e:  # e.g. a date key such as 2030-13-01
        raise ParameterError(f"{source}: not a date or value YAML can read: {e}") from None
    if not isinstance(data, dict):
        raise ParameterError(f"{source}: expected a mapping at the top")
    return data


def refuse_unknown_keys(keys: Any, allowed: frozenset[str], where: str) -> None:
    extra = sorted(str(k) for k in keys if k not in allowed)
    if extra:
        raise ParameterError(f"{where}: unknown key(s) {', '.join(extra)}")


#: The unit of a parameter whose values are text, not numbers: a code or an identifier that a
#: report to another system needs (an NPDES permit number, an EPA parameter code), or a date.
#: Its values are kept as written; the schema's ``text`` and ``date`` types say what they may be.
TEXT_UNIT = "text"


def text_value(raw: Any, where: str) -> str | None:
    """A text parameter's value as written: a string (a YAML date is read as its ISO text), or
    None (not configured). A number is refused: YAML reads ``00310`` as the number 200 and
    ``1e5`` as a float, so a code must be written quoted."""
    if raw is None:
        return None
    if isinstance(raw, date):
        return raw.isoformat()
    if not isinstance(raw, str):
        raise ParameterError(
            f'{where}: a text value must be written quoted (e.g. "00310"), not {raw!r}'
        )
    if not raw.strip():
        raise ParameterError(f"{where}: an empty text; write null for not configured")
    return raw


def parse_date(raw: Any, where: str) -> date:
    if isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise ParameterError(f"{where}: {raw!r} is not a date (YYYY-MM-DD)") from None
