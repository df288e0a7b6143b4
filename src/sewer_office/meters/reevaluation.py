"""Re-judging a meter's stored readings under the reading of the law now in force.

When the reading of § 196-15 SLUG changes (the office adopted "during normal operation": a
reading above five times its own baseline enters no later baseline; then the baseline carried
past a day with no normal-operation reading, and the maximum gap by the meter's logging), or a
fixed baseline is recorded for a meter, the slugs already stored were found under the old
reading. They are records of
legal weight: never edited, never deleted. :func:`reevaluate_slugs` judges the meter's whole
stored series again with the engine (:func:`sewer_engines.monitoring.analysis.analyse_series`,
the same call an upload makes) and, in one transaction:

- records a :class:`~sewer_office.meters.models.SlugReevaluation` with its reason, the
  jurisdiction and parameters version, and who ran it;
- marks every stored slug the new judgement does not find *as recorded* (same start, end,
  readings, peak, baseline and threshold) ``superseded_by`` that record, and its findings no
  longer current (as a corrected laboratory result's findings are; :mod:`.superseding`);
- stores every slug found anew, with its finding, naming the re-evaluation (``found_by``);
- writes the audit events: one for the re-evaluation, one for each superseded slug.

A slug found again exactly as recorded is kept untouched. A user's report of a superseded
slug still counts for the new slug of the same discharge (overlapping in time), see
:meth:`~sewer_office.meters.models.SlugEvent.all_reports`. ``dry_run`` says what would
change and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from sewer_engines.monitoring.analysis import SeriesReport, analyse_series
from sewer_engines.monitoring.series import Series
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import has_role
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.town_law import require_article_for
from sewer_rules.monitoring.instants import instant
from sewer_rules.monitoring.slugs import Slug
from sewer_rules.parameters import ParameterSet

from . import judging, services
from .models import Meter, ReadingUpload, SlugEvent, SlugReevaluation
from .superseding import SLUG_CITATION, slug_key, stored_key, supersede

#: The reason recorded when none is given: the reading of the law now in force.
DEFAULT_REASON = (
    "§ 196-15 SLUG as now read: the baseline is the mean of the readings taken during normal "
    "operation (a reading above five times its own baseline enters no later baseline); where "
    "the 24 hours before a reading hold none, the mean of the 24 hours ending with the last "
    "normal-operation reading is carried (a discharge longer than a day stays one slug); a "
    "fixed baseline recorded for the meter judges its readings from its date; a run ends at a "
    "gap longer than three of the meter's usual intervals (never less than 5 minutes)"
)


@dataclass
class Reevaluated:
    """What a re-evaluation of one meter found: slugs kept, superseded and new."""

    meter: Meter
    readings: int
    kept: list[SlugEvent] = field(default_factory=list)
    superseded: list[SlugEvent] = field(default_factory=list)
    new: list[Slug] = field(default_factory=list)
    record: SlugReevaluation | None = None

    @property
    def changed(self) -> bool:
        return bool(self.superseded or self.new)


def _judge(meter: Meter, p: ParameterSet) -> tuple[int, SeriesReport | None]:
    """The engine's judgement of every stored reading of ``meter`` (as an upload's), under
    ``p``, its town's values."""
    times, values = judging.history(meter)
    if not times:
        return 0, None
    series = Series.from_decimals(meter.ident, meter.parameter, meter.unit, times, values)
    return len(times), analyse_series(series, p, services.meter_options(meter, p))


def _upload_of(meter: Meter, start: Any) -> ReadingUpload:
    """The upload that holds a slug's first reading (a stored reading: there is one)."""
    reading = meter.readings.filter(at=start).select_related("upload").get()
    return reading.upload


def reevaluate_slugs(
    meter: Meter, actor: Actor | None, *, reason: str = DEFAULT_REASON, dry_run: bool = False
) -> Reevaluated:
    """Judge ``meter``'s stored readings again and supersede the slugs no longer found as
    recorded (module docstring), under the values of the meter's town. Superintendent or
    engineer; None is the system (CLI). Refused for a meter of a town whose law is its own."""
    if actor is not None and not has_role(actor, *services.METER_ROLES):
        raise Forbidden("Slugs are re-evaluated by the Superintendent or the engineer.")
    town = require_article_for(meter, services.SLUGS)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the slugs are judged again."]})
    p = services.params(town)
    count, report = _judge(meter, p)
    found = report.slugs if report is not None else []
    stored = list(judging.current_slugs(meter).order_by("start"))
    by_key = {stored_key(e): e for e in stored}
    wanted = {slug_key(s): s for s in found}
    result = Reevaluated(meter, count)
    result.kept = [e for k, e in by_key.items() if k in wanted]
    result.superseded = [e for k, e in by_key.items() if k not in wanted]
    result.new = [s for k, s in wanted.items() if k not in by_key]
    if dry_run or not result.changed:
        return result
    with transaction.atomic():
        locked = Meter.objects.select_for_update().get(pk=meter.pk)
        record = SlugReevaluation.objects.create(
            meter=locked,
            actor=person_or_none(actor),
            reason=reason.strip(),
            jurisdiction=p.jurisdiction,
            parameters_version=p.version,
            readings=count,
            kept=len(result.kept),
        )
        old_ids = supersede(result.superseded, record, actor)
        used = next((u for u in report.used if u.name == "slug.multiple"), None) if report else None
        created = [
            judging.record_slug(locked, _upload_of(locked, instant(s.start)), s, p, used, record)
            for s in result.new
        ]
        audit.record(
            actor=actor,
            action="reevaluate_slugs",
            obj=record,
            after={
                "meter": locked.ident,
                "readings": count,
                "kept": [e.pk for e in result.kept],
                "superseded": old_ids,
                "new": [e.pk for e in created],
                "parameters_version": p.version,
            },
            reason=record.reason,
            citation=SLUG_CITATION,
        )
    result.record = record
    services.flag_unreported_slugs()
    return result
