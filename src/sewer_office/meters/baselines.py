"""A meter's fixed baselines, and the options its readings are judged with.

§ 196-15 SLUG measures a slug against "the average twenty-four-hour concentration of flows
during normal operation". The engine takes the trailing mean of the normal-operation readings
(carried past a day that holds none), which cannot judge a meter's first 24 hours and keeps a
lasting jump a slug. Where normal operation is better known — a baseline recorded in the
approval, or the Town's record of a new normal operation after a lasting change — it is
recorded here, for a meter, from an instant on (:class:`~.models.MeterBaseline`), and from
then every reading is judged against five times it. :func:`meter_options` is the one place
the office's paths (an upload, a re-evaluation, the chart) take their options from, so they
judge alike, and as ``sewer-use slugs`` judges the same readings.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from sewer_engines.monitoring.analysis import Options
from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.town_law import require_acting_for
from sewer_rules.monitoring.instants import US_PER_SECOND, to_us
from sewer_rules.parameters import ParameterSet

from .models import Meter, MeterBaseline
from .superseding import SLUG_CITATION

#: Who records a meter's fixed baseline (the approval's figure, or a new normal operation).
BASELINE_ROLES = (SUPERINTENDENT, ENGINEER)
#: A baseline as written: digits, at most one decimal point (at most 30 digits each side).
PLAIN = re.compile(r"\d{1,30}(\.\d{1,30})?")


def meter_options(meter: Meter, p: ParameterSet, **more: Any) -> Options:
    """How the engine judges ``meter``'s readings — for an upload, a re-evaluation and the
    chart alike, and as ``sewer-use slugs`` judges the same readings with ``--max-gap`` the
    meter's shortest maximum gap (none: ``slug.max_gap_minimum``) and ``--baseline VALUE
    --baseline-from TIME`` its recorded fixed baseline (:class:`MeterBaseline`)."""
    floor = meter.max_gap_seconds
    dated = tuple(
        (to_us(at), Decimal(value))
        for at, value in meter.baselines.order_by("effective_from").values_list(
            "effective_from", "value"
        )
    )
    return Options(
        jurisdiction=p.jurisdiction,
        max_gap_us=floor * US_PER_SECOND if floor is not None else None,
        dated_baselines=dated,
        **more,
    )


def record_meter_baseline(
    meter: Meter, actor: Actor | None, *, value: str, effective_from: datetime, authority: str
) -> MeterBaseline:
    """Record a fixed baseline of ``meter`` from ``effective_from`` (Superintendent or
    engineer), audited: from then on its readings are judged against five times it
    (§ 196-15 SLUG, the approval's or the Town's record of normal operation). Readings
    already judged are judged again only by a re-evaluation (``sewer-use reevaluate-slugs``)."""
    if actor is not None and not has_role(actor, *BASELINE_ROLES):
        raise Forbidden("A meter's baseline is recorded by the Superintendent or the engineer.")
    require_acting_for(actor, meter.sampling_point.establishment, "Recording a meter's baseline")
    errors: dict[str, list[str]] = {}
    text = value.strip()
    # a plain decimal as a meter writes it (no exponent): exactly the value recorded
    number = Decimal(text) if PLAIN.fullmatch(text) else None
    if number is None or number <= 0:
        errors["value"] = [f"'{value}' is not a positive decimal number in {meter.unit}"]
    if not authority.strip():
        errors["authority"] = ["Name where it is recorded (the approval and its condition)."]
    if timezone.is_naive(effective_from):
        errors["effective_from"] = ["Give the time with its offset."]
    elif meter.baselines.filter(effective_from=effective_from).exists():
        errors["effective_from"] = ["A baseline from this instant is already recorded."]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        MeterBaseline,
        {
            "meter": meter,
            "value": text,
            "effective_from": effective_from,
            "authority": authority.strip(),
            "recorded_by": person_or_none(actor),
        },
        actor=actor,
        action="record_meter_baseline",
        citation=SLUG_CITATION,
    )
