"""A finding in plain words: the sentence a respondent reads in a notice, and the office on
the finding's pages.

A finding's ``message`` is the rules' own account, written for the office (parameter keys,
ISO dates, "TRC", record numbers). § 196-22 A asks the notice to state "the nature of the
violation" to the person found violating, who knows none of those keys; so the nature is
told here from the finding's facts — what was measured or not done, the limit or the date it
broke, when — with the numbers as measured and the dates written out: "copper above its
daily maximum (1 mg/l) on 9 of 12 days sampled in January–June 2026", "pH 4.8 below the
minimum of 5.5 on March 3, 2026", "baseline monitoring report due January 15, 2026 not
received (166 days late)".

The ledger sits below the domain apps, so their records (a slug event, a report due, an SNC
determination) are read through the finding's generic ``source`` by their attributes, never
imported. Where a source is missing the message itself is cleaned of keys and ISO dates.
This module holds one describer a kind of finding; the parts they are written with (dates,
quantities, a limit's name) are :mod:`.phrases`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.utils import timezone

from .choices import FindingKind
from .models import Finding
from .phrases import (
    COUNTED,
    LIMIT_KINDS,
    RECORD_NUMBER,
    analyte_name,
    cleaned,
    clock,
    dates_written,
    decimal_of,
    direction_of,
    limit_kind,
    limit_number,
    limit_phrase,
    period,
    quantity,
    written,
)

# --- one describer a kind --------------------------------------------------------------------


def _lab_result(f: Finding, today: date) -> str:
    result = f.result
    name = analyte_name(f.analyte or getattr(result, "parameter", ""))
    when = written(f.observed_at)
    if result is not None and not f.limit:
        return f"{name} {quantity(result.value_text, result.unit)} on {when} (no limit applies)"
    if result is None:
        return f"{cleaned(f.message)} (sample of {when})"
    kind = limit_kind(f.parameter)
    measured = quantity(result.value_text, result.unit)
    if f.status == "inconclusive":
        return (
            f"{name} {measured} on {when}: the laboratory's reporting limit is above "
            f"{limit_phrase(f, kind)}, so the result neither shows nor excludes a violation"
        )
    if f.status == "compliant":
        return f"{name} {measured} within {limit_phrase(f, kind)} on {when}"
    direction = direction_of(result.value_text, f.limit, kind)
    return f"{name} {measured} {direction} {limit_phrase(f, kind)} on {when}"


def _advisory(f: Finding, today: date) -> str:
    name = analyte_name(f.analyte)
    return f"the {name} result of the sample of {written(f.observed_at)}: {cleaned(f.message)}"


_AVERAGE = re.compile(r":\s*([-\d.]+)\s*\S*\s+over\s+(\d+)\s+day")


def _monthly_average(f: Finding, today: date) -> str:
    name = analyte_name(f.analyte)
    month = f.month or timezone.localdate(f.observed_at).replace(day=1)
    when = f"{month:%B} {month.year}"
    kind = limit_kind(f.parameter)
    found = _AVERAGE.search(f.message)
    if found is None:
        return f"the average of {name} in {when} against {limit_phrase(f, kind)}"
    average, days = found[1], int(found[2])
    measured = quantity(average, f.limit_unit)
    counted = f"{days} day{'s' if days != 1 else ''} sampled"
    if f.status == "compliant":
        return f"the average of {name} in {when}, {measured} over {counted}, within {limit_phrase(f, kind)}"
    direction = direction_of(average, f.limit, kind)
    return (
        f"the average of {name} in {when}, {measured} over {counted}, {direction} "
        f"{limit_phrase(f, kind)}"
    )


def _span(start: datetime, end: datetime) -> str:
    """``December 2, 2026 from 2:00 pm to 2:30 pm`` (both days when it crossed midnight)."""
    if timezone.localdate(start) == timezone.localdate(end):
        return f"on {written(start)} from {clock(start)} to {clock(end)}"
    return f"from {written(start)}, {clock(start)}, to {written(end)}, {clock(end)}"


def _meter(source: Any) -> str:
    meter = getattr(source, "meter", None)
    return f" on meter {meter.ident}" if meter is not None else ""


def _slug(f: Finding, today: date) -> str:
    s = f.source
    if s is None:
        return f"a slug discharge on {written(f.observed_at)}: {cleaned(f.message)}"
    name = analyte_name(f.analyte or getattr(s.meter, "parameter", ""))
    return (
        f"a slug discharge{_meter(s)} {_span(s.start, s.end)}: {name} peaked at "
        f"{quantity(s.peak, s.unit)}, more than the slug threshold of "
        f"{quantity(s.threshold, s.unit)}{_multiple(s)}; every slug must be reported to the "
        "Town immediately"
    )


def _multiple(s: Any) -> str:
    """`` (5 times the normal rate)``: how the threshold was set from the baseline."""
    threshold, baseline = decimal_of(s.threshold), decimal_of(getattr(s, "baseline", None))
    if threshold is None or not baseline:
        return ""
    times = (threshold / baseline).quantize(Decimal("0.1"))
    return f" ({limit_number(times)} times the normal rate)"


def _excursion(f: Finding, today: date) -> str:
    e = f.source
    name = analyte_name(f.analyte)
    kind = limit_kind(f.parameter)
    if e is None:
        direction = "outside"
        return f"{name} {direction} {limit_phrase(f, kind)} on {written(f.observed_at)}"
    direction = direction_of(e.extreme, e.limit, kind)
    extreme = "lowest" if direction == "below" else "highest"
    minutes = int((e.end - e.start).total_seconds() // 60)
    return (
        f"{name} {direction} {limit_phrase(f, kind)}{_meter(e)} {_span(e.start, e.end)} "
        f"({minutes} minutes; {extreme} {quantity(e.extreme, e.unit)})"
    )


def _unreported_slug(f: Finding, today: date) -> str:
    s = f.source
    if s is None:
        return f"a slug discharge of {written(f.observed_at)} not reported to the Town"
    return (
        f"the slug discharge{_meter(s)} {_span(s.start, s.end)} was not reported to the Town "
        "immediately, as every slug must be"
    )


def _pump_out_overdue(f: Finding, today: date) -> str:
    trap = f.source
    due = timezone.localdate(f.observed_at) - timedelta(days=1)
    what = "the grease trap"
    if trap is not None and hasattr(trap, "get_kind_display"):
        what = "the " + trap.get_kind_display().split(" (")[0].lower()
        if getattr(trap, "location", ""):
            what += f" ({trap.location})"
    every = f" (to be cleaned every {f.limit} days)" if f.limit else ""
    return f"{what} not pumped out by its due date, {written(due)}{every}"


_NOT_MET = re.compile(r"^(?P<question>.+?):\s*not met\s*[—-]\s*(?P<note>.*)$", re.S)


def _inspection(f: Finding, today: date) -> str:
    when = written(f.observed_at)
    source = f.source
    refusals = getattr(source, "refusals", None)
    if f.message.startswith("Entry refused") and refusals is not None:
        refusal = refusals.order_by("-refused_at", "-id").first()
        if refusal is not None:
            return (
                f"entry for the inspection refused by {refusal.refused_by} on "
                f"{written(refusal.refused_at)} at {clock(refusal.refused_at)}"
            )
    found = _NOT_MET.match(f.message)
    if found is None:
        return f"at the inspection of {when}: {cleaned(f.message)}"
    question = found["question"].strip()
    note = found["note"].strip().rstrip(".")
    said = f" ({note[:1].lower() + note[1:]})" if note else ""
    requirement = question[:1].lower() + question[1:]
    return f"at the inspection of {when}, this requirement was not met: {requirement}{said}"


def _approval_expired(f: Finding, today: date) -> str:
    approval = f.source
    number = getattr(approval, "number", "")
    expired = getattr(approval, "expires_on", None) or (
        timezone.localdate(f.observed_at) - timedelta(days=1)
    )
    which = (
        f"industrial discharge approval {number}" if number else "the industrial discharge approval"
    )
    return (
        f"{which} expired on {written(expired)} and no approval has been in force since, while "
        "the facility is taken to be still discharging"
    )


def _milestone_missed(f: Finding, today: date) -> str:
    m = f.source
    if m is None:
        return f"a compliance-schedule milestone not completed by its date: {cleaned(f.message)}"
    schedule = getattr(m.schedule, "number", "")
    of = f" of compliance schedule {schedule}" if schedule else ""
    done = (
        f" (completed {written(m.completed_on)}, {(m.completed_on - m.due_on).days} days late)"
        if m.completed_on
        else ""
    )
    return (
        f"milestone “{m.description}”{of}, due {written(m.due_on)}, not completed by its date{done}"
    )


def report_kinds() -> dict[str, str]:
    """Report kinds and their names (the pretreatment app's choices, read by model name)."""
    model = apps.get_model("pretreatment", "ReportDue")
    return {str(k): str(v) for k, v in model._meta.get_field("kind").choices or ()}


def _report(kind: str, due: date, received: date | None, today: date) -> str:
    name = report_kinds().get(kind, kind.replace("_", " "))
    name = name[:1].lower() + name[1:]
    if received is not None:
        late = (received - due).days
        return f"{name} due {written(due)} received {written(received)} ({late} days late)"
    late = (today - due).days
    return f"{name} due {written(due)} not received ({late} days late)"


def _report_late(f: Finding, today: date) -> str:
    due = f.source
    if due is None:
        return cleaned(f.message)
    return _report(due.kind, due.due_on, due.received_on, today)


def _criterion(d: dict[str, Any]) -> str:
    """One limit series of an SNC determination: how many measurements broke it, and how many
    reached the technical review criterion (criterion B), explained."""
    name = analyte_name(str(d["parameter"]))
    kind = LIMIT_KINDS.get(str(d["limit_type"]), "limit")
    amount = quantity(d["limit"], str(d["unit"]), as_limit=True)
    direction = "below" if "minimum" in str(d["limit_type"]) else "above"
    counted = COUNTED.get(str(d["limit_type"]), "in {n} of {of} samples")
    text = f"{name} {direction} its {kind} ({amount}) " + counted.format(
        n=d["exceeding"], of=d["measurements"]
    )
    factor, limit = decimal_of(d.get("trc")), decimal_of(d["limit"])
    if d.get("trc_exceeding") and factor is not None and limit is not None:
        reach = quantity(limit * factor, str(d["unit"]), as_limit=True)
        text += (
            f", {d['trc_exceeding']} of them at or {direction} {reach} (the technical review "
            f"criterion, {limit_number(factor)} times the limit)"
        )
    return text


def _snc(f: Finding, today: date) -> str:
    det = f.source
    if det is None or not hasattr(det, "determinations"):
        return f"significant noncompliance: {cleaned(f.message)}"
    span = period(det.period_start, det.period_end)
    parts = [_criterion(d) for d in det.determinations if d.get("snc")]
    for r in det.reports:
        if not r.get("snc"):
            continue
        kind = str(r["report"]).split(" #")[0]
        received = date.fromisoformat(r["received"]) if r.get("received") else None
        due = date.fromisoformat(str(r["due"]))
        parts.append(_report(kind, due, received, due + timedelta(days=int(r["days_late"]))))
    # a criterion outside 403.8(f)(2)(viii)'s scope (``applies`` False) is not a ground
    staff = [s for s in det.staff_criteria if s.get("applies", True)]
    parts += [dates_written(RECORD_NUMBER.sub("", str(s["text"]))) for s in staff]
    return f"significant noncompliance in {span}: " + "; ".join(parts)


def _siu_oversight(f: Finding, today: date) -> str:
    """The Town's own duty (40 CFR 403.8(f)(2)(v)), for the office: the year ended the day
    before the finding's moment."""
    name = getattr(f.source, "name", "") or "a significant industrial user"
    done = (
        "inspected by the Town"
        if f.kind == FindingKind.SIU_NOT_INSPECTED
        else "sampled by the Town (its own samples do not count)"
    )
    ended = timezone.localdate(f.observed_at) - timedelta(days=1)
    return (
        f"{name}, a significant industrial user in the program year that ended "
        f"{written(ended)}, was not {done} in that year"
    )


def _no_repeat_sample(f: Finding, today: date) -> str:
    """A user's own sample showed a violation and no repeat followed (40 CFR 403.12(g)(2)):
    the source is the result, or the month's average; the user became aware of it the day it
    reached the Town (its import), or the day the month's average was found."""
    due = timezone.localdate(f.observed_at) - timedelta(days=1)
    name = analyte_name(f.analyte)
    source: Any = f.source
    event = getattr(source, "event", None)
    if event is not None:
        measured = quantity(source.value_text, source.unit)
        shown = f"your own sample {event.sample_id} of {written(source.sampled_at)}"
        shown += f" ({name} {measured})"
        imported = getattr(source.lab_import, "imported_at", None) or source.created_at
    elif getattr(source, "month", None) is not None:
        shown = f"the average of your own samples of {name} in {source.month:%B %Y}"
        imported = source.created_at
    else:
        return f"no repeat sample submitted in time: {cleaned(f.message)}"
    aware = timezone.localdate(imported)
    return (
        f"{shown} showed a violation, and no repeat sample of {name} with its results reached "
        f"the Town by {written(due)}, {(due - aware).days} days after you became aware of it "
        f"on {written(aware)}"
    )


def _baseline_incomplete(f: Finding, today: date) -> str:
    """A baseline report recorded received with elements neither given nor explained
    (40 CFR 403.12(b)): which ones, as the finding named them when recorded."""
    due: Any = f.source
    missing = f.message.split("—", 1)[1].strip().rstrip(".") if "—" in f.message else ""
    if due is None or not missing:
        return cleaned(f.message)
    received = f" received {written(due.received_on)}" if due.received_on else ""
    return (
        f"your baseline monitoring report due {written(due.due_on)}{received} neither gives "
        f"nor explains: {missing}"
    )


def _response_late(f: Finding, today: date) -> str:
    """The Town's own lateness against its adopted enforcement response plan (40 CFR
    403.8(f)(5)(ii)): an office finding, never shown to the user; its message says it all."""
    return cleaned(f.message)


DESCRIBERS: dict[str, Callable[[Finding, date], str]] = {
    FindingKind.LAB_RESULT: _lab_result,
    FindingKind.ADVISORY: _advisory,
    FindingKind.MONTHLY_AVERAGE: _monthly_average,
    FindingKind.SLUG: _slug,
    FindingKind.EXCURSION: _excursion,
    FindingKind.UNREPORTED_SLUG: _unreported_slug,
    FindingKind.PUMP_OUT_OVERDUE: _pump_out_overdue,
    FindingKind.INSPECTION: _inspection,
    FindingKind.APPROVAL_EXPIRED: _approval_expired,
    FindingKind.MILESTONE_MISSED: _milestone_missed,
    FindingKind.REPORT_LATE: _report_late,
    FindingKind.SNC: _snc,
    FindingKind.SIU_NOT_INSPECTED: _siu_oversight,
    FindingKind.SIU_NOT_SAMPLED: _siu_oversight,
    FindingKind.NO_REPEAT_SAMPLE: _no_repeat_sample,
    FindingKind.BASELINE_INCOMPLETE: _baseline_incomplete,
    FindingKind.RESPONSE_LATE: _response_late,
}


def capitalized(sentence: str) -> str:
    """``sentence`` opening a paragraph: its first letter capitalized unless the first word
    is written in mixed case (``pH`` stays ``pH``)."""
    first = sentence.split(" ", 1)[0]
    if not first or any(c.isupper() for c in first[1:]):
        return sentence
    return first[:1].upper() + sentence[1:]


def describe(finding: Finding, today: date | None = None) -> str:
    """The finding in a sentence a respondent reads (no keys, numbers as measured, dates
    written out); ``today`` counts the days late of a report still not received."""
    describer = DESCRIBERS.get(finding.kind)
    if describer is None:
        return cleaned(finding.message)
    return describer(finding, today or timezone.localdate())
