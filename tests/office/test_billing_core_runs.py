"""Billing runs: the draft of a period from stored composites and flow, issue, discard; the run
total equals the sum of its invoices (property); numbers under concurrent issue (PostgreSQL)."""

from __future__ import annotations

import json
import threading
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import connection, transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_office.billing import charges, invoices, runs, surcharge_basis
from sewer_office.billing.models import BillingRun, Invoice, RunLine, SurchargeDecision
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.core.models import AuditEvent
from sewer_office.meters import days
from sewer_office.meters.models import Meter, Reading, ReadingUpload
from sewer_office.monitoring.models import LabResult, SamplingEvent, SamplingPoint
from sewer_office.registry.models import Establishment
from sewer_rules.monitoring.instants import to_us

from .factories import Town, make_town

TZ = ZoneInfo("America/New_York")
ANALYTES = {"bod": "bod5", "suspended_solids": "tss", "grease_oil": "oil_grease"}


def composites(est: Establishment, day: date, sample_type: str = "composite", **mg_l: str) -> None:
    point = SamplingPoint.objects.filter(establishment=est).first() or SamplingPoint.objects.create(
        establishment=est, code=f"CM-{est.pk}", basis="control_manhole"
    )
    at = datetime(day.year, day.month, day.day, 9, tzinfo=TZ)
    event = SamplingEvent.objects.create(
        establishment=est,
        sampling_point=point,
        sample_id=f"S-{est.pk}-{day}-{SamplingEvent.objects.count()}",
        sample_type=sample_type,
        collected_at=at,
    )
    for key, value in mg_l.items():
        LabResult.objects.create(
            event=event,
            establishment=est,
            sampled_at=at,
            parameter=ANALYTES[key],
            value_text=value,
            unit="mg/l",
            status="ok",
        )


def flow_meter(est: Establishment, day: date, values: list[str], unit: str = "gpd") -> Meter:
    point = SamplingPoint.objects.filter(establishment=est).first()
    assert point is not None
    meter = Meter.objects.create(
        sampling_point=point, ident=f"FLOW-{est.pk}-{day}", parameter="flow", unit=unit
    )
    first = datetime(day.year, day.month, day.day, tzinfo=TZ)
    upload = ReadingUpload.objects.create(
        meter=meter,
        sha256=f"x{meter.pk}",
        first_at=first,
        last_at=first + timedelta(minutes=len(values)),
        count=len(values),
        jurisdiction="demo",
        parameters_version="demo@x",
    )
    # as the readings upload does, in one transaction: the readings and the daily volumes
    # billing reads (record_upload locks the day it continues, which needs the transaction)
    with transaction.atomic():
        readings = Reading.objects.bulk_create(
            Reading(meter=meter, upload=upload, at=first + timedelta(minutes=i), value=v)
            for i, v in enumerate(values)
        )
        days.record_upload(meter, [to_us(r.at) for r in readings], values, str(TZ))
    return meter


def decide(town: Town, est: Establishment, first_day: date) -> SurchargeDecision:
    """The Superintendent's § 196-19 E(1)(d) decision requiring payment from ``first_day``."""
    return surcharge_basis.record_decision(
        est,
        town.u("superintendent"),
        basis="instead_of_pretreatment",
        first_day=first_day,
        decided_on=first_day,
        reasons="BOD and grease above normal strength; the plant treats them at added cost",
    )


def sample_day(est: Establishment, day: date, bod: str, ss: str, grease: str) -> None:
    """A day's 24-hour composite (BOD, SS) and grab (grease), as § 196-19 I and 403.12(g) want."""
    composites(est, day, bod=bod, suspended_solids=ss)
    composites(est, day, "grab", grease_oil=grease)


@pytest.fixture
def quarter(town: Town) -> Town:
    mine, theirs = town.owner_restaurant, town.other_plant
    assert mine is not None and theirs is not None
    sample_day(mine, date(2026, 1, 10), "600", "250", "80")
    sample_day(mine, date(2026, 2, 10), "400", "250", "60")
    flow_meter(mine, date(2026, 1, 5), ["20000", "20000", "20000"])
    decide(town, mine, date(2025, 12, 1))
    # abnormal strength, no decision: listed for the Superintendent, never billed
    sample_day(theirs, date(2026, 1, 12), "900", "900", "90")
    return town


@pytest.mark.django_db
def test_draft_run_lines_and_their_computation(quarter: Town) -> None:
    run = runs.create_run("2026-Q1", quarter.u("clerk"))
    assert (run.start, run.end, run.state) == (date(2026, 1, 1), date(2026, 3, 31), "draft")
    mine = RunLine.objects.get(run=run, establishment=quarter.owner_restaurant)
    theirs = RunLine.objects.get(run=run, establishment=quarter.other_plant)
    assert mine.status == "charged" and mine.flow_source == "meter"
    # 0.02 MGD × 90 d = 1.8 MG; BOD daily values 600, 400 → 500 → 260 excess → 3903.12 lb ×
    # 0.45 = 1756.404; grease grabs 80, 60 → 70 → 20 → 300.24 lb × 0.55 = 165.132 → 1921.54
    assert mine.amount == Decimal("1921.54")
    assert mine.computation["spans"][0]["surcharge"]["total_usd"] == "1921.54"
    assert theirs.status == "no_decision" and theirs.amount is None
    assert "abnormal strength, no surcharge decision" in theirs.message.lower()
    assert run.total == Decimal("1921.54")
    assert AuditEvent.objects.filter(action="billing.run_computed", object_id=str(run.pk)).exists()
    # the per-facility loop finds the same lines
    bulk = {
        (ln.establishment_id, ln.result.amount, ln.result.status)
        for ln in runs.compute_lines(run.start, run.end)
    }
    loop = {
        (ln.establishment_id, ln.result.amount, ln.result.status)
        for ln in runs.compute_lines_per_facility(run.start, run.end)
    }
    assert bulk == loop


@pytest.mark.django_db
def test_same_period_twice_is_refused_and_discard_frees_it(quarter: Town) -> None:
    clerk = quarter.u("clerk")
    run = runs.create_run("2026-Q1", clerk)
    with pytest.raises(Blocked, match="already exists"):
        runs.create_run("2026-Q1", clerk)
    runs.discard_run(run, clerk, "a laboratory result was corrected")
    ev = AuditEvent.objects.get(action="billing.run_discarded")
    assert ev.reason == "a laboratory result was corrected" and ev.state_to == "discarded"
    assert runs.create_run("2026-Q1", clerk).state == "draft"


@pytest.mark.django_db
def test_issue_one_invoice_per_charged_facility(quarter: Town) -> None:
    clerk = quarter.u("clerk")
    run = runs.issue_run(runs.create_run("2026-Q1", clerk), clerk, date(2026, 4, 2))
    assert run.state == "issued"
    invs = list(Invoice.objects.filter(run=run))
    assert len(invs) == 1 and invs[0].number == "2026-0001"
    assert invs[0].establishment == quarter.owner_restaurant
    line = invs[0].lines.get()
    assert line.citation == "§ 196-19 E(1)(d)"
    assert any("rounded to cents" in s for s in line.computation["steps"])
    assert {p["name"] for p in line.computation["parameters"]} >= {"surcharge.rate.bod"}
    assert AuditEvent.objects.filter(action="billing.run_issued").count() == 1
    with pytest.raises(Blocked, match="already exists"):
        runs.create_run("2026-Q1", clerk)


@pytest.mark.django_db
def test_periods_and_roles(quarter: Town) -> None:
    assert runs.parse_period("2026-02") == (date(2026, 2, 1), date(2026, 2, 28))
    assert runs.parse_period("2026") == (date(2026, 1, 1), date(2026, 12, 31))
    assert runs.parse_period("2026-Q4") == (date(2026, 10, 1), date(2026, 12, 31))
    for bad in ("2026-Q5", "2026-13", "Q1"):
        with pytest.raises(Exception, match=r"period|month"):
            runs.parse_period(bad)
    with pytest.raises(Forbidden):
        runs.create_run("2026-Q1", quarter.u("owner"))


@pytest.mark.django_db
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.lists(
        st.tuples(
            st.integers(100, 2000),
            st.integers(100, 2000),
            st.integers(10, 300),
            st.integers(1, 90000),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_run_total_equals_its_invoices_to_the_cent(town: Town, data: list[Any]) -> None:
    year = 2030 + BillingRun.objects.count()
    clerk = town.u("clerk")
    for i, (bod, ss, grease, gpd) in enumerate(data):
        est = Establishment.objects.create(
            name=f"P{year}-{i}",
            operator=town.owner_person,
            building=town.owner_shop_building,
            kind="industrial",
        )
        sample_day(est, date(year, 1, 3), str(bod), str(ss), str(grease))
        sample_day(est, date(year, 2, 3), str(bod + 7), str(ss), str(grease + 3))
        flow_meter(est, date(year, 1, 3), [str(gpd), str(gpd + 13)])
        decide(town, est, date(year, 1, 1))
    run = runs.issue_run(runs.create_run(f"{year}-Q1", clerk), clerk, date(year, 4, 1))
    billed = Invoice.objects.filter(run=run).aggregate(s=Sum("total"))["s"] or Decimal(0)
    assert billed == run.total
    charged = run.lines.filter(status="charged").aggregate(s=Sum("amount"))["s"] or Decimal(0)
    assert charged == run.total


@pytest.mark.django_db(transaction=True)
def test_numbers_under_concurrent_issue_on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks (FOR UPDATE) are tested on PostgreSQL (set DATABASE_URL)")
    town = make_town()
    clerk = town.u("clerk")
    person = town.owner_person
    assert person is not None
    day = date(2026, 5, 4)
    made = [charges.article_copies(person, 1, day, clerk) for _ in range(20)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def issue(batch: list[Any]) -> None:
        try:
            barrier.wait()
            for c in batch:
                invoices.issue_invoice(person, [c], clerk, day)
        except BaseException as e:  # reported below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=issue, args=(made[i::2],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    seqs = sorted(Invoice.objects.filter(year=2026).values_list("sequence", flat=True))
    assert seqs == list(range(1, 21))


def _bill(capsys: Any, *argv: str) -> tuple[int, str, str]:
    from sewer_cli.main import main

    code = main(["bill", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.django_db
def test_cli_dry_run_writes_nothing_then_draft_then_issue_idempotent(
    quarter: Town, capsys: Any
) -> None:
    code, out, _ = _bill(capsys, "--period", "2026-Q1", "--dry-run", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["run"] is None and data["total"] == "1921.54"
    assert {ln["status"] for ln in data["lines"]} == {"charged", "no_decision"}
    assert not BillingRun.objects.exists()
    code, out, _ = _bill(capsys, "--period", "2026-Q1", "--as", "clerk")
    assert code == 0 and "draft computed" in out and BillingRun.objects.count() == 1
    code, out, _ = _bill(capsys, "--period", "2026-Q1", "--as", "clerk")
    assert "nothing written" in out and BillingRun.objects.count() == 1
    code, out, _ = _bill(
        capsys, "--period", "2026-Q1", "--as", "clerk", "--issue", "--issued-on", "2026-04-02"
    )
    assert code == 0 and "issued" in out and Invoice.objects.count() == 1
    code, out, _ = _bill(capsys, "--period", "2026-Q1", "--as", "clerk", "--issue")
    assert "already issued" in out and Invoice.objects.count() == 1
    code, _, err = _bill(capsys, "--period", "2026-Q9", "--dry-run")
    assert code == 2 and "not a period" in err
    code, _, err = _bill(capsys, "--period", "2026-Q2", "--as", "owner")
    assert code == 2 and "reserved" in err
