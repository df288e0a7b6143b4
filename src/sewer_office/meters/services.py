"""Meters' services: registering a meter, storing an upload of readings and judging it,
recording a user's report of a slug, and flagging slugs nobody reported.

Every service writes its audit event in the transaction that makes the change. An upload is
accepted or refused here; what an accepted one stores — the readings and the engine's
judgement of them, as findings — is :mod:`.judging`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from sewer_engines.monitoring.readings import canonical_parameter
from sewer_engines.monitoring.source import RowError
from sewer_office.accounts.access import can_see
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role, is_staff_member
from sewer_office.accounts.towns import keeps_article, values_of
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput, shorten
from sewer_office.core.town_law import require_acting_for, require_article_for, town_of
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import record_finding
from sewer_office.monitoring.models import SamplingPoint
from sewer_rules.analytes import BY_NAME
from sewer_rules.monitoring.instants import (
    iso,
    to_us,
)
from sewer_rules.parameters import ParameterSet
from sewer_rules.units import ALIASES, UNITS

from .baselines import meter_options
from .choices import ReportChannel
from .files import UploadUnusable, read_for_meter
from .judging import REPORT_CITATION, UploadRefused, UploadResult, sha256_of, store_upload
from .models import (
    Meter,
    SlugEvent,
    SlugReport,
)

#: Who registers meters and uploads any facility's readings; staff who receive reports.
METER_ROLES = (SUPERINTENDENT, ENGINEER)


#: The determination a meter's readings are judged for, as a refusal for another law names it.
SLUGS = "Judging a meter's readings for slugs and excursions (§ 196-15 SLUG, § 196-19 D(9))"


def params(town: str) -> ParameterSet:
    """The dated values of ``town``, the town of the meter at hand: its slug multiple, baseline
    window and time zone (a meter's days are its town's days)."""
    return values_of(town)


def timezone_of(meter: Meter) -> str:
    """The time zone of ``meter``'s town: its readings' days are counted in it."""
    return params(town_of(meter)).timezone


def report_window() -> timedelta:
    """How soon after a slug begins its report must be recorded.

    § 196-19 D(9)(d) says "immediately" and gives no number. The office reads it as
    ``SEWER_USE_SLUG_REPORT_HOURS`` (default 24 hours): a local policy setting of this
    office, not a number of the law.
    """
    return timedelta(hours=float(getattr(settings, "SEWER_USE_SLUG_REPORT_HOURS", 24)))


# --- meters ------------------------------------------------------------------------------------


def register_meter(
    actor: Actor | None,
    *,
    sampling_point: SamplingPoint,
    ident: str,
    parameter: str,
    unit: str = "",
    description: str = "",
    max_gap_seconds: int | None = None,
) -> Meter:
    """Register a meter (Superintendent or engineer); the parameter and unit are checked
    against the engine's names so that its readings can be judged."""
    if actor is not None and not has_role(actor, *METER_ROLES):
        raise Forbidden("Meters are registered by the Superintendent or the engineer.")
    require_acting_for(actor, sampling_point.establishment, "Registering a meter")
    errors: dict[str, list[str]] = {}
    ident = ident.strip()
    if not ident:
        errors["ident"] = ["Give the meter's id."]
    elif Meter.objects.filter(ident=ident).exists():
        errors["ident"] = [f"A meter {ident} is already registered."]
    try:
        name = canonical_parameter(parameter)
    except KeyError:
        errors["parameter"] = [f"unknown parameter '{parameter}'"]
        name = ""
    symbol = ""
    if name:
        analyte = BY_NAME[name]
        alias = ALIASES.get(" ".join(unit.lower().split())) if unit.strip() else None
        symbol = alias or (analyte.canonical_unit if not unit.strip() else "")
        if not symbol:
            errors["unit"] = [f"unknown unit '{unit}'"]
        elif UNITS[symbol].dimension != analyte.dimension:
            errors["unit"] = [f"unit '{unit}' does not measure {name}"]
    if max_gap_seconds is not None and max_gap_seconds <= 0:
        errors["max_gap_seconds"] = ["must be positive"]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        Meter,
        {
            "sampling_point": sampling_point,
            "ident": ident,
            "parameter": name,
            "unit": symbol,
            "description": description,
            "max_gap_seconds": max_gap_seconds,
        },
        actor=actor,
        action="register_meter",
    )


def may_upload(actor: Actor | None, meter: Meter) -> bool:
    """Superintendent and engineer for any meter; a facility's representative for its own
    meters (the issue: a facility uploads its own meter data); None is the system (CLI)."""
    if actor is None:
        return True
    if has_role(actor, *METER_ROLES):
        return True
    return not is_staff_member(actor) and can_see(actor, meter)


# --- uploads -----------------------------------------------------------------------------------


def upload_readings(
    meter: Meter, path: str | Path, actor: Actor | None, *, source_name: str = ""
) -> UploadResult:
    """Store a readings file for ``meter`` (appended) and judge it, all or nothing.

    Refused (:class:`UploadRefused`, nothing stored) for any row error, for a file already
    stored for this meter, and for readings not later than the meter's last stored reading.
    :class:`~sewer_office.meters.files.UploadUnusable` for a file that cannot be read.
    """
    if not may_upload(actor, meter):
        raise Forbidden(
            "Readings are uploaded by the Superintendent, the engineer or the facility."
        )
    require_acting_for(actor, meter.sampling_point.establishment, "Uploading readings")
    town = require_article_for(meter, SLUGS)
    path = Path(path)
    name = shorten(source_name or path.name)
    p = params(town)
    digest = sha256_of(path)
    if meter.uploads.filter(sha256=digest).exists():
        raise UploadRefused(
            f"{name}: this file was already stored for meter {meter.ident}",
            [RowError(0, "file", "the same file was already uploaded for this meter")],
        )
    data = read_for_meter(
        path,
        ident=meter.ident,
        parameter=meter.parameter,
        unit=meter.unit,
        timezone=p.timezone,
        name=name,
    )
    if data.errors_total:
        more = data.errors_total - len(data.errors)
        tail = f" (the first {len(data.errors)} listed)" if more else ""
        raise UploadRefused(
            f"{name}: {data.errors_total} row error(s){tail}, nothing stored",
            data.errors,
            data.errors_total,
        )
    if not data.times_us:
        raise UploadRefused(
            f"{name}: no readings", [RowError(0, "value", "the file holds no readings")]
        )
    with transaction.atomic():
        locked = Meter.objects.select_for_update().get(pk=meter.pk)
        last = locked.readings.order_by("-at").values_list("at", flat=True).first()
        first_us = data.times_us[0]
        if last is not None and to_us(last) >= first_us:
            raise UploadRefused(
                f"{name}: readings are appended: this file begins at "
                f"{iso(first_us, p.timezone)}, not after the meter's last stored reading "
                f"({last.astimezone(timezone.get_current_timezone()).isoformat()})",
                [
                    RowError(
                        0,
                        "timestamp",
                        "overlaps the readings already stored; upload only later readings",
                    )
                ],
            )
        result = store_upload(
            locked, data.times_us, data.values, data.missing, digest, name, actor, p
        )
    result.flagged = flag_unreported_slugs()
    return result


# --- the user's report of a slug (§ 196-19 D(9)(d)) ---------------------------------------------


def may_record_report(actor: Actor, slug: SlugEvent) -> bool:
    """Staff who receive reports (Superintendent, engineer), or the facility's own
    representative for its own slugs."""
    if has_role(actor, *METER_ROLES):
        return True
    return not is_staff_member(actor) and can_see(actor, slug.meter)


def record_slug_report(
    slug: SlugEvent,
    actor: Actor,
    *,
    reported_at: datetime,
    channel: str,
    text: str = "",
) -> SlugReport:
    """Record the user's report of ``slug`` with the time it was made, audited."""
    if not may_record_report(actor, slug):
        raise Forbidden(
            "A slug report is recorded by the Superintendent, the engineer or the facility."
        )
    require_acting_for(actor, slug.meter.sampling_point.establishment, "Recording a slug report")
    errors: dict[str, list[str]] = {}
    if channel not in ReportChannel.values:
        errors["channel"] = [f"'{channel}' is not one of {', '.join(ReportChannel.values)}"]
    if timezone.is_naive(reported_at):
        reported_at = timezone.make_aware(reported_at)
    if reported_at > timezone.now() + timedelta(minutes=5):
        errors["reported_at"] = ["A report cannot be recorded in the future."]
    elif reported_at < slug.start:
        errors["reported_at"] = ["A report cannot precede the slug it reports."]
    if errors:
        raise InvalidInput(errors)
    staff, person = is_staff_member(actor), signed_in(actor)
    with transaction.atomic():
        report = SlugReport.objects.create(
            slug=slug,
            reported_at=reported_at,
            channel=channel,
            text=text.strip(),
            received_by=person if staff else None,
            reported_by=None if staff else person,
        )
        audit.record(
            actor=actor,
            action="record_slug_report",
            obj=slug,
            after=audit.snapshot(report),
            citation=REPORT_CITATION,
        )
    return report


def reported_in_time(slug: SlugEvent) -> bool:
    return slug.all_reports().filter(reported_at__lte=slug.start + report_window()).exists()


def flag_unreported_slugs(now: datetime | None = None) -> int:
    """Record a finding (kind UNREPORTED_SLUG, § 196-19 D(9)(d)) for every slug with no report
    made within :func:`report_window` of its start, once per slug; the number flagged.

    A slug is flagged once the window has passed both since it began and since the upload
    that revealed it: readings often arrive days later, and the office must have the window
    to record a report the user did make in time (by telephone, say) before the missing
    report becomes a finding. Whether the report was in time is judged by its own time.
    Meant to run after each upload and from cron (``sewer-use flag-overdue``). A slug of a
    meter of a town whose law is its own is left alone: the article's duty is not its law.
    """
    now = now or timezone.now()
    window = report_window()
    hours = window.total_seconds() / 3600
    flagged = 0
    candidates = SlugEvent.objects.filter(
        flagged_unreported_at__isnull=True,
        superseded_by__isnull=True,
        start__lte=now - window,
        upload__uploaded_at__lte=now - window,
    ).values_list("pk", flat=True)
    for pk in list(candidates):
        with transaction.atomic():
            slug = (
                SlugEvent.objects.select_for_update()
                .select_related("meter__sampling_point__establishment")
                .get(pk=pk)
            )
            town = town_of(slug.meter)
            if not keeps_article(town):
                continue
            if slug.flagged_unreported_at is not None or reported_in_time(slug):
                continue
            slug.flagged_unreported_at = now
            slug.save(update_fields=["flagged_unreported_at"])
            tz = params(town).timezone
            record_finding(
                source=slug,
                establishment=slug.meter.sampling_point.establishment,
                kind=FindingKind.UNREPORTED_SLUG,
                status="review",
                citation=REPORT_CITATION,
                message=(
                    f"Meter {slug.meter.ident}: no report by the user recorded within "
                    f"{hours:g} h (office policy for 'immediately') of the slug from "
                    f"{iso(to_us(slug.start), tz)} to {iso(to_us(slug.end), tz)}; all slug "
                    "discharges must be reported immediately by the user"
                ),
                observed_at=slug.start,
                analyte=slug.meter.parameter,
            )
            audit.record(
                actor=None,
                action="flag_unreported_slug",
                obj=slug,
                citation=REPORT_CITATION,
                reason=f"no report within {hours:g} h",
            )
            flagged += 1
    return flagged


def unreported(qs: Any) -> Any:
    """Current slugs of ``qs`` with no report recorded at all (a report of a superseded slug
    of the same discharge counts, see :meth:`SlugEvent.all_reports`)."""
    mine = Q(slug=OuterRef("pk")) | Q(
        slug__meter=OuterRef("meter"),
        slug__superseded_by__isnull=False,
        slug__start__lt=OuterRef("end"),
        slug__end__gt=OuterRef("start"),
    )
    return (
        qs.filter(superseded_by__isnull=True)
        .annotate(has_report=Exists(SlugReport.objects.filter(mine)))
        .filter(has_report=False)
    )


__all__ = [
    "UploadRefused",
    "UploadUnusable",
    "flag_unreported_slugs",
    "meter_options",
    "record_slug_report",
    "register_meter",
    "upload_readings",
]
