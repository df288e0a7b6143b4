"""Superseding stored slugs: a slug record is never edited or deleted.

A stored slug is replaced when the readings are judged again and no longer give it *as
recorded* (same start, end, readings, peak, baseline and threshold): by a re-evaluation under
a new reading of the law or a newly recorded baseline (:mod:`.reevaluation`), and by an upload
whose readings continue a discharge the previous upload ended with (the run now lasts longer:
:func:`.services.upload_readings`). Either way a :class:`~.models.SlugReevaluation` says why;
the old record points to it (``superseded_by``), its findings are no longer current, and each
supersession is an audit event with that reason. Shared by both paths so that they supersede
alike.
"""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.findings.models import Finding
from sewer_rules.monitoring.instants import instant, show
from sewer_rules.monitoring.slugs import Slug

from .models import SlugEvent, SlugReevaluation

SLUG_CITATION = "§ 196-15 SLUG"


def slug_key(s: Slug) -> tuple[object, ...]:
    """What a slug found by the engine is recorded as (compared with :func:`stored_key`)."""
    return (
        instant(s.start),
        instant(s.end),
        s.readings,
        show(s.peak),
        show(s.baseline),
        show(s.threshold),
    )


def stored_key(e: SlugEvent) -> tuple[object, ...]:
    return (e.start, e.end, e.readings, e.peak, e.baseline, e.threshold)


def supersede(events: list[SlugEvent], record: SlugReevaluation, actor: Actor | None) -> list[int]:
    """Mark ``events`` superseded by ``record`` and their findings no longer current, with an
    audit event each giving ``record``'s reason (inside the caller's transaction); their ids."""
    ids = [e.pk for e in events]
    SlugEvent.objects.filter(pk__in=ids, superseded_by__isnull=True).update(superseded_by=record)
    Finding.objects.filter(
        source_type=ContentType.objects.get_for_model(SlugEvent),
        source_id__in=[str(i) for i in ids],
    ).update(current=False)
    for e in events:
        audit.record(
            actor=actor,
            action="supersede_slug",
            obj=e,
            before=audit.snapshot(e),
            after={"superseded_by": record.pk},
            reason=record.reason,
            citation=SLUG_CITATION,
        )
    return ids
