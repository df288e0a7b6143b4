"""Write a new jurisdiction package from a model ordinance's template.

A town that adopts EPA's model ordinance gets, in one command, a package the software can
load at once (:mod:`.law_package`): its grammar, the model's registry with every provision
``not_configured``, the model's enforcement ladder whose clocks have no days yet, one
official to be named, dated parameters whose values are null from the day of adoption, an
empty list of cases and a README saying what to fill in and in which order. Nothing is
invented: a number the model leaves in brackets stays "not configured" until the town writes
its own, so that the software says so instead of computing with a guess.

The write is all or nothing. The package is written into a temporary directory beside the
target, loaded back with the same loaders every command uses (a package that would not load
is never left behind), and only then renamed into place; a target that exists and holds
anything is refused untouched.
"""

from __future__ import annotations

import copy
import re
import shutil
import tempfile
import unicodedata
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from .law_package import CASES_DIR, LAW_FILE, SECTIONS_FILE, LawPackageError, load_law
from .parameter_schema import parameter_schema
from .parameters import ParameterError, load_jurisdiction
from .section_coverage import Coverage
from .templates import LawTemplate, TemplateParameter, UnknownTemplate, template

PARAMETERS_FILE = "parameters.yaml"
CASES_FILE = f"{CASES_DIR}/cases.yaml"
README_FILE = "README.md"
#: What a written package holds, in the order it is written.
FILES = (LAW_FILE, SECTIONS_FILE, PARAMETERS_FILE, CASES_FILE, README_FILE)
DEFAULT_TIMEZONE = "America/New_York"


class TemplateError(ValueError):
    """A package that cannot be written: the template, the name, the directory or an option
    is unusable (the message says which)."""


def slug(name: str) -> str:
    """The package's key: the name in lower-case ASCII words joined by hyphens
    (``Town of Fishkill, N.Y.`` → ``town-of-fishkill-n-y``)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def schema_gaps(name: str = "epa-model-2007") -> tuple[TemplateParameter, ...]:
    """The template's parameters that the shared schema does not hold yet: the written
    package leaves them out and their clocks name no parameter."""
    keys = parameter_schema().keys
    return tuple(p for p in _template(name).parameters if p.key not in keys)


def write_package(
    name: str,
    directory: Path,
    template: str = "epa-model-2007",
    adopted: date | None = None,
    *,
    timezone: str = DEFAULT_TIMEZONE,
    holidays: str | None = None,
) -> Path:
    """Write the package of ``name``'s law from ``template`` into ``directory`` (which must
    not exist, or be empty) and return it. ``adopted`` dates the null values (default:
    today in ``timezone``); ``holidays`` names the calendar of public holidays (e.g.
    ``US-NY``), left out when not given."""
    tpl = _template(template)
    key = slug(name)
    if not key:
        raise TemplateError(f"name {name!r}: give a name with letters or digits")
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise TemplateError(
            f"timezone {timezone!r}: not a time zone (e.g. America/New_York)"
        ) from None
    day = adopted or datetime.now(zone).date()
    target = Path(directory)
    _refuse_occupied(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    gaps = {p.key for p in schema_gaps(tpl.key)}
    texts = {
        LAW_FILE: _law_yaml(tpl, name, key, gaps),
        SECTIONS_FILE: _sections_yaml(tpl, name),
        PARAMETERS_FILE: _parameters_yaml(tpl, name, key, day, timezone, holidays, gaps),
        CASES_FILE: _cases_yaml(name, key),
        README_FILE: _readme(tpl, name, target, gaps),
    }
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for relative, text in texts.items():
            path = work / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        _check_loads(work, target, len(tpl.sections))
        if target.exists():
            target.rmdir()  # empty, as checked; fails if something arrived meanwhile
        work.rename(target)
    except OSError as e:
        shutil.rmtree(work, ignore_errors=True)
        raise TemplateError(f"{target}: could not be written ({e.strerror or e})") from None
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return target


def _template(name: str) -> LawTemplate:
    try:
        return template(name)
    except UnknownTemplate as e:
        raise TemplateError(str(e)) from None


def _refuse_occupied(target: Path) -> None:
    if not target.exists():
        return
    if not target.is_dir():
        raise TemplateError(f"{target}: exists and is not a directory")
    if any(target.iterdir()):
        raise TemplateError(
            f"{target}: exists and is not empty; give another --directory, or remove it first"
        )


def _check_loads(work: Path, target: Path, sections: int) -> None:
    """Load the written package as every command will (uncached: the temporary path is
    never asked again); any refusal is reported against the target's name."""
    try:
        law = load_law.__wrapped__(str(work))
        params = load_jurisdiction.__wrapped__(law.parameters)
    except (LawPackageError, ParameterError) as e:
        raise TemplateError(str(e).replace(str(work), str(target))) from None
    if law.counts()[str(Coverage.NOT_CONFIGURED)] != sections or params.jurisdiction != law.key:
        raise TemplateError(f"{target}: the written package does not read back as written")


class _Dumper(yaml.SafeDumper):
    """Writes every value in place: no ``&id001`` anchors for the date all values share."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def _dump(data: object) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=96)


def _header(*lines: str) -> str:
    return "".join(f"# {line}".rstrip() + "\n" for line in lines)


def _notice(tpl: LawTemplate) -> str:
    return (
        f"Written from the {tpl.title} template: the town's own choices (officials, days, "
        "amounts, lists) are not configured yet."
    )


def _law_yaml(tpl: LawTemplate, name: str, key: str, gaps: set[str]) -> str:
    ladder = copy.deepcopy({k: dict(v) for k, v in tpl.ladder.items()})
    for step in ladder.values():
        for part in ("clock", "petition"):
            timed = step.get(part)
            if isinstance(timed, dict) and timed.get("parameter") in gaps:
                del timed["parameter"]  # no such key yet: the clock is not configured
    data = {
        "key": key,
        "name": name,
        "law": f"{tpl.title}, as a template: not yet the adopted law of {name}",
        "template": tpl.key,
        "grammar": dict(tpl.grammar),
        "parameters": PARAMETERS_FILE,
        "sections": SECTIONS_FILE,
        "sources": [{"title": tpl.source_title, "url": tpl.source_url}],
        "notice": _notice(tpl),
        "officials": {k: dict(v) for k, v in tpl.officials.items()},
        "ladder": ladder,
        "fine": dict(tpl.fine),
    }
    return _header(
        f"{name} — the package of its sewer-use law (sewer_rules.law_package),",
        f"written by `sewer-use jurisdiction new` from the {tpl.key} template.",
        "A clock with neither days nor a configured parameter is not configured: the software",
        "says so rather than count. README.md says what to fill in, and in which order.",
    ) + _dump(data)


def _sections_yaml(tpl: LawTemplate, name: str) -> str:
    rows = [
        {
            "citation": s.citation,
            "heading": s.heading,
            "status": str(Coverage.NOT_CONFIGURED),
            "summary": s.summary,
            "source": tpl.source_url,
        }
        for s in tpl.sections
    ]
    return _header(
        f"The registry of {name}'s law: every section and subsection of the model",
        f"({tpl.key}), each not_configured until the town's adopted text is read against it.",
        "Summaries are the project's own words; the model's text is at each source's address.",
    ) + _dump({"sections": rows})


def _parameters_yaml(
    tpl: LawTemplate,
    name: str,
    key: str,
    day: date,
    timezone: str,
    holidays: str | None,
    gaps: set[str],
) -> str:
    data: dict[str, object] = {"jurisdiction": key, "name": name, "timezone": timezone}
    if holidays is not None:
        data["holidays"] = holidays
    data["law"] = f"{tpl.title}, as a template: not yet the adopted law of {name}"
    data["notice"] = _notice(tpl)
    data["parameters"] = {
        p.key: {
            "description": p.description,
            "reference": p.reference,
            "unit": p.unit,
            "values": {day: {"value": None, "authority": tpl.unset_authority}},
        }
        for p in tpl.parameters
        if p.key not in gaps
    }
    return _header(
        f"{name} — the dated values of its law, each null (not configured) from {day}.",
        "Replace null with the town's number, dated from the day it took effect, with its",
        'authority; money is written quoted ("250.00"). `sewer-use params --check FILE` checks.',
    ) + _dump(data)


def _cases_yaml(name: str, key: str) -> str:
    return (
        _header(
            f"Legal cases of {name}'s law, each worked by hand from the town's adopted text;",
            "`sewer-use jurisdiction check DIR` and the test suite run them. A file is a list:",
            "",
            "  - name: the answer to a notice received on a Friday   # unique in the file",
            "    kind: response          # response (a step's due day), petition, or section",
            "    input: {step: notice_of_violation, received: 2027-03-05}",
            "    expect: {days: 10, due: 2027-03-15}   # if the law gives 10 calendar days",
            "",
            "Every key of `expect` must match the answer; keys left out are not compared.",
            "",
            "`petition` takes {step, received}; `section` takes {citation} and answers the row.",
            "A case whose numbers are not configured yet can expect the refusal:",
            "    expect: {error: ResponseClockError}",
            f"Jurisdiction: {key}.",
        )
        + "[]\n"
    )


def _readme(tpl: LawTemplate, name: str, target: Path, gaps: set[str]) -> str:
    steps = "\n".join(f"{i}. {step}" for i, step in enumerate(tpl.readme_steps, 1))
    # ``./demo``, not ``demo``: a bare name is read as the bundled jurisdiction of that name
    shown = target if target.is_absolute() or str(target).startswith(".") else f"./{target}"
    lines = [
        f"# {name}: sewer-use law written from the {tpl.title}",
        "",
        f"This package was written by `sewer-use jurisdiction new` from the `{tpl.key}` template.",
        "It loads as it is, and every provision reads `not_configured`: the model leaves the",
        "officials, the days, the amounts and the lists to the town, and the software computes",
        "nothing it would have to guess. Source of the model: "
        f"[{tpl.source_title}]({tpl.source_url}).",
        "",
        "- `law.yaml`: the grammar, the officials, the enforcement ladder and the fine's basis;",
        "- `sections.yaml`: the registry, one row per section and subsection of the model;",
        "- `parameters.yaml`: the dated numbers, each null from the day of writing;",
        "- `cases/cases.yaml`: the town's legal cases (none yet).",
        "",
        "## What to fill in, in this order",
        "",
        steps,
        "",
        f"See what the software makes of it at any time: `sewer-use jurisdiction show {shown}`.",
    ]
    missing = [p for p in tpl.parameters if p.key in gaps]
    if missing:
        lines += [
            "",
            "## Numbers the software cannot hold as dated parameters yet",
            "",
            "Until the software's parameter schema has these keys, parameters.yaml cannot hold",
            "them (ask for them to be added); meanwhile a number of days adopted may be written as",
            "`days: N` in the clock of `law.yaml` that uses it:",
            "",
            *(
                f"- `{p.key}` ({p.unit}, {p.reference}): {p.description}; used by {p.used_by}."
                for p in missing
            ),
        ]
    return "\n".join(lines) + "\n"
