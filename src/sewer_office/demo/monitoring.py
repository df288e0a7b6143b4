"""The demo town's sampling: facility codes, sampling points, Acme's discharge limits, and four
months of laboratory history imported through the same service as a laboratory file.

Industrial users and food processors get a facility code (Acme Plating Corporation is
``ACME-PLATING``) and a sampling point ``CM-1`` at the manhole the network gives them (§ 196-19 I;
Acme's is its control manhole, § 196-19 H). Weekly grabs and composites are generated
deterministically from the town's seed, with a few values beyond the ordinance's limits and
Acme's permit limits, so the facility pages, findings and dashboard have something to show.
The history's samples are the Town's own (collected by its Building Inspector): its yearly
sampling of each significant industrial user (40 CFR 403.8(f)(2)(v)).

One self-monitoring report of a food processor, older than the history, shows a pH below the
article's minimum in a sample the user took itself; no repeat sample followed and the Town did
not sample the facility then, so ``sewer-use flag-overdue`` records that the repeat is missing
(40 CFR 403.12(g)(2)).
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from typing import Any

from sewer_io import lab_mapping as layouts
from sewer_office.monitoring.choices import SamplingBasis
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit, LabResult, SamplingPoint
from sewer_office.monitoring.services import approve_results, save_lab_mapping
from sewer_office.network.services import property_sampling_points
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.choices import EstablishmentKind

from .town import Town

HISTORY_DAYS = 120
#: The food processor's own sample with a low pH (days before the anchor), and the day its
#: report reached the Town: before the history, so the Town sampled neither in between nor
#: monthly (40 CFR 403.12(g)(2) excuses the repeat then).
SELF_SAMPLE_DAYS, SELF_REPORT_DAYS = 160, 155
ACME = "Acme Plating Corporation"

#: Acme's permit limits (the numeric conditions of its approval, § 196-16 E).
ACME_LIMITS = (
    ("copper", "daily_maximum", "1.0", "mg/l"),
    ("copper", "monthly_average", "0.6", "mg/l"),
    ("zinc", "daily_maximum", "2.0", "mg/l"),
    ("chromium", "monthly_average", "0.25", "mg/l"),
    ("ph", "instantaneous_minimum", "6.0", "SU"),
)


def facility_code(name: str, taken: set[str]) -> str:
    """``Acme Plating Corporation`` → ``ACME-PLATING`` (two words, unique)."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name.upper()) if w]
    code = "-".join(words[:2]) or "FACILITY"
    n, candidate = 2, code
    while candidate in taken:
        candidate, n = f"{code}-{n}", n + 1
    taken.add(candidate)
    return candidate


def load_demo_laboratory_mapping(town: Town) -> None:
    """The county laboratory that sends its own layout (the flat EDD, US dates, CAS numbers):
    its mapping kept by the office, as the clerk makes one from a sample file."""
    edd = layouts.preset("generic-edd").to_dict()
    save_lab_mapping(
        town.users["clerk"],
        layouts.LabMapping.from_dict(
            {**edd, "name": "hudson-valley-labs", "laboratory": "Hudson Valley Labs"}
        ),
    )


def load_demo_monitoring(town: Town) -> None:
    sup = town.users["superintendent"]
    load_demo_laboratory_mapping(town)
    sampled = [
        *town.establishments.get(EstablishmentKind.INDUSTRIAL, []),
        *town.establishments.get(EstablishmentKind.FOOD_PROCESSING, []),
    ]
    taken: set[str] = set()
    for est in sampled:
        est.code = facility_code(est.name, taken)
        est.save(update_fields=["code"])
        found = property_sampling_points(est.building.property)
        manhole = found[0].manhole if found and found[0].manhole else ""
        control = est.name == ACME
        SamplingPoint.objects.create(
            establishment=est,
            code="CM-1",
            manhole=manhole,
            basis=SamplingBasis.CONTROL_MANHOLE if control else SamplingBasis.NEAREST_DOWNSTREAM,
            description=(
                "Control manhole with flow meter on the process building sewer (approval condition)."
                if control
                else "Nearest downstream manhole in the public sewer."
            ),
            sampling_interval_days=7 if control else 30,
        )
    acme = next(e for e in sampled if e.name == ACME)
    approval = (
        IndustrialDischargeApproval.objects.filter(establishment=acme)
        .order_by("filed_on", "id")
        .first()
    )
    for parameter, kind, value, unit in ACME_LIMITS:
        DischargeLimit.objects.create(
            establishment=acme,
            approval=approval,
            parameter=parameter,
            limit_type=kind,
            value=value,
            unit=unit,
            effective_from=town.anchor - timedelta(days=670),
        )
    data = history_csv(town, sampled)
    report = import_lab_file(data.encode(), "demo-laboratory-history.csv", sup, today=town.anchor)
    if not report.stored:
        raise RuntimeError(f"demo laboratory history refused: {report.errors[:5]} {report.refused}")
    processors = town.establishments.get(EstablishmentKind.FOOD_PROCESSING, [])
    if processors:
        load_self_monitoring_report(town, processors[0])
    # The office approved what is older than a month; the last month awaits review.
    cutoff = town.moment(30)
    approve_results(
        LabResult.objects.filter(sampled_at__lt=cutoff), town.users["engineer"], "demo history"
    )


def load_self_monitoring_report(town: Town, est: Any) -> None:
    """A food processor's self-monitoring report, received by mail and entered by the office:
    its own grab sample (``sampler`` user) with a pH below 5.5 (§ 196-19 C(3))."""
    taken = town.moment(SELF_SAMPLE_DAYS, 30)
    text = (
        "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point,"
        "collected_by,laboratory,sampler\n"
        f"{est.code}-SM-{taken:%y%m%d},{taken:%Y-%m-%dT%H:%M},grab,pH,5.1,SU,{est.code},CM-1,"
        "the facility's operator,Hudson Valley Labs,user\n"
    )
    report = import_lab_file(
        text.encode(),
        "demo-self-monitoring-report.csv",
        town.users["superintendent"],
        today=town.anchor,
        at=town.moment(SELF_REPORT_DAYS, 120),
    )
    if not report.stored:
        raise RuntimeError(f"demo self-monitoring report refused: {report.errors[:5]}")


def history_csv(town: Town, facilities: list[Any]) -> str:
    rng = town.rng
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        [
            "sample_id",
            "sampled_at",
            "sample_type",
            "parameter",
            "value",
            "unit",
            "facility",
            "sampling_point",
            "analyzed_at",
            "method",
            "collected_by",
            "received_at",
            "received_by",
            "laboratory",
            "sampler",
        ]
    )
    for est in facilities:
        plater = est.name == ACME
        for days_ago in range(HISTORY_DAYS, 0, -7):
            day = town.anchor - timedelta(days=days_ago)
            grab_at = town.moment(days_ago, 90)
            comp_at = town.moment(days_ago, 0)
            lab_at = town.moment(days_ago - 1, 60)
            sid = f"{est.code}-{day:%y%m%d}"
            custody = [
                "Ian Moreau",
                f"{lab_at:%Y-%m-%dT%H:%M}",
                "R. Alvarez",
                "Hudson Valley Labs",
                "town",
            ]
            ph = f"{rng.uniform(6.4, 8.6):.1f}"
            if plater and days_ago in (HISTORY_DAYS - 35, 8):
                ph = "5.2"  # § 196-19 C(3): prohibited below 5.5
            temp = f"{rng.uniform(58, 88):.1f}"
            og = f"{rng.uniform(8, 60):.0f}"
            w.writerow(
                [
                    f"{sid}G",
                    f"{grab_at:%Y-%m-%dT%H:%M}",
                    "grab",
                    "pH",
                    ph,
                    "SU",
                    est.code,
                    "CM-1",
                    f"{grab_at:%Y-%m-%dT%H:%M}",
                    "SM 4500-H+ B",
                    *custody,
                ]
            )
            w.writerow(
                [
                    f"{sid}G",
                    f"{grab_at:%Y-%m-%dT%H:%M}",
                    "grab",
                    "Temperature",
                    temp,
                    "°F",
                    est.code,
                    "CM-1",
                    "",
                    "SM 2550 B",
                    *custody,
                ]
            )
            w.writerow(
                [
                    f"{sid}G",
                    f"{grab_at:%Y-%m-%dT%H:%M}",
                    "grab",
                    "Oil and grease",
                    og,
                    "mg/l",
                    est.code,
                    "CM-1",
                    f"{lab_at:%Y-%m-%dT%H:%M}",
                    "EPA 1664B",
                    *custody,
                ]
            )
            composite = [
                ("BOD5", f"{rng.uniform(120, 420):.0f}", "mg/l", "SM 5210 B"),
                ("TSS", f"{rng.uniform(90, 380):.0f}", "mg/l", "SM 2540 D"),
            ]
            if plater:
                copper = f"{rng.uniform(0.2, 0.7):.2f}" if days_ago != 15 else "1.30"
                composite += [
                    ("Copper", copper, "mg/l", "EPA 200.7"),
                    ("Zinc", f"{rng.uniform(0.3, 1.5):.2f}", "mg/l", "EPA 200.7"),
                    ("Chromium", f"{rng.uniform(0.05, 0.2):.3f}", "mg/l", "EPA 200.7"),
                ]
            for name, value, unit, method in composite:
                w.writerow(
                    [
                        f"{sid}C",
                        f"{comp_at:%Y-%m-%dT%H:%M}",
                        "composite",
                        name,
                        value,
                        unit,
                        est.code,
                        "CM-1",
                        f"{lab_at:%Y-%m-%dT%H:%M}",
                        method,
                        *custody,
                    ]
                )
    return out.getvalue()
