"""The enforcement response guide: which response a violation gets first, and what follows.

A Control Authority follows a written enforcement response plan (40 CFR 403.8(f)(5)); the
article gives its tools — the written notice with a correction period (§ 196-22 A), prosecution
and the daily fine (§ 196-22 B), the Town's costs (§ 196-22 C), an injunction (§ 196-22 D), and
immediate arrest for damage to the works (§ 196-20). Which tool comes first for which kind of
violation, and the order of escalation after a deadline passes uncorrected, are choices of the
Town: dated data in the jurisdiction's ``enforcement.yaml``, never code. A violation of § 196-20
is always referred at once, whatever the guide says (:func:`first_response`).

The loader is strict like the parameters' one: unknown keys, unknown responses, a kind without
a first response, and a guide without an authority are errors naming the file.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .citations import Citation, CitationError, ExternalReference, cite
from .parameters import BUNDLED, ParameterError, parse_date, read_strict_yaml, refuse_unknown_keys

DAMAGE = cite("§ 196-20")


class GuideError(ParameterError):
    """An enforcement guide file that cannot be trusted."""


@dataclass(frozen=True)
class Response:
    code: str
    label: str
    citation: Citation | ExternalReference
    correction_clock: bool
    #: For a referral, to whom it goes as the law names them (the clerk may name the office
    #: itself when recording a referral by hand); empty for notices and orders.
    referred_to: str = ""


@dataclass(frozen=True)
class KindGuide:
    kind: str
    label: str
    first: Response
    escalation: tuple[Response, ...]


@dataclass(frozen=True)
class GuideVersion:
    effective: date
    authority: str
    kinds: Mapping[str, KindGuide]


@dataclass(frozen=True)
class EnforcementGuide:
    source: str
    responses: Mapping[str, Response]
    versions: tuple[GuideVersion, ...]

    def on(self, day: date) -> GuideVersion:
        """The guide in force on ``day``."""
        i = bisect_right([v.effective for v in self.versions], day)
        if i == 0:
            raise GuideError(
                f"{self.source}: no enforcement guide before {self.versions[0].effective}"
            )
        return self.versions[i - 1]

    def kind(self, kind: str, day: date) -> KindGuide:
        version = self.on(day)
        try:
            return version.kinds[kind]
        except KeyError:
            known = ", ".join(sorted(version.kinds))
            raise GuideError(
                f"{self.source}: no response for violations of kind {kind!r} on {day} "
                f"(known: {known})"
            ) from None


def first_response(
    guide: EnforcementGuide, kind: str, day: date, violated: Citation | None = None
) -> Response:
    """The first response to a violation of ``kind`` found on ``day``.

    § 196-22 A excepts § 196-20 from the notice procedure ("... shall be subject to immediate
    arrest"): a violation of § 196-20 is referred at once, whatever its recorded kind.
    """
    if violated is not None and violated.section == DAMAGE.section:
        return guide.kind("damage", day).first
    return guide.kind(kind, day).first


def next_response(
    guide: EnforcementGuide, kind: str, day: date, taken: list[str]
) -> Response | None:
    """The escalation after the responses ``taken`` (codes, in order) left a deadline passed.

    The next step of the kind's escalation not yet taken; None when the guide has no further
    step (the matter then rests with the Town Attorney and the court).
    """
    for step in guide.kind(kind, day).escalation:
        if step.code not in taken:
            return step
    return None


def _only(keys: Any, allowed: frozenset[str], where: str) -> None:
    try:
        refuse_unknown_keys(keys, allowed, where)
    except ParameterError as e:
        raise GuideError(str(e)) from None


def _citation(text: str, where: str) -> Citation | ExternalReference:
    if text.startswith("§"):
        try:
            return cite(text)
        except CitationError as e:
            raise GuideError(f"{where}: {e}") from None
    return ExternalReference(text)


def _responses(raw: Any, source: str) -> dict[str, Response]:
    if not isinstance(raw, dict) or not raw:
        raise GuideError(f"{source}: 'responses' must map response codes to their description")
    out = {}
    for code, entry in raw.items():
        where = f"{source}: response {code}"
        if not isinstance(entry, dict):
            raise GuideError(f"{where}: expected a mapping")
        _only(entry, frozenset({"label", "citation", "correction_clock", "referred_to"}), where)
        for key in ("label", "citation", "correction_clock"):
            if key not in entry:
                raise GuideError(f"{where}: missing '{key}'")
        if not isinstance(entry["correction_clock"], bool):
            raise GuideError(f"{where}: correction_clock must be true or false")
        citation = _citation(str(entry["citation"]), where)
        out[str(code)] = Response(
            str(code),
            str(entry["label"]),
            citation,
            entry["correction_clock"],
            str(entry.get("referred_to") or ""),
        )
    return out


def _kinds(raw: Any, responses: Mapping[str, Response], where: str) -> dict[str, KindGuide]:
    if not isinstance(raw, dict) or not raw:
        raise GuideError(f"{where}: 'kinds' must map kinds of violation to their responses")

    def response(code: Any, at: str) -> Response:
        if str(code) not in responses:
            raise GuideError(f"{at}: unknown response {code!r} (known: {', '.join(responses)})")
        return responses[str(code)]

    out = {}
    for kind, entry in raw.items():
        at = f"{where} kind {kind}"
        if not isinstance(entry, dict):
            raise GuideError(f"{at}: expected a mapping")
        _only(entry, frozenset({"label", "first", "escalation"}), at)
        if "first" not in entry:
            raise GuideError(f"{at}: missing 'first' (the first response)")
        steps = entry.get("escalation") or []
        if not isinstance(steps, list):
            raise GuideError(f"{at}: 'escalation' must be a list of responses")
        out[str(kind)] = KindGuide(
            str(kind),
            str(entry.get("label") or kind),
            response(entry["first"], at),
            tuple(response(s, at) for s in steps),
        )
    if "damage" not in out or out["damage"].first.correction_clock:
        raise GuideError(
            f"{where}: kind 'damage' (§ 196-20) must be present and referred at once, "
            "without a correction clock"
        )
    return out


def parse_guide(text: str, source: str) -> EnforcementGuide:
    """Read an enforcement guide file's text, strictly."""
    try:
        data = read_strict_yaml(text, source)
    except ParameterError as e:
        raise GuideError(str(e)) from None
    _only(data, frozenset({"responses", "guide"}), source)
    responses = _responses(data.get("responses"), source)
    raw_versions = data.get("guide")
    if not isinstance(raw_versions, dict) or not raw_versions:
        raise GuideError(f"{source}: 'guide' must map effective dates to a guide")
    versions = []
    for key, entry in raw_versions.items():
        where = f"{source}: guide {key}"
        try:
            effective = parse_date(key, where)
        except ParameterError as e:
            raise GuideError(str(e)) from None
        if not isinstance(entry, dict):
            raise GuideError(f"{where}: expected a mapping")
        _only(entry, frozenset({"authority", "kinds"}), where)
        if not entry.get("authority"):
            raise GuideError(f"{where}: missing 'authority' (who adopted this guide)")
        versions.append(
            GuideVersion(
                effective, str(entry["authority"]), _kinds(entry.get("kinds"), responses, where)
            )
        )
    versions.sort(key=lambda v: v.effective)
    return EnforcementGuide(source, responses, tuple(versions))


@cache
def load_guide(name_or_path: str = "wappinger") -> EnforcementGuide:
    """A bundled jurisdiction's guide (``demo`` uses Wappinger's) or a guide file by path."""
    if name_or_path in BUNDLED:
        res = resources.files("sewer_rules").joinpath(
            "jurisdictions", "wappinger", "enforcement.yaml"
        )
        return parse_guide(
            res.read_text(encoding="utf-8"), "jurisdictions/wappinger/enforcement.yaml"
        )
    path = Path(name_or_path)
    if not path.is_file():
        raise GuideError(f"no enforcement guide {name_or_path!r}")
    return parse_guide(path.read_text(encoding="utf-8"), str(path))
