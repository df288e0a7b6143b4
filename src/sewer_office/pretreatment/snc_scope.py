"""Who significant noncompliance applies to, in the office (40 CFR 403.8(f)(2)(viii)).

(A), (B), (E), (F) and (G) make only a significant industrial user in SNC; (C), (D) and (H)
any industrial user (:mod:`sewer_rules.federal.snc_scope`, where the reading is written). Here
the office's records meet that rule:

- the SIU designations of 40 CFR 403.3(v) (:class:`~.models.Designation`, every one ever
  recorded, in the order recorded) are read in bulk as each user's SIU history; a user never
  designated was not an SIU;
- a run's evidence outside the scope is set aside before the rules count (results sampled,
  reports due, milestones due or staff criteria dated on a day the user was not an SIU), and
  the stored determination keeps a sentence saying what did not count and why;
- the yearly list re-checks each determination in force against the designations as they stand,
  so that a determination stored before the scope was applied, or before a designation was
  corrected, never names a user for a criterion outside the scope.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from sewer_office.monitoring.models import LabResult
from sewer_rules.federal.snc_chronic_and_trc import WindowCount
from sewer_rules.federal.snc_late_reports import Report, ReportDetermination
from sewer_rules.federal.snc_periods import Window
from sewer_rules.federal.snc_scope import (
    ANY_USER,
    NEVER_DECIDED,
    Scope,
    SIUHistory,
    Status,
    not_counted,
)
from sewer_rules.parameters import ParameterSet

from .choices import BASIS_CITATIONS, DesignationBasis, DesignationStatus
from .models import Designation, SNCDetermination

_HOW: dict[tuple[str, str], str] = {
    (DesignationBasis.EVALUATED, DesignationStatus.SIU): "evaluated a significant industrial user",
    (DesignationBasis.EVALUATED, DesignationStatus.NOT_SIU): "evaluated not significant",
    (
        DesignationBasis.DESIGNATED,
        DesignationStatus.SIU,
    ): "designated a significant industrial user",
    (DesignationBasis.DE_DESIGNATED, DesignationStatus.NOT_SIU): "found not significant",
}


def why(basis: str, status: str, decided_on: date) -> str:
    """``found not significant on 2026-04-01 (40 CFR 403.3(v)(2))``."""
    how = _HOW.get((basis, status), "not a significant industrial user")
    return f"{how} on {decided_on} ({BASIS_CITATIONS.get(basis, '40 CFR 403.3(v)')})"


def histories(establishment_ids: Iterable[int]) -> dict[int, SIUHistory]:
    """Each user's SIU history from all its designations, in one query (recording order)."""
    recorded: dict[int, list[Status]] = defaultdict(list)
    for est, status, basis, day in (
        Designation.objects.filter(establishment_id__in=list(establishment_ids))
        .order_by("id")
        .values_list("establishment_id", "status", "basis", "decided_on")
    ):
        recorded[est].append(Status(day, status == DesignationStatus.SIU, why(basis, status, day)))
    return {est: SIUHistory.of(statuses) for est, statuses in recorded.items()}


def history_of(establishment_id: int) -> SIUHistory:
    return histories([establishment_id]).get(establishment_id, NEVER_DECIDED)


def scope_of(keys: dict[str, int]) -> Scope:
    """The scope of a run: facility key → its history; a facility never designated is not an
    SIU on any day."""
    found = histories(keys.values())
    return Scope({key: found[est] for key, est in keys.items() if est in found})


def siu_days(history: SIUHistory, first: date, last: date) -> list[list[str]]:
    return [[a.isoformat(), b.isoformat()] for a, b in history.siu_spans(first, last)]


def series_scope(
    facility: str, days: Sequence[date], lim_from: date, lim_to: date, scope: Scope
) -> dict[str, Any] | None:
    """The note of a limit series on the results of its parameter set aside (those of days
    the limit was in force), or None when none was."""
    mine = [d for d in days if lim_from <= d <= lim_to]
    if not mine:
        return None
    what = f"{len(mine)} result(s) sampled"
    return {
        "not_counted": len(mine),
        "text": not_counted(what, facility, mine, scope, "(A), (B)"),
    }


def set_aside_report(r: Report, as_of: date, limit_days: int, scope: Scope) -> dict[str, Any]:
    """A report due on a day its user was not an SIU: shown with its days late, not judged."""
    entry = ReportDetermination(r, as_of, ((r.received or as_of) - r.due).days, limit_days)
    return {
        **entry.as_dict(),
        "snc": False,
        "criteria": [],
        "scope": not_counted("a report due", r.facility, [r.due], scope, "(F)"),
    }


def judge_staff(
    facility: str, staff: Iterable[dict[str, Any]], scope: Scope
) -> list[dict[str, Any]]:
    """The criteria of staff and schedules ((C)–(E), (G), (H)), each marked ``applies: False``
    with the reason when dated on a day the user was not an SIU ((E), (G) only)."""
    out = []
    for s in staff:
        entry = {k: v for k, v in s.items() if k not in ("applies", "scope")}
        letter, on = str(entry.get("criterion", "")), entry.get("on")
        if letter in ANY_USER or not on or scope.was_siu(facility, date.fromisoformat(on)):
            out.append(entry)
            continue
        what = "a milestone due" if letter == "E" else "a determination dated"
        reason = not_counted(what, facility, [date.fromisoformat(on)], scope, f"({letter})")
        out.append({**entry, "applies": False, "scope": reason})
    return out


def applying(staff: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The staff criteria that count (not marked out of the scope)."""
    return [s for s in staff if s.get("applies", True)]


# --- the yearly list: each determination in force re-checked --------------------------------


def _whole(history: SIUHistory, first: date, last: date) -> bool:
    return history.siu_spans(first, last) == [(first, last)]


def _series_letters(
    d: dict[str, Any],
    history: SIUHistory,
    days_of: dict[int, date],
    params: ParameterSet,
    period: tuple[date, date],
) -> set[str]:
    """(A), (B) of one stored series as the designations now stand.

    The stored criteria hold when they were counted on the days the user is now known to have
    been an SIU: the series' ``siu_days`` (stored since the scope is applied) equal today's
    spans, or the user was an SIU on every day of the period. Otherwise the deciding window's
    stored measurements are counted again on the days in scope (a month's average only when
    all its results are)."""
    first, last = period
    windows = d.get("windows") or [d["window"]]
    lo = min(date.fromisoformat(w["start"]) for w in windows)
    hi = max(date.fromisoformat(w["end"]) for w in windows)
    if "siu_days" in d and d["siu_days"] == siu_days(history, lo, hi):
        return set(d["criteria"])
    if _whole(history, min(lo, first), max(hi, last)):
        return set(d["criteria"])
    n = e = t = 0
    for ids, exceeds, trc in d["counted"]:
        if ids and all(i in days_of and history.was_siu(days_of[i]) for i in ids):
            n, e, t = n + 1, e + bool(exceeds), t + bool(trc)
    w = d["window"]
    end = date.fromisoformat(w["end"])
    count = WindowCount(
        Window(date.fromisoformat(w["start"]), end),
        (),
        None if d.get("trc") is None else Decimal(str(d["trc"])),
        params.value("snc.chronic_percent", end),
        params.value("snc.trc_percent", end),
        (n, e, t),
    )
    return set(count.criteria)


def criteria_in_scope(
    dets: Sequence[SNCDetermination], params: ParameterSet
) -> dict[int, list[str]]:
    """The criteria of each stored determination that hold within the scope, as the
    designations now stand (a few queries for all of them)."""
    found = histories({d.establishment_id for d in dets})
    recount = {
        i
        for det in dets
        for d in det.determinations
        if d.get("snc")
        for ids, _, _ in d.get("counted", [])
        for i in ids
    }
    tz = ZoneInfo(params.timezone)
    days_of = {
        pk: when.astimezone(tz).date()
        for pk, when in LabResult.objects.filter(pk__in=sorted(recount)).values_list(
            "id", "sampled_at"
        )
    }
    out: dict[int, list[str]] = {}
    for det in dets:
        history = found.get(det.establishment_id, NEVER_DECIDED)
        period = (det.period_start, det.period_end)
        letters: set[str] = set()
        for d in det.determinations:
            if d.get("snc"):
                letters |= _series_letters(d, history, days_of, params, period)
        for r in det.reports:
            if r.get("snc") and history.was_siu(date.fromisoformat(r["due"])):
                letters |= set(r["criteria"])
        for s in applying(det.staff_criteria):
            letter, on = s.get("criterion", ""), s.get("on")
            # an (E) stored before it carried its day: an SIU over the whole period
            dated = history.was_siu(date.fromisoformat(on)) if on else _whole(history, *period)
            if letter in ANY_USER or dated:
                letters.add(letter)
        out[det.pk] = sorted(letters & set(det.criteria))
    return out
