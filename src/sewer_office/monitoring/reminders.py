"""The monitoring's reminders (registered from ``apps.py``; see
:mod:`sewer_office.registry.reminders`): a sampling programme's next sampling."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, timedelta

from django.db.models import Max
from django.utils import timezone

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due
from sewer_office.registry.reminders import Source, facility_persons, stage

from .models import SamplingPoint

#: Days before the next sampling of a programme its reminder starts.
SAMPLING_LEAD = 7


def sampling_due(on: date) -> Iterator[Due]:
    """A sampling programme's next sampling (§ 196-19 D(7)): from 7 days before."""
    points = (
        SamplingPoint.objects.filter(active=True, sampling_interval_days__isnull=False)
        .select_related("establishment__building__property")
        .annotate(last_sampled=Max("events__collected_at"))
    )
    for sp in points:
        if sp.last_sampled is None:
            continue  # a programme not yet begun: the office schedules the first sampling
        due = timezone.localtime(sp.last_sampled).date() + timedelta(
            days=sp.sampling_interval_days or 0
        )
        if stage(due, on, (SAMPLING_LEAD,)) is None:
            continue
        est = sp.establishment
        yield Due(
            Topic.SAMPLING_DUE,
            f"sampling_due:{sp.pk}:{due.isoformat()}",
            sp,
            facility_persons(est),
            f"Sampling due by {due:%Y-%m-%d} at {est.name} ({sp.code})",
            f"The sampling programme of {est.name}, sampling point {sp.code}, calls for a "
            f"sample every {sp.sampling_interval_days} days; the last was taken on "
            f"{timezone.localtime(sp.last_sampled):%Y-%m-%d}, so the next is due by "
            f"{due:%Y-%m-%d} (§ 196-19 D(7)).",
        )


SOURCES: Mapping[str, Source] = {Topic.SAMPLING_DUE: sampling_due}
