"""The demo town's pretreatment program: SIU designations, required reports, an SNC facility.

Every industrial user is evaluated on 40 CFR 403.3(v)(1) (its declared or metered flow, its
categorical standard); Acme Plating Corporation, below 25,000 gpd, is then designated by the
Control Authority for its plating line. Acme must send a periodic compliance report every six
months (403.12(h)) and had a baseline report due at the start of the last completed calendar
half-year that never came; in that half its copper composites exceeded the permit's daily
maximum most weeks. SNC is determined for that half through the office's service, so Acme is
in significant noncompliance — chronic (A), technical review criteria (B) and a report more
than 45 days late (F) — with its violation opened, and the yearly SNC list of that year names it.

Tri-County Laundry Services shows who those criteria apply to (40 CFR 403.8(f)(2)(viii)): its
declared 30,000 gpd meets the flow test of 403.3(v)(1)(ii), but before the half the Control
Authority found it not significant (403.3(v)(2)). Its zinc composites of the half exceed the
limit the Town set for it most months, which would be (A) and (B) for an SIU; as it was not one,
its determination counts none of them (and says why), it is not in SNC, and the yearly list and
newspaper text leave it out. The exceedances stay violations of its limit all the same.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, time, timedelta

from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit
from sewer_office.pretreatment import report_dues, services, snc
from sewer_office.registry.choices import EstablishmentKind

from .monitoring import ACME
from .town import Town

#: Acme's copper composites in the half (mg/l; its daily maximum is 1.0): 9 of 12 over it,
#: 5 at or above 1.2 (limit × TRC).
COPPER = ("1.3", "0.8", "1.1", "1.25", "1.05", "0.9", "1.4", "1.02", "1.2", "0.7", "1.5", "1.1")
LAUNDRY = "Tri-County Laundry Services"
#: Tri-County's monthly zinc composites in the half (mg/l; the limit is 2.0): 5 of 6 over it,
#: 4 at or above 2.4 (limit × TRC) — SNC under (A) and (B), were it an SIU.
ZINC = ("2.6", "1.8", "3.1", "2.4", "2.9", "2.2")


def last_half(anchor: date) -> tuple[str, date, date]:
    """The last calendar half-year that ended before ``anchor``: (label, first, last day)."""
    if anchor.month > 6:
        return f"{anchor.year}H1", date(anchor.year, 1, 1), date(anchor.year, 6, 30)
    year = anchor.year - 1
    return f"{year}H2", date(year, 7, 1), date(year, 12, 31)


def _composites_csv(
    code: str, first: date, name: str, values: tuple[str, ...], every: int, tag: str
) -> str:
    """Composites of one parameter at ``code``'s CM-1, every ``every`` days of the half."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        ["sample_id", "sampled_at", "sample_type", "parameter", "value", "unit", "facility",
         "sampling_point", "method"]
    )  # fmt: skip
    for k, value in enumerate(values):
        day = first + timedelta(days=3 + every * k)
        w.writerow(
            [f"{code}-{tag}-{day:%y%m%d}", f"{day:%Y-%m-%d}T07:00", "composite", name, value,
             "mg/l", code, "CM-1", "EPA 200.7"]
        )  # fmt: skip
    return out.getvalue()


def _copper_csv(code: str, first: date) -> str:
    return _composites_csv(code, first, "Copper", COPPER, 14, "SNC")


def _laundry(town: Town, first: date, decided: date, at: datetime) -> None:
    """Tri-County: found not significant before the half, its zinc over its limit in it."""
    laundry = next(
        (e for e in town.establishments.get(EstablishmentKind.INDUSTRIAL, []) if e.name == LAUNDRY),
        None,
    )
    if laundry is None:
        return
    current = services.current_designation(laundry)
    if current is not None and current.status == "siu":
        services.designate(
            town.users["superintendent"],
            laundry,
            basis="de_designated",
            reason=(
                "Commercial laundry with lint screens, no process chemicals beyond detergents: "
                "no reasonable potential for adversely affecting the POTW or violating a "
                "pretreatment standard (40 CFR 403.3(v)(2))."
            ),
            on=decided,
            at=at + timedelta(hours=2),
        )
    DischargeLimit.objects.create(
        establishment=laundry,
        parameter="zinc",
        limit_type="daily_maximum",
        value="2.0",
        unit="mg/l",
        effective_from=first - timedelta(days=365),
    )
    data = _composites_csv(laundry.code, first, "Zinc", ZINC, 30, "ZN")
    report = import_lab_file(data.encode(), "demo-laundry-zinc.csv", town.users["superintendent"],
                             today=town.anchor)  # fmt: skip
    if not report.stored:
        raise RuntimeError(f"demo zinc results refused: {report.errors[:5]} {report.refused}")


def load_demo_pretreatment(town: Town) -> None:
    sup = town.users["superintendent"]
    engineer = town.users["engineer"]
    label, first, last = last_half(town.anchor)
    decided = first - timedelta(days=20)
    at = datetime.combine(decided, time(10), tzinfo=town.moment(0).tzinfo)
    industrial = town.establishments.get(EstablishmentKind.INDUSTRIAL, [])
    for est in industrial:
        services.designate(engineer, est, on=decided, at=at)
    acme = next(e for e in industrial if e.name == ACME)
    if services.current_designation(acme).status != "siu":  # type: ignore[union-attr]
        services.designate(
            sup,
            acme,
            basis="designated",
            reason=(
                "Electroplating with copper, chromium and zinc: a reasonable potential for "
                "violating its pretreatment standards (40 CFR 403.3(v)(1)(ii))."
            ),
            on=decided,
            at=at + timedelta(hours=1),
        )
    report_dues.add_requirement(
        sup, acme, kind="periodic_noncat", first_due=first + timedelta(days=30), every_months=6,
        at=at,
    )  # fmt: skip
    report_dues.add_requirement(
        sup, acme, kind="baseline", first_due=first + timedelta(days=14), every_months=0, at=at
    )
    periodic = acme.report_dues.filter(kind="periodic_noncat").order_by("due_on").first()
    if periodic is not None:
        received = periodic.due_on + timedelta(days=10)
        report_dues.record_received(
            town.users["clerk"], periodic, received,
            at=datetime.combine(received, time(11), tzinfo=at.tzinfo),
        )  # fmt: skip
    report = import_lab_file(
        _copper_csv(acme.code, first).encode(), "demo-acme-copper.csv", sup, today=town.anchor
    )
    if not report.stored:
        raise RuntimeError(f"demo copper results refused: {report.errors[:5]} {report.refused}")
    _laundry(town, first, decided, at)
    run_at = datetime.combine(last + timedelta(days=2), time(9), tzinfo=at.tzinfo)
    # the plant's work: its coordinator's in an office of several towns, else the Superintendent's
    plant = town.users.get("coordinator", sup)
    snc.compute_snc(plant, label, rolling=False, as_of=last, at=run_at)
