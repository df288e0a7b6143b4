"""The program's own oversight: each significant industrial user inspected and sampled by the
Town once in every program year (40 CFR 403.8(f)(2)(v)).

The regulation gives the Control Authority the procedure to "inspect and sample the effluent
from each Significant Industrial User at least once a year". Three readings are made here:

- **The year** is the Town's program year: it starts on the first day of the month given by the
  dated parameter ``pretreatment.program_year_start_month`` (1, January, for Wappinger: the
  calendar year, the one its annual pretreatment report and yearly SNC list cover). A change of
  that month makes one shorter year, from the end of the last year of the old month to the end
  of the first year of the new one, so that no day falls in two years or in none.
- **Who** must have been inspected and sampled: every user that was an SIU on at least one day
  of the year, by its dated designations (a later decision replaces an earlier one from its
  own day: :class:`sewer_rules.federal.snc_scope.SIUHistory`, the reading SNC uses too).
- **What counts**: an inspection of kind *industrial user* completed in the year
  (``completed_at``), and a sample of the user taken by the Town (``SamplingEvent.sampler`` is
  the Control Authority) collected in the year. A sample the user took itself, or one whose
  sampler was not recorded, is not the Town's sampling.

A year is judged on the first day after it ends, by the daily ``sewer-use flag-overdue``: a
user not inspected is a ``siu_not_inspected`` finding, one not sampled a ``siu_not_sampled``
finding, once per user and year (the finding's source is the user, its moment the first day
after the year). They are recorded ``review`` — the status of what waits on the office — and
are the Town's own duty left undone, never a violation by the user: the enforcement app opens
violations only from the kinds of finding it lists as a user's duty (``enforcement.grounds``),
and 40 CFR 403.8(f)(2)(v) binds no user (``sewer_rules.duties`` refuses it as a section).

:func:`year_status` is the same judgement for the year under way, for the program's page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from sewer_office.accounts.towns import primary
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of, record_finding
from sewer_office.inspections.choices import InspectionKind, InspectionState
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.choices import Sampler
from sewer_office.monitoring.in_force import params_in_force
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.registry.models import Establishment
from sewer_rules.federal import snc_scope
from sewer_rules.findings import Status
from sewer_rules.parameters import ParameterSet

from .choices import DesignationStatus
from .models import Designation

#: The dated parameter: the first month of the program year (1 = January).
YEAR_START = "pretreatment.program_year_start_month"
OVERSIGHT_CITATION = "40 CFR 403.8(f)(2)(v)"
#: What waits on the office's attention (sewer_rules.findings.Status.REVIEW, "Needs review").
ATTENTION = Status.REVIEW


@dataclass(frozen=True)
class ProgramYear:
    """One program year: from ``start`` to the day before ``end``."""

    start: date
    end: date  # the first day after the year: the day it is judged

    @property
    def last(self) -> date:
        return self.end - timedelta(days=1)

    @property
    def label(self) -> str:
        """``2026`` for a calendar year, else its first and last day."""
        if (self.start.month, self.start.day) == (1, 1) and self.end == date(
            self.start.year + 1, 1, 1
        ):
            return str(self.start.year)
        return f"{self.start:%Y-%m-%d} to {self.last:%Y-%m-%d}"


def _start_month(params: ParameterSet, day: date) -> int:
    return int(params.value(YEAR_START, day))


def program_year(day: date, params: ParameterSet | None = None) -> ProgramYear:
    """The program year that holds ``day``, by the start month in force that day."""
    # the plant's program year, one for every member town: the primary town's start month
    params = params or params_in_force(primary())
    month = _start_month(params, day)
    start = date(day.year, month, 1)
    if start > day:
        start = date(day.year - 1, month, 1)
    return ProgramYear(start, date(start.year + 1, month, 1))


def years_ended(first: date, today: date, params: ParameterSet) -> list[ProgramYear]:
    """The program years from the one holding ``first`` that ended before ``today``, one after
    the other (a change of the start month makes one shorter year, see the module's text)."""
    out: list[ProgramYear] = []
    year = program_year(first, params)
    while year.end <= today:
        out.append(year)
        following = program_year(year.end, params)
        year = ProgramYear(max(following.start, year.end), following.end)
    return out


def moment(day: date) -> datetime:
    """The first moment of ``day``, town time."""
    return timezone.make_aware(datetime.combine(day, time()))


# --- who was an SIU, and what the Town did ---------------------------------------------------


def siu_histories(
    establishment_ids: Iterable[int] | None = None,
) -> dict[int, snc_scope.SIUHistory]:
    """Each designated user's SIU status day by day, from its designations in the order they
    were recorded."""
    rows = Designation.objects.order_by("id")
    if establishment_ids is not None:
        rows = rows.filter(establishment_id__in=list(establishment_ids))
    recorded: dict[int, list[snc_scope.Status]] = defaultdict(list)
    for est_id, day, status in rows.values_list("establishment_id", "decided_on", "status"):
        recorded[est_id].append(snc_scope.Status(day, status == DesignationStatus.SIU))
    return {est_id: snc_scope.SIUHistory.of(s) for est_id, s in recorded.items()}


def sius_during(
    histories: dict[int, snc_scope.SIUHistory], first: date, last: date
) -> dict[int, list[tuple[date, date]]]:
    """The users that were an SIU on some day of ``first``..``last``, with those stretches."""
    out = {}
    for est_id, history in histories.items():
        spans = history.siu_spans(first, last)
        if spans:
            out[est_id] = spans
    return out


def _last_days(qs: Any, moment_field: str, first: date, end: date) -> dict[int, date]:
    """The town day of the last row of ``qs`` per establishment whose ``moment_field`` falls in
    ``first``..``end`` (excluded)."""
    out: dict[int, date] = {}
    for est_id, when in (
        qs.filter(**{f"{moment_field}__gte": moment(first), f"{moment_field}__lt": moment(end)})
        .order_by(moment_field)
        .values_list("establishment_id", moment_field)
    ):
        out[est_id] = timezone.localdate(when)
    return out


def inspections_in(ids: list[int], first: date, end: date) -> dict[int, date]:
    """The last completed industrial-user inspection of each user of ``ids`` in
    ``first``..``end`` (excluded), by its completion day."""
    done = Inspection.objects.filter(
        establishment_id__in=ids,
        kind=InspectionKind.INDUSTRIAL_USER,
        state=InspectionState.COMPLETED,
    )
    return _last_days(done, "completed_at", first, end)


def town_samples_in(ids: list[int], first: date, end: date) -> dict[int, date]:
    """The last sample taken by the Town of each user of ``ids`` in ``first``..``end``
    (excluded), by its collection day."""
    taken = SamplingEvent.objects.filter(
        establishment_id__in=ids, sampler=Sampler.CONTROL_AUTHORITY
    )
    return _last_days(taken, "collected_at", first, end)


# --- the daily judgement -----------------------------------------------------------------------


def _when_siu(spans: list[tuple[date, date]], year: ProgramYear) -> str:
    if spans == [(year.start, year.last)]:
        return "the whole year"
    return ", ".join(f"{a:%Y-%m-%d} to {b:%Y-%m-%d}" for a, b in spans)


MISSING: dict[str, str] = {
    FindingKind.SIU_NOT_INSPECTED: "no completed inspection of it as an industrial user",
    FindingKind.SIU_NOT_SAMPLED: (
        "no sample of its effluent taken by the Town (samples the user took itself, or whose "
        "sampler was not recorded, are not the Town's)"
    ),
}


def _record_once(
    est_id: int,
    kind: str,
    year: ProgramYear,
    spans: list[tuple[date, date]],
    params: ParameterSet,
) -> int:
    """Record ``kind`` for the user and year unless it is already recorded; 1 if recorded."""
    judged = moment(year.end)
    with transaction.atomic():
        est = Establishment.objects.select_for_update().get(pk=est_id)
        if findings_of(est).filter(kind=kind, observed_at=judged).exists():
            return 0
        used = params.get(YEAR_START, year.start)
        record_finding(
            source=est,
            establishment=est,
            kind=kind,
            status=ATTENTION,
            citation=OVERSIGHT_CITATION,
            message=(
                f"{est.name} was a significant industrial user in program year {year.label} "
                f"({_when_siu(spans, year)}), and {MISSING[kind]} is recorded in that year. "
                f"The Town is to inspect and sample the effluent of each significant "
                f"industrial user at least once a year ({OVERSIGHT_CITATION}): a duty of the "
                "Town left undone, not a violation by the user."
            ),
            observed_at=judged,
            parameter=YEAR_START,
            effective=used.effective,
            parameters_version=params.version,
        )
    return 1


def flag_siu_oversight(today: date | None = None) -> tuple[int, int]:
    """Judge every program year ended by ``today``: record SIU_NOT_INSPECTED and
    SIU_NOT_SAMPLED for each user that was an SIU in it and was not inspected, or not sampled
    by the Town, in it; each once. Returns how many of each were recorded."""
    today = today or timezone.localdate()
    histories = siu_histories()
    starts = [s.decided_on for h in histories.values() for s in h.segments if s.siu]
    if not starts:
        return 0, 0
    params = params_in_force(primary())  # the plant's program years (see program_year)
    counts = {FindingKind.SIU_NOT_INSPECTED: 0, FindingKind.SIU_NOT_SAMPLED: 0}
    for year in years_ended(min(starts), today, params):
        sius = sius_during(histories, year.start, year.last)
        if not sius:
            continue
        ids = sorted(sius)
        done = {
            FindingKind.SIU_NOT_INSPECTED: inspections_in(ids, year.start, year.end),
            FindingKind.SIU_NOT_SAMPLED: town_samples_in(ids, year.start, year.end),
        }
        recorded = set(
            findings_of_users(ids)
            .filter(kind__in=list(counts), observed_at=moment(year.end))
            .values_list("kind", "establishment_id")
        )
        for kind, met in done.items():
            for est_id in ids:
                if est_id not in met and (kind, est_id) not in recorded:
                    counts[kind] += _record_once(est_id, kind, year, sius[est_id], params)
    return counts[FindingKind.SIU_NOT_INSPECTED], counts[FindingKind.SIU_NOT_SAMPLED]


def findings_of_users(ids: list[int]) -> QuerySet[Finding]:
    """The oversight findings whose source is one of the users ``ids`` (a quick first look;
    each is checked again under lock before it is recorded)."""
    return Finding.objects.filter(
        source_type=ContentType.objects.get_for_model(Establishment),
        source_id__in=[str(i) for i in ids],
    )


# --- the year under way, for the program's page ------------------------------------------------


@dataclass(frozen=True)
class SIUYear:
    """One SIU in the program year under way: its last inspection and Town sample, if any."""

    establishment: Establishment
    inspected_on: date | None
    sampled_on: date | None


def year_status(
    today: date | None = None, establishments: Any = None
) -> tuple[ProgramYear, list[SIUYear]]:
    """The program year holding ``today`` and each user that has been an SIU in it so far, with
    whether the Town has inspected it and sampled it in the year (``establishments``: a
    queryset limiting the users shown, e.g. to those a user may see)."""
    today = today or timezone.localdate()
    year = program_year(today)
    sius = sius_during(siu_histories(), year.start, min(today, year.last))
    users = Establishment.objects.filter(pk__in=sorted(sius))
    if establishments is not None:
        users = users.filter(pk__in=establishments.values("pk"))
    ordered = list(users.order_by("name", "id"))
    ids = [e.pk for e in ordered]
    inspected = inspections_in(ids, year.start, year.end)
    sampled = town_samples_in(ids, year.start, year.end)
    return year, [SIUYear(e, inspected.get(e.pk), sampled.get(e.pk)) for e in ordered]
