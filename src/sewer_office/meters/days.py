"""Daily volumes: each meter's readings of each town day, counted and summed exactly.

Billing a quarter (§ 196-19 E(1)(d), J) needs, per facility, the count and the exact sum of
its flow readings in the period; the pretreatment flow (40 CFR 403.3(v)) needs the same over a
year. Read from the minute readings, that is 130,000 rows per meter and quarter — for 2,000
facilities 259 million rows. The upload therefore keeps, in the same transaction as the
readings, one :class:`~sewer_office.meters.models.MeterDay` per meter and town day
(:func:`record_upload`), and the periods are read from those (:func:`period_totals`): a day is
the town's calendar day, 23 or 25 hours long on the days the clocks change.

Sums are exact: values keep every digit they were written with (up to 400 before and after
the point), and sums are computed without rounding (:mod:`sewer_engines.monitoring.daily`).
The days are derived data: :func:`check` compares them with the readings and :func:`rebuild`
recomputes them from the readings, audited (``sewer-use manage meter_days --check|--rebuild``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction

from sewer_engines.monitoring.daily import DayTotal, exact_sum, merge, summarize
from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_rules.monitoring.instants import to_us

from .models import Meter, MeterDay, Reading

#: Readings read at once by :func:`check` (one meter's series at a time, in chunks).
CHUNK = 50_000


def record_upload(meter: Meter, times_us: Sequence[int], values: Sequence[str], tz: str) -> int:
    """Add an upload's readings to the meter's days (call inside the upload's transaction).

    Uploads are appended after the last stored reading, so only the first day of an upload
    can already be stored (a day continued by the next file): it is added to, under a lock.
    Returns the number of days written."""
    summary = summarize(times_us, values, tz)
    stored = {
        d.day: d
        for d in MeterDay.objects.select_for_update().filter(meter=meter, day__in=list(summary))
    }
    new = []
    for day, total in summary.items():
        row = stored.get(day)
        if row is None:
            new.append(MeterDay(meter=meter, day=day, count=total.count, total=str(total.total)))
            continue
        merged = DayTotal(row.count, Decimal(row.total)).plus(total)
        row.count, row.total = merged.count, str(merged.total)
        row.save(update_fields=["count", "total"])
    MeterDay.objects.bulk_create(new, batch_size=1000)
    return len(summary)


def period_totals(meter_ids: Iterable[int], first: date, last: date) -> dict[int, DayTotal]:
    """Per meter, the count and exact sum of its readings of the town days ``first``..``last``
    (inclusive), read from the stored days. A meter without readings there is absent."""
    sums: dict[int, list[Any]] = {}
    rows = MeterDay.objects.filter(
        meter_id__in=list(meter_ids), day__gte=first, day__lte=last
    ).values_list("meter_id", "count", "total")
    for meter_id, count, text in rows.iterator(chunk_size=10_000):
        acc = sums.setdefault(meter_id, [0, []])
        acc[0] += count
        acc[1].append(text)
    return {m: DayTotal(n, exact_sum(texts)) for m, (n, texts) in sums.items()}


def day_bounds(first: date, last: date, tz: str) -> tuple[datetime, datetime]:
    """The instants the town days ``first``..``last`` begin and end (local midnights)."""
    zone = ZoneInfo(tz)
    return (
        datetime.combine(first, time.min, tzinfo=zone),
        datetime.combine(last + timedelta(days=1), time.min, tzinfo=zone),
    )


def readings_totals(
    meter_ids: Iterable[int], first: date, last: date, tz: str
) -> dict[int, DayTotal]:
    """The same as :func:`period_totals`, read from every stored reading (the reference the
    days are checked against; slow on a long period)."""
    lo, hi = day_bounds(first, last, tz)
    sums: dict[int, list[Any]] = {}
    rows = Reading.objects.filter(meter_id__in=list(meter_ids), at__gte=lo, at__lt=hi)
    for meter_id, text in rows.values_list("meter_id", "value").iterator(chunk_size=CHUNK):
        acc = sums.setdefault(meter_id, [0, []])
        acc[0] += 1
        acc[1].append(text)
    return {m: DayTotal(n, exact_sum(texts)) for m, (n, texts) in sums.items()}


def days_from_readings(meter: Meter, tz: str) -> dict[date, DayTotal]:
    """The meter's days computed again from all its stored readings."""
    out: dict[date, DayTotal] = {}
    times: list[int] = []
    values: list[str] = []

    def flush() -> None:
        merge(out, summarize(times, values, tz))
        times.clear()
        values.clear()

    rows = Reading.objects.filter(meter=meter).order_by("at").values_list("at", "value")
    for at, value in rows.iterator(chunk_size=CHUNK):
        times.append(to_us(at))
        values.append(value)
        if len(times) >= CHUNK:
            flush()
    flush()
    return out


@dataclass(frozen=True)
class Difference:
    """A stored day that does not match the readings (``stored`` or ``actual`` None: missing)."""

    meter: str
    day: date
    stored: DayTotal | None
    actual: DayTotal | None

    def __str__(self) -> str:
        def show(t: DayTotal | None) -> str:
            return "none" if t is None else f"{t.count} reading(s), sum {t.total}"

        return (
            f"meter {self.meter}, {self.day}: stored {show(self.stored)}; "
            f"the readings give {show(self.actual)}"
        )


def _stored_days(meter: Meter) -> dict[date, DayTotal]:
    return {
        d: DayTotal(n, Decimal(t))
        for d, n, t in MeterDay.objects.filter(meter=meter).values_list("day", "count", "total")
    }


def _differences(meter: Meter, tz: str) -> list[Difference]:
    stored, actual = _stored_days(meter), days_from_readings(meter, tz)
    return [
        Difference(meter.ident, day, stored.get(day), actual.get(day))
        for day in sorted(set(stored) | set(actual))
        if stored.get(day) != actual.get(day)
    ]


def check(tz: str, meters: Iterable[Meter] | None = None) -> list[Difference]:
    """Every stored day that differs from the readings, for the meters given (None: all)."""
    chosen = Meter.objects.order_by("ident") if meters is None else meters
    return [diff for meter in chosen for diff in _differences(meter, tz)]


def rebuild(
    actor: Actor | None, tz: str, meters: Iterable[Meter] | None = None
) -> list[Difference]:
    """Recompute the days of the meters given (None: all) from their readings, in one
    transaction, one audit event per meter whose days changed. Returns what was mended."""
    mended: list[Difference] = []
    with transaction.atomic():
        chosen = Meter.objects.order_by("ident") if meters is None else meters
        for meter in chosen:
            Meter.objects.select_for_update().filter(pk=meter.pk).first()
            diffs = _differences(meter, tz)
            if not diffs:
                continue
            actual = days_from_readings(meter, tz)
            MeterDay.objects.filter(meter=meter).delete()
            MeterDay.objects.bulk_create(
                [
                    MeterDay(meter=meter, day=d, count=t.count, total=str(t.total))
                    for d, t in sorted(actual.items())
                ],
                batch_size=1000,
            )
            audit.record(
                actor=actor,
                action="rebuild_meter_days",
                obj=meter,
                before={"days_differing": len(diffs), "first": diffs[0].day.isoformat()},
                after={"days": len(actual), "mended": [str(d) for d in diffs[:20]]},
                reason="daily volumes recomputed from the stored readings",
            )
            mended.extend(diffs)
    return mended
