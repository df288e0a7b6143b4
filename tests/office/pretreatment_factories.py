"""Results, limits and report requirements for the pretreatment tests (stored directly, as an
import stores them: one sampling event per sample, its results)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any

from django.utils import timezone

from sewer_office.monitoring.models import DischargeLimit, LabResult, SamplingEvent
from sewer_office.registry.models import Establishment

from .factories import Town
from .monitoring_factories import Facilities, facilities


def at(day: str | date, hour: int = 10) -> datetime:
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return timezone.make_aware(datetime.combine(d, time(hour)))


def limit(est: Establishment, parameter: str, value: str, kind: str = "daily_maximum",
          unit: str = "mg/l", start: str = "2020-01-01") -> DischargeLimit:  # fmt: skip
    return DischargeLimit.objects.create(
        establishment=est,
        parameter=parameter,
        limit_type=kind,
        value=value,
        unit=unit,
        effective_from=date.fromisoformat(start),
    )


def results(
    est: Establishment, parameter: str, values: Sequence[tuple[str, str]], unit: str = "mg/l"
) -> list[LabResult]:
    """One grab sample per (day, value), its result stored."""
    point = est.sampling_points.first()
    out = []
    for i, (day, value) in enumerate(values):
        when = at(day, 9)
        ev, _ = SamplingEvent.objects.get_or_create(
            establishment=est,
            sample_id=f"{est.code}-{day}-{i}",
            defaults={"sampling_point": point, "sample_type": "grab", "collected_at": when},
        )
        out.append(
            LabResult.objects.create(
                event=ev,
                establishment=est,
                sampled_at=when,
                parameter=parameter,
                value_text=value,
                unit=unit,
                status="",
            )
        )
    return out


def designate_sius(town: Town, *ests: Establishment, on: str = "2025-12-01") -> None:
    """Designate each a significant industrial user by the Control Authority on ``on``: (A),
    (B), (E), (F), (G) apply to SIUs only (40 CFR 403.8(f)(2)(viii))."""
    from sewer_office.pretreatment import services

    for est in ests:
        services.designate(
            sup(town), est, basis="designated", reason="plating line", on=date.fromisoformat(on),
            at=at(on),
        )  # fmt: skip


def chronic_copper(town: Town, *, sius: bool = False) -> Facilities:
    """The other's plant: copper limit 1.0, 4 of 6 January–June results over it (chronic, A);
    the owner's cafe: copper within its limit. With ``sius``, both designated SIUs before."""
    f = facilities(town)
    if sius:
        designate_sius(town, f.theirs, f.mine)
    limit(f.theirs, "copper", "1.0")
    limit(f.mine, "copper", "1.0")
    days = ["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10", "2026-05-10", "2026-06-10"]
    results(
        f.theirs,
        "copper",
        list(zip(days, ["1.1", "0.9", "1.05", "1.3", "1.01", "0.8"], strict=True)),
    )
    results(
        f.mine, "copper", list(zip(days, ["0.5", "0.6", "0.4", "0.5", "0.3", "0.2"], strict=True))
    )
    return f


def sup(town: Town) -> Any:
    return town.u("superintendent")
