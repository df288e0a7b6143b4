"""Dated parameters: every number the law states, and the amounts it leaves to resolutions.

Learned from OpenFisca: a parameter has a description, a unit, the section that authorises
it, and values keyed by the date they take effect; each value may carry its authority (the
local law or Town Board resolution). ``null`` means *not configured* (or ended): the software
then says so, it never invents an amount. An amended law is a data change, and a
determination made on a date can be replayed with the values in force on that date.

The loader is strict, because a silently misread number would be a wrong determination:
duplicate keys, unknown keys, bad dates, dates written out of order, and money written as a
binary float are errors naming the file and the parameter. Every file is then checked against
the schema of the keys (``parameter_schema.yaml``, :mod:`sewer_rules.parameter_schema`): a key
the schema does not know, a unit it does not expect, a value outside its type or bounds (a
negative fine, a correction period under the article's ten days) or two keys that contradict
each other (a pH minimum above the maximum) refuse the file. All problems of a file are
reported together, each naming the file, the key, the value, its effective date and the rule.

A value is one number, or — for a schedule such as ``fee.subdivision_sewer.schedule`` — a
table of brackets, a list of ``{up_to: "100000.00", rate: "0.03"}`` with increasing ``up_to``
(in the parameter's unit) and a last bracket ``up_to: null`` (no upper bound); ``rate`` is a
plain number. A table is kept in ``table`` (``value`` is then None, ``configured`` is true);
what the brackets mean (marginal or flat) is the rule's, which says so. A parameter of unit
``text`` holds text, not numbers — a code or an identifier another system needs, or a date —
written quoted and kept as written in ``string`` (:func:`.parameter_yaml.text_value`).
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib import resources
from pathlib import Path

from .json_input import JsonObject, JsonValue
from .parameter_model import Bracket, DatedValue, Parameter, ParameterSet, ParameterValue
from .parameter_schema import check_file, parameter_schema
from .parameter_values import read_dated_values, read_parameter
from .parameter_yaml import (
    ParameterError,
    parse_date,
    read_strict_yaml,
    refuse_unknown_keys,
)

#: Read by other modules from here: the model lives in :mod:`.parameter_model`, the strict
#: reading in :mod:`.parameter_yaml` and :mod:`.parameter_values`.
__all__ = [
    "BUNDLED",
    "Bracket",
    "DatedValue",
    "Parameter",
    "ParameterError",
    "ParameterSet",
    "ParameterValue",
    "load_jurisdiction",
    "parameter_schema",
    "parse_date",
    "parse_parameter_text",
    "read_strict_yaml",
    "refuse_unknown_keys",
]

_TOP_KEYS = frozenset(
    {"jurisdiction", "name", "timezone", "holidays", "law", "extends", "notice", "parameters"}
)


def parse_parameter_text(text: str, source: str, base: ParameterSet | None = None) -> ParameterSet:
    """Read a parameter file's text; ``base`` is the jurisdiction it ``extends``."""
    data = read_strict_yaml(text, source)
    problems: list[str] = []
    try:
        refuse_unknown_keys(data, _TOP_KEYS, source)
    except ParameterError as e:
        problems += e.problems
    problems += [
        f"{source}: missing '{k}'" for k in ("jurisdiction", "parameters") if k not in data
    ]
    raw_params = data.get("parameters", {})
    if not isinstance(raw_params, dict):
        raise ParameterError([*problems, f"{source}: 'parameters' must be a mapping"])
    params: dict[str, Parameter] = dict(base.parameters) if base else {}
    # What this file itself writes, key by key (unit, dated values), for the schema's checks.
    own: dict[str, tuple[str, tuple[DatedValue, ...]]] = {}
    for name, raw in raw_params.items():
        try:
            if base is not None and name in base.parameters:
                parent = base.parameters[name]
                added = _extension_values(parent, raw, f"{source}: parameter {name}", problems)
                params[name] = _extend(parent, added)
                own[name] = (parent.unit, added)
            else:
                params[name] = read_parameter(name, raw, source, problems)
                own[name] = (params[name].unit, params[name].values)
        except ParameterError as e:
            problems += e.problems
    try:
        holidays = _holidays(data, base, source)
    except ParameterError as e:
        problems += e.problems
        holidays = ""
    merged = {name: (p.unit, p.values) for name, p in params.items()}
    problems += check_file(parameter_schema(), own, merged, source)
    if problems:
        raise ParameterError(problems)
    digest_src = (base.digest if base else "") + text
    return ParameterSet(
        jurisdiction=str(data["jurisdiction"]),
        name=str(data.get("name") or data["jurisdiction"]),
        timezone=str(data.get("timezone") or (base.timezone if base else "America/New_York")),
        parameters=params,
        digest=hashlib.sha256(digest_src.encode()).hexdigest(),
        sources=((*base.sources, source) if base else (source,)),
        notice=str(data.get("notice") or ""),
        holidays=holidays,
    )


def _holidays(data: JsonObject, base: ParameterSet | None, source: str) -> str:
    """The holiday calendar named by the file (``US-NY``), else the extended jurisdiction's."""
    raw = data.get("holidays")
    if raw is None:
        return base.holidays if base else ""
    text = str(raw).strip()
    if not re.fullmatch(r"[A-Z]{2}(-[A-Z0-9]{1,3})?", text):
        raise ParameterError(
            f"{source}: holidays must name a calendar as COUNTRY or COUNTRY-SUBDIVISION "
            f"(e.g. US-NY), not {raw!r}"
        )
    return text


def _extension_values(
    parent: Parameter, raw: JsonValue, where: str, problems: list[str]
) -> tuple[DatedValue, ...]:
    """The dated values an extending file writes for a parameter of the file it extends."""
    if not isinstance(raw, dict):
        raise ParameterError(f"{where}: expected a mapping")
    refuse_unknown_keys(raw, frozenset({"values"}), where + " (an extension may only add values)")
    return tuple(read_dated_values(raw.get("values"), parent.unit, where, problems))


def _extend(parent: Parameter, added: tuple[DatedValue, ...]) -> Parameter:
    """An extending file adds dated values to a parameter; a value on the same date replaces."""
    merged = {v.effective: v for v in parent.values} | {v.effective: v for v in added}
    return Parameter(
        parent.name,
        parent.description,
        parent.reference,
        parent.unit,
        tuple(merged[d] for d in sorted(merged)),
    )


#: The jurisdictions shipped with the software: each directory of ``jurisdictions/`` with a
#: ``parameters.yaml`` (Wappinger first, the default).
BUNDLED = tuple(
    sorted(
        (
            d.name
            for d in resources.files("sewer_rules").joinpath("jurisdictions").iterdir()
            if d.is_dir() and d.joinpath("parameters.yaml").is_file()
        ),
        key=lambda name: (name != "wappinger", name),
    )
)


def _bundled_text(name: str) -> tuple[str, str]:
    res = resources.files("sewer_rules").joinpath("jurisdictions", name, "parameters.yaml")
    return res.read_text(encoding="utf-8"), f"jurisdictions/{name}/parameters.yaml"


@cache
def load_jurisdiction(name_or_path: str) -> ParameterSet:
    """A bundled jurisdiction by name (``wappinger``, ``demo``) or a parameter file by path."""
    if name_or_path in BUNDLED:
        text, source = _bundled_text(name_or_path)
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise ParameterError(
                f"no jurisdiction {name_or_path!r}: use one of {', '.join(BUNDLED)} or a path to a "
                "parameters.yaml"
            )
        text, source = path.read_text(encoding="utf-8"), str(path)
    head = read_strict_yaml(text, source)
    base_name = head.get("extends")
    base = load_jurisdiction(str(base_name)) if base_name else None
    return parse_parameter_text(text, source, base)
