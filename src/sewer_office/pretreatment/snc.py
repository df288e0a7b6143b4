"""Significant noncompliance in the office (40 CFR 403.8(f)(2)(viii)): the staff's criteria,
the computation for a period and what it stores.

SNC is never decided here: the inputs read by :mod:`.snc_reading` are handed to
:func:`sewer_engines.federal.snc_columnar.determine_table` (the columnar counts, equal to
:func:`~sewer_rules.federal.snc_determination.determine` that the command line uses on files,
``tests/test_snc_columnar.py``), and its answer is stored per facility
(:class:`~.models.SNCDetermination`); a facility in SNC gets one violation in the enforcement
app per period (kind ``significant_noncompliance`` of the response guide). Only a significant
industrial user can be in SNC under (A), (B), (E), (F), (G), day by day of its designations;
any industrial user under (C), (D), (H) (:mod:`.snc_scope`): the evidence outside that scope
is set aside before the rules count, and the determination says what did not count and why."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import polars as pl
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from sewer_engines.federal.snc_columnar import determine_table
from sewer_engines.federal.snc_inputs import split_rows
from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.jurisdictions import sees_every_jurisdiction
from sewer_office.accounts.towns import primary
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.monitoring.in_force import params_in_force
from sewer_office.registry.models import Establishment
from sewer_rules.federal.snc_criteria import criterion
from sewer_rules.federal.snc_determination import SNCReport
from sewer_rules.federal.snc_periods import PeriodError, Window, six_month_windows
from sewer_rules.federal.snc_scope import Scope, split_reports
from sewer_rules.parameters import ParameterError

from . import snc_scope as scoping
from .models import SNCDetermination
from .services import DECIDERS, _require, _today
from .snc_reading import _series, milestone_criteria, read_period, snc_inputs_for
from .snc_staff import _carried_staff_criteria
from .snc_violations import _open_violation_once


@dataclass
class SNCRun:
    """What one computation stored: the period, the determinations, the violations opened."""

    period: Window
    rolling: bool
    determinations: list[SNCDetermination] = field(default_factory=list)
    violations_opened: int = 0
    measurements: int = 0

    @property
    def in_snc(self) -> list[SNCDetermination]:
        return [d for d in self.determinations if d.snc]


def compute_snc(
    actor: Actor,
    period_text: str,
    *,
    rolling: bool | None = None,
    establishment_ids: Sequence[int] | None = None,
    as_of: date | None = None,
    at: datetime | None = None,
) -> SNCRun:
    """Determine SNC for every facility with limits or report due dates in the period (or those
    named), store one :class:`SNCDetermination` per facility (superseding the previous one of
    the same period) and open one violation per facility × period in SNC.

    (A), (B), (E), (F), (G) count only what happened on a day the user was an SIU by its
    designations; the rest is set aside, and each determination says what and why
    (:mod:`.snc_scope`). A user never designated is judged under (C), (D), (H) only."""
    _require(actor, DECIDERS, "Determining significant noncompliance", "40 CFR 403.8(f)(2)(viii)")
    if not sees_every_jurisdiction(actor):
        raise Forbidden(
            "Determining significant noncompliance is the plant's work (40 CFR 403.8(f)(2)(viii)),"
            " the pretreatment coordinator's: your account acts for some member towns only."
        )
    # the plant's determination over every member town's users: the primary town's values
    params = params_in_force(primary())
    period, chosen = read_period(period_text, rolling, params)
    keys, limits, measurements, reports, row_ids = snc_inputs_for(
        period, chosen, establishment_ids, params
    )
    # 403.8(f)(2)(viii)'s scope: (A), (B), (F) judged on the days each user was an SIU only
    scope = scoping.scope_of(keys)
    counted, set_aside = split_rows(measurements, scope)
    judged, unjudged = split_reports(reports, scope)
    judged_on = as_of or min(_today(at), period.end)
    try:
        result: SNCReport = determine_table(
            counted,
            limits,
            period,
            params,
            rolling=chosen,
            reports=judged,
            as_of=judged_on,
        )
        late_days = int(params.value("snc.report_late_days", period.end))
    except (PeriodError, ParameterError) as e:
        raise Blocked(str(e)) from None
    per = _per_facility(result, scope, set_aside, row_ids)
    for r in unjudged:
        per[r.facility]["reports"].append(scoping.set_aside_report(r, judged_on, late_days, scope))
    for entry in per.values():  # judged and set aside, by due date as the rules order them
        entry["reports"].sort(key=lambda r: (r["due"], r["report"]))
    run = SNCRun(period, chosen, measurements=measurements.height)
    milestones = milestone_criteria(list(keys.values()), period)
    estabs = Establishment.objects.in_bulk(list(keys.values()))
    version = f"{params.jurisdiction}"
    with transaction.atomic():
        previous = {
            p.establishment_id: p
            for p in SNCDetermination.objects.select_for_update(of=("self",)).filter(
                establishment_id__in=list(keys.values()),
                period_start=period.start,
                period_end=period.end,
                rolling=chosen,
                superseded_by__isnull=True,
            )
        }
        linked = dict(
            SNCDetermination.objects.filter(
                establishment_id__in=list(keys.values()),
                period_start=period.start,
                period_end=period.end,
                violation__isnull=False,
            ).values_list("establishment_id", "violation_id")
        )
        for key, est_id in sorted(keys.items()):
            entry = per.get(key, {"determinations": [], "reports": [], "measurements": 0})
            prev = previous.get(est_id)
            staff = scoping.judge_staff(
                key, milestones.get(est_id, []) + _carried_staff_criteria(prev), scope
            )
            letters = sorted(
                {c for d in entry["determinations"] for c in d["criteria"]}
                | {c for r in entry["reports"] for c in r["criteria"]}
                | {s["criterion"] for s in scoping.applying(staff)}
            )
            snc = bool(letters)
            violation_id = linked.get(est_id)
            det = SNCDetermination.objects.create(
                establishment_id=est_id,
                period_start=period.start,
                period_end=period.end,
                rolling=chosen,
                snc=snc,
                criteria=letters,
                citations=[str(criterion(c)) for c in letters],
                determinations=entry["determinations"],
                reports=entry["reports"],
                staff_criteria=staff,
                measurements=entry["measurements"],
                parameters_version=version,
                violation_id=violation_id,
                computed_by=signed_in(actor),
                computed_at=at or timezone.now(),
                supersedes=prev,
            )
            det.establishment = estabs[est_id]
            if _open_violation_once(actor, det, violation_id, at):
                violation_id = det.violation_id
                run.violations_opened += 1
            audit.record(
                actor=actor,
                action="determine_snc",
                obj=det,
                before=None if prev is None else {"id": prev.pk, "criteria": prev.criteria},
                after={"criteria": letters, "snc": snc, "violation": violation_id},
                citation="40 CFR 403.8(f)(2)(viii)",
                state_from="" if prev is None else ("snc" if prev.snc else "compliant"),
                state_to="snc" if snc else "compliant",
                at=at,
            )
            run.determinations.append(det)
    return run


def _per_facility(
    result: SNCReport, scope: Scope, set_aside: pl.DataFrame, row_ids: dict[int, int]
) -> defaultdict[str, dict[str, Any]]:
    """The rules' determinations and reports by facility as stored, each limit series with
    the days its user was an SIU and what of its parameter's results was set aside."""
    per: defaultdict[str, dict[str, Any]] = defaultdict(
        lambda: {"determinations": [], "reports": [], "measurements": 0}
    )
    left: dict[tuple[str, str], list[date]] = defaultdict(list)
    if set_aside.height:
        for facility, analyte, day in set_aside.select("facility", "analyte", "day").iter_rows():
            left[(facility or "", analyte)].append(day)
    windows = six_month_windows(result.period, result.rolling)
    first, last = windows[0].start, windows[-1].end  # the days the series were counted over
    for d in result.determinations:
        lim, entry = d.limit, per[d.limit.facility]
        spans = scoping.siu_days(scope.of(lim.facility), first, last)
        note = scoping.series_scope(
            lim.facility, left.get((lim.facility, lim.analyte), []), lim.valid_from,
            lim.valid_to, scope,
        )  # fmt: skip
        entry["determinations"].append(_series(d, row_ids, spans, note))
        entry["measurements"] += sum(w.measurements for w in d.windows)
    for r in result.reports:
        per[r.report.facility]["reports"].append(r.as_dict())
    return per


def visible_determinations(user: Actor) -> QuerySet[SNCDetermination]:
    return visible(
        SNCDetermination.objects.filter(superseded_by__isnull=True).select_related(
            "establishment__operator", "establishment__building__property", "violation"
        ),
        user,
    )
