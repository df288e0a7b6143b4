"""The repeat sample a user owes when its own sampling shows a violation (40 CFR 403.12(g)(2)).

"If sampling performed by an Industrial User indicates a violation, the User shall notify the
Control Authority within 24 hours of becoming aware of the violation. The User shall also
repeat the sampling and analysis and submit the results of the repeat analysis to the Control
Authority within 30 days after becoming aware of the violation." The same paragraph excuses
the repeat when the Control Authority samples the user at least once a month, or samples it
between the user's initial sampling and the day the user receives its results.

Read here (run daily by ``sewer-use flag-overdue``, each finding once):

- **The user's sampling**: a sample whose ``sampler`` is the industrial user (self-monitoring
  uploads are so automatically; a laboratory file says so in its ``sampler`` column).
- **A violation**: a current finding on one of its results, of a laboratory result, that the
  enforcement app would open a violation from (``enforcement.grounds.finding_refusal``:
  ``prohibited``, or ``review`` once the opinion that harm is likely is recorded); or a month's
  average over a monthly limit, when at least one of the month's results of that parameter is
  of a sample the user took.
- **Aware**: the day the result reached the Town — the day of the import that stored it (the
  laboratory file's or the user's own upload; the office stores no report date of the
  laboratory), or for a month's average the day its finding was made. The user received its
  results no later than that.
- **The repeat**: a later sample the user took of the same parameter at the same facility
  (collected after the original sample, or after the month for an average) whose result
  reached the Town by ``self_monitoring.repeat_days`` (30) after the day of awareness.
- **The exceptions**: the Town sampled the facility (``sampler`` the Control Authority) in each
  of the :data:`MONTHLY_MONTHS` calendar months ending with the month of the original sample —
  sampling at least once a month, as the office reads "at a frequency of at least once per
  month"; or the Town sampled it after the original sample and by the day of awareness.

Missing after that day, the result (or the month's average) gets one ``no_repeat_sample``
finding citing 40 CFR 403.12(g)(2): a violation of the user. The 24-hour notice of the same
paragraph is not judged here: the office records no such notice.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from sewer_office.accounts.towns import primary
from sewer_office.enforcement.grounds import finding_refusal
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of, record_finding
from sewer_office.monitoring.choices import Sampler
from sewer_office.monitoring.in_force import params_in_force
from sewer_office.monitoring.models import LabResult, SamplingEvent
from sewer_office.registry.models import Establishment
from sewer_rules.findings import Status
from sewer_rules.parameters import ParameterSet

from .oversight import moment

REPEAT_DAYS = "self_monitoring.repeat_days"
REPEAT_CITATION = "40 CFR 403.12(g)(2)"
#: Statuses a measured finding may be a violation with (the rest never are).
VIOLATION_STATUSES = (Status.PROHIBITED, Status.REVIEW)
#: How many calendar months, ending with the original sample's, the Town must have sampled the
#: facility in, each, for its sampling to count as "at least once per month" (the office's
#: reading: a programme under way, not one visit).
MONTHLY_MONTHS = 3


def _month_start(day: date) -> date:
    return day.replace(day=1)


def _next_month(day: date) -> date:
    return date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def _months_back(day: date, n: int) -> list[date]:
    """The first days of the ``n`` calendar months ending with ``day``'s."""
    months = [_month_start(day)]
    while len(months) < n:
        months.append(_month_start(months[-1] - timedelta(days=1)))
    return months


def town_sampled_monthly(est_id: int, when: datetime) -> bool:
    """Whether the Town sampled the facility in each of the :data:`MONTHLY_MONTHS` months
    ending with the month of ``when`` (town time)."""
    months = _months_back(timezone.localdate(when), MONTHLY_MONTHS)
    taken = SamplingEvent.objects.filter(
        establishment_id=est_id,
        sampler=Sampler.CONTROL_AUTHORITY,
        collected_at__gte=moment(months[-1]),
        collected_at__lt=moment(_next_month(months[0])),
    ).values_list("collected_at", flat=True)
    sampled = {_month_start(timezone.localdate(t)) for t in taken}
    return all(m in sampled for m in months)


def town_sampled_between(est_id: int, after: datetime, aware: date) -> bool:
    """Whether the Town sampled the facility after ``after`` and by the end of ``aware``."""
    return SamplingEvent.objects.filter(
        establishment_id=est_id,
        sampler=Sampler.CONTROL_AUTHORITY,
        collected_at__gt=after,
        collected_at__lt=moment(aware + timedelta(days=1)),
    ).exists()


def repeated(est_id: int, parameter: str, after: datetime, by: date) -> bool:
    """Whether a sample the user took after ``after`` has a result of ``parameter`` that
    reached the Town by the end of ``by`` (a later correction of it does not undo that)."""
    cutoff = moment(by + timedelta(days=1))
    return (
        LabResult.objects.filter(
            establishment_id=est_id,
            parameter=parameter,
            event__sampler=Sampler.INDUSTRIAL_USER,
            sampled_at__gt=after,
        )
        .filter(
            Q(lab_import__imported_at__lt=cutoff)
            | Q(lab_import__isnull=True, created_at__lt=cutoff)
        )
        .exists()
    )


def received_on(result: LabResult) -> date:
    """The day ``result`` reached the Town: the day of the import that stored it."""
    imported = result.lab_import
    return timezone.localdate(imported.imported_at if imported is not None else result.created_at)


def _due(params: ParameterSet, aware: date) -> tuple[date, int]:
    days = int(params.value(REPEAT_DAYS, aware))
    return aware + timedelta(days=days), days


def _excused(est_id: int, sampled: datetime, aware: date) -> bool:
    return town_sampled_monthly(est_id, sampled) or town_sampled_between(est_id, sampled, aware)


def _record(
    source: LabResult | Finding,
    establishment: Establishment,
    *,
    analyte: str,
    due: date,
    message: str,
    params: ParameterSet,
) -> int:
    """Record the finding on ``source`` unless one is recorded already; 1 if recorded."""
    with transaction.atomic():
        locked = type(source).objects.select_for_update().get(pk=source.pk)
        if findings_of(locked).filter(kind=FindingKind.NO_REPEAT_SAMPLE).exists():
            return 0
        used = params.get(REPEAT_DAYS, due)
        record_finding(
            source=locked,
            establishment=establishment,
            kind=FindingKind.NO_REPEAT_SAMPLE,
            status=Status.REVIEW,
            citation=REPEAT_CITATION,
            message=message,
            observed_at=moment(due + timedelta(days=1)),
            parameter=REPEAT_DAYS,
            effective=used.effective,
            parameters_version=params.version,
            analyte=analyte,
        )
    return 1


def _flagged(model: type[LabResult] | type[Finding]) -> set[str]:
    return set(
        Finding.objects.filter(
            kind=FindingKind.NO_REPEAT_SAMPLE, source_type=ContentType.objects.get_for_model(model)
        ).values_list("source_id", flat=True)
    )


def _results_without_repeat(today: date, params: ParameterSet) -> int:
    done = _flagged(LabResult)
    seen: set[int] = set()
    count = 0
    candidates = (
        Finding.objects.filter(
            kind=FindingKind.LAB_RESULT,
            current=True,
            status__in=VIOLATION_STATUSES,
            result__event__sampler=Sampler.INDUSTRIAL_USER,
        )
        .select_related("result__event", "result__lab_import", "result__establishment")
        .order_by("observed_at", "id")
    )
    for f in candidates:
        result = f.result
        if result is None or result.pk in seen or str(result.pk) in done:
            continue
        if finding_refusal(f) is not None:
            continue
        seen.add(result.pk)
        aware = received_on(result)
        due, days = _due(params, aware)
        if today <= due or repeated(
            result.establishment_id, result.parameter, result.sampled_at, due
        ):
            continue
        if _excused(result.establishment_id, result.sampled_at, aware):
            continue
        taken = timezone.localtime(result.sampled_at)
        message = (
            f"Sample {result.event.sample_id} taken by {result.establishment.name} itself on "
            f"{taken:%Y-%m-%d %H:%M}: {result.parameter} {result.value_text} {result.unit} was a "
            f"violation ({f.citation}); its result reached the Town on {aware:%Y-%m-%d}. No "
            f"repeat sample of {result.parameter} taken by the user reached the Town by "
            f"{due:%Y-%m-%d} ({days} days, {REPEAT_CITATION}), and the Town neither sampled the "
            "facility in between nor at least once a month."
        )
        count += _record(
            result,
            result.establishment,
            analyte=result.parameter,
            due=due,
            message=message,
            params=params,
        )
    return count


def _month_key(f: Finding) -> tuple[int | None, str, date | None]:
    return (f.establishment_id, f.analyte, f.month)


def _averages_without_repeat(today: date, params: ParameterSet) -> int:
    flagged_ids = _flagged(Finding)
    # a month's average judged again is a new finding: the month is flagged once, whatever
    # finding of it was flagged
    done = {_month_key(f) for f in Finding.objects.filter(pk__in=[int(i) for i in flagged_ids])}
    count = 0
    candidates = (
        Finding.objects.filter(
            kind=FindingKind.MONTHLY_AVERAGE, current=True, status__in=VIOLATION_STATUSES
        )
        .select_related("establishment")
        .order_by("month", "id")
    )
    for f in candidates:
        est = f.establishment
        if f.month is None or est is None or _month_key(f) in done:
            continue
        if finding_refusal(f) is not None:
            continue
        first = (
            LabResult.objects.filter(
                establishment_id=est.pk,
                parameter=f.analyte,
                event__sampler=Sampler.INDUSTRIAL_USER,
                sampled_at__gte=moment(f.month),
                sampled_at__lt=moment(_next_month(f.month)),
            )
            .exclude(state="superseded")
            .order_by("sampled_at")
            .values_list("sampled_at", flat=True)
            .first()
        )
        if first is None:  # the month's results are all the Town's (or of no known sampler)
            continue
        done.add(_month_key(f))
        aware = timezone.localdate(f.created_at)
        due, days = _due(params, aware)
        month_end = moment(_next_month(f.month)) - timedelta(microseconds=1)
        if today <= due or repeated(est.pk, f.analyte, month_end, due):
            continue
        if _excused(est.pk, first, aware):
            continue
        message = (
            f"The average of {f.analyte} in {f.month:%B %Y} at {est.name}, from "
            f"samples the user took itself, was a violation ({f.citation}), found on "
            f"{aware:%Y-%m-%d}. No repeat sample of {f.analyte} taken by the user after that "
            f"month reached the Town by {due:%Y-%m-%d} ({days} days, {REPEAT_CITATION}), and "
            "the Town neither sampled the facility in between nor at least once a month."
        )
        count += _record(f, est, analyte=f.analyte, due=due, message=message, params=params)
    return count


def flag_missing_repeat_samples(today: date | None = None) -> int:
    """Record NO_REPEAT_SAMPLE for each violation shown by a user's own sampling whose repeat
    did not reach the Town within the repeat period, unless excused; each once. Returns how
    many were recorded."""
    today = today or timezone.localdate()
    # 40 CFR 403.12(g)(2) in the plant's program, for every member town's users (a town of
    # another law too): the program's values are the installation's, the primary town's
    params = params_in_force(primary())
    return _results_without_repeat(today, params) + _averages_without_repeat(today, params)
