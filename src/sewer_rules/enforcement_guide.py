"""The enforcement response guide: which response a violation gets first, and what follows.

A Control Authority follows a written enforcement response plan (40 CFR 403.8(f)(5)); the
article gives its tools — the written notice with a correction period (§ 196-22 A), prosecution
and the daily fine (§ 196-22 B), the Town's costs (§ 196-22 C), an injunction (§ 196-22 D), and
immediate arrest for damage to the works (§ 196-20). Which tool comes first for which kind of
violation, and the order of escalation after a deadline passes uncorrected, are choices of the
Town: dated data in the jurisdiction's ``enforcement.yaml``, never code. A violation of § 196-20
is always referred at once, whatever the guide says (:func:`first_response`).

Two formats of a dated version are read. The older one names, per kind, the first response and
the escalation. The plan format (what 40 CFR 403.8(f)(5) asks a plan to contain) adds the
investigation procedure (f)(5)(i); per kind, a first response for each :class:`Severity`, with
the days within which it is issued (f)(5)(ii); the official responsible for each type of
response, by title (f)(5)(iii); the days within which the next step follows a deadline passed
uncorrected; and the parameters of the rule that decides a violation's severity
(:mod:`sewer_rules.enforcement_plan`). A version is one format or the other, whole.

The loader is strict like the parameters' one: unknown keys, unknown responses, a kind without
a first response, a plan without a severity, official or time frame, and a guide without an
authority are errors naming the file and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .citations import Citation, CitationError, ExternalReference, cite
from .enforcement_terms import (
    EnforcementGuide,
    GuideError,
    GuideVersion,
    KindGuide,
    PlanTerms,
    Response,
    Severity,
    SeverityResponse,
    SeverityRule,
)
from .parameters import BUNDLED, ParameterError, parse_date, read_strict_yaml, refuse_unknown_keys

__all__ = [
    "DAMAGE",
    "EnforcementGuide",
    "GuideError",
    "GuideVersion",
    "KindGuide",
    "PlanTerms",
    "Response",
    "Severity",
    "SeverityResponse",
    "SeverityRule",
    "first_response",
    "load_guide",
    "next_response",
    "parse_guide",
]

DAMAGE = cite("§ 196-20")


def first_response(
    guide: EnforcementGuide,
    kind: str,
    day: date,
    violated: Citation | None = None,
    severity: Severity | str | None = None,
) -> Response:
    """The first response to a violation of ``kind`` found on ``day`` (of ``severity`` under a
    plan; without one, or under the older format, the kind's single first response).

    § 196-22 A excepts § 196-20 from the notice procedure ("... shall be subject to immediate
    arrest"): a violation of § 196-20 is referred at once, whatever its recorded kind.
    """
    if violated is not None and violated.section == DAMAGE.section:
        return guide.kind("damage", day).for_severity(severity)
    return guide.kind(kind, day).for_severity(severity)


def next_response(
    guide: EnforcementGuide, kind: str, day: date, taken: list[str]
) -> Response | None:
    """The escalation after the responses ``taken`` (codes, in order) left a deadline passed.

    The next step of the kind's escalation not yet taken, never one below where the violation
    started: when its first response is itself a step of the escalation (an administrative
    order first for a recurring violation), the steps before and at it are passed over. None
    when the guide has no further step (the matter then rests with the Town Attorney and the
    court).
    """
    ladder = guide.kind(kind, day).escalation
    codes = [s.code for s in ladder]
    if taken and taken[0] in codes:
        ladder = ladder[codes.index(taken[0]) + 1 :]
    for step in ladder:
        if step.code not in taken:
            return step
    return None


# --- reading the file ---------------------------------------------------------------------


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


def _days(raw: Any, where: str) -> int:
    """A whole number of days, zero or more (a boolean is not a number here)."""
    if type(raw) is not int or raw < 0:
        raise GuideError(f"{where}: expected a whole number of days (0 or more), got {raw!r}")
    return raw


def _text(raw: Any, where: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise GuideError(f"{where}: expected a text")
    return " ".join(raw.split())


def _flag(raw: Any, where: str) -> bool:
    if not isinstance(raw, bool):
        raise GuideError(f"{where}: must be true or false")
    return raw


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


class _Reader:
    """Reads one dated version's kinds against the file's responses (and plan, if any)."""

    def __init__(self, responses: Mapping[str, Response], where: str) -> None:
        self.responses = responses
        self.where = where

    def response(self, code: Any, at: str) -> Response:
        if str(code) not in self.responses:
            known = ", ".join(self.responses)
            raise GuideError(f"{at}: unknown response {code!r} (known: {known})")
        return self.responses[str(code)]

    def severities(
        self, raw: Any, officials: Mapping[str, str], at: str
    ) -> dict[Severity, SeverityResponse]:
        if not isinstance(raw, dict):
            raise GuideError(f"{at}: 'severities' must map each severity to its response")
        _only(raw, frozenset(Severity), f"{at} severities")
        out = {}
        for severity in Severity:
            here = f"{at} severity {severity}"
            entry = raw.get(severity.value)
            if not isinstance(entry, dict):
                raise GuideError(f"{here}: missing (give first, within_days)")
            _only(entry, frozenset({"first", "within_days", "official"}), here)
            for key in ("first", "within_days"):
                if key not in entry:
                    raise GuideError(f"{here}: missing '{key}'")
            first = self.response(entry["first"], here)
            official = entry.get("official") or officials.get(first.code, "")
            out[severity] = SeverityResponse(
                severity,
                first,
                _days(entry["within_days"], f"{here} within_days"),
                _text(official, f"{here} official") if official else "",
            )
        return out

    def kinds(self, raw: Any, plan: PlanTerms | None) -> dict[str, KindGuide]:
        if not isinstance(raw, dict) or not raw:
            raise GuideError(
                f"{self.where}: 'kinds' must map kinds of violation to their responses"
            )
        out = {}
        for kind, entry in raw.items():
            at = f"{self.where} kind {kind}"
            if not isinstance(entry, dict):
                raise GuideError(f"{at}: expected a mapping")
            steps = entry.get("escalation") or []
            if not isinstance(steps, list):
                raise GuideError(f"{at}: 'escalation' must be a list of responses")
            escalation = tuple(self.response(s, at) for s in steps)
            label = str(entry.get("label") or kind)
            if plan is None:
                _only(entry, frozenset({"label", "first", "escalation"}), at)
                if "first" not in entry:
                    raise GuideError(f"{at}: missing 'first' (the first response)")
                first = self.response(entry["first"], at)
                out[str(kind)] = KindGuide(str(kind), label, first, escalation)
                continue
            _only(entry, frozenset({"label", "severities", "escalation"}), at)
            if "severities" not in entry:
                raise GuideError(f"{at}: missing 'severities' (a plan answers each severity)")
            by_severity = self.severities(entry["severities"], plan.officials, at)
            isolated = by_severity[Severity.ISOLATED].first
            out[str(kind)] = KindGuide(str(kind), label, isolated, escalation, by_severity)
        self._check_damage(out)
        if plan is not None:
            self._check_plan(out, plan)
        return out

    def _check_damage(self, kinds: Mapping[str, KindGuide]) -> None:
        damage = kinds.get("damage")
        firsts = [damage.first] if damage else []
        firsts += [s.first for s in damage.severities.values()] if damage else []
        if damage is None or any(f.correction_clock for f in firsts):
            raise GuideError(
                f"{self.where}: kind 'damage' (§ 196-20) must be present and referred at once, "
                "without a correction clock"
            )

    def _check_plan(self, kinds: Mapping[str, KindGuide], plan: PlanTerms) -> None:
        unknown = sorted(set(plan.severity.significant_kinds) - set(kinds))
        if unknown:
            raise GuideError(
                f"{self.where} severity significant_kinds: unknown kind(s) {', '.join(unknown)}"
            )
        used = {s.code for k in kinds.values() for s in k.escalation}
        missing = sorted(c for c in used if c not in plan.officials)
        for k in kinds.values():
            missing += [
                f"{k.kind} {s.severity}: {s.first.code}"
                for s in k.severities.values()
                if not s.official
            ]
        if missing:
            raise GuideError(
                f"{self.where} officials: no official responsible named for {', '.join(missing)} "
                "(40 CFR 403.8(f)(5)(iii): each type of response, by title)"
            )


_PLAN_KEYS = frozenset({"investigation", "severity", "escalation_within_days", "officials"})


def _plan(entry: Mapping[str, Any], reader: _Reader) -> PlanTerms | None:
    """The version's plan terms, or None when it is of the older format (none of them)."""
    present = _PLAN_KEYS & set(entry)
    if not present:
        return None
    where = reader.where
    for key in sorted(_PLAN_KEYS - present):
        raise GuideError(
            f"{where}: missing '{key}' (a plan states all of {', '.join(sorted(_PLAN_KEYS))})"
        )
    raw_rule = entry["severity"]
    if not isinstance(raw_rule, dict):
        raise GuideError(f"{where} severity: expected a mapping")
    keys = ("look_back_months", "significant_kinds", "snc_is_significant", "harm_is_significant")
    _only(raw_rule, frozenset(keys), f"{where} severity")
    for key in keys:
        if key not in raw_rule:
            raise GuideError(f"{where} severity: missing '{key}'")
    months = _days(raw_rule["look_back_months"], f"{where} severity look_back_months")
    if months < 1:
        raise GuideError(f"{where} severity look_back_months: at least 1")
    significant = raw_rule["significant_kinds"]
    if not isinstance(significant, list):
        raise GuideError(f"{where} severity significant_kinds: expected a list of kinds")
    raw_officials = entry["officials"]
    if not isinstance(raw_officials, dict) or not raw_officials:
        raise GuideError(f"{where} officials: map each response to the official responsible")
    officials = {}
    for code, title in raw_officials.items():
        reader.response(code, f"{where} officials")
        officials[str(code)] = _text(title, f"{where} officials {code}")
    return PlanTerms(
        investigation=_text(entry["investigation"], f"{where} investigation"),
        severity=SeverityRule(
            months,
            frozenset(str(k) for k in significant),
            _flag(raw_rule["snc_is_significant"], f"{where} severity snc_is_significant"),
            _flag(raw_rule["harm_is_significant"], f"{where} severity harm_is_significant"),
        ),
        escalation_within_days=_days(
            entry["escalation_within_days"], f"{where} escalation_within_days"
        ),
        officials=officials,
    )


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
        _only(entry, frozenset({"authority", "kinds"}) | _PLAN_KEYS, where)
        if not entry.get("authority"):
            raise GuideError(f"{where}: missing 'authority' (who adopted this guide)")
        reader = _Reader(responses, where)
        plan = _plan(entry, reader)
        kinds = reader.kinds(entry.get("kinds"), plan)
        versions.append(GuideVersion(effective, str(entry["authority"]), kinds, plan))
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
