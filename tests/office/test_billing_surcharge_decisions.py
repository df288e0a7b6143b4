"""Surcharges by decision: the Superintendent's § 196-19 E(1)(d) decisions and the Town's
§ 196-19 J agreements as records of legal weight, and a billing run that bills only the days
they cover, on the daily-average strength (grease from grab samples only).

Demo parameters: normal BOD 240, SS 300, grease 50 mg/l; rates BOD 0.45, SS 0.40, grease 0.55
USD/lb; 8.34 lb per mg/l per million gallons. A meter reading 20000 gpd is 0.02 MGD."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from sewer_office.billing import runs, surcharge_basis
from sewer_office.billing.models import RunLine, SurchargeAgreement, SurchargeDecision
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.registry.models import Establishment

from .factories import Town
from .test_billing_core_runs import composites, decide, flow_meter, sample_day

pytestmark = pytest.mark.django_db


def _agreement(
    town: Town, est: Establishment, first_day: date, **extra: object
) -> SurchargeAgreement:
    fields: dict[str, object] = {
        "parties": "Town of Wappinger and Otto's Plant LLC",
        "terms": "BOD accepted up to 2,000 mg/l at the agreed rate",
        "first_day": first_day,
        "signed_on": first_day,
        "signed_by": "Supervisor for the Town; O. Other for the concern",
        "board_approval": "Town Board resolution 2025-77 of 2025-06-20",
    }
    fields.update(extra)
    return surcharge_basis.record_agreement(est, town.u("clerk"), **fields)  # type: ignore[arg-type]


def test_only_the_superintendent_records_a_decision(town: Town) -> None:
    est = town.owner_restaurant
    assert est is not None
    for name in ("clerk", "engineer", "viewer", "owner"):
        with pytest.raises(Forbidden, match="Superintendent"):
            surcharge_basis.record_decision(
                est,
                town.u(name),
                basis="beside_pretreatment",
                first_day=date(2026, 1, 1),
                decided_on=date(2026, 1, 1),
                reasons="x",
            )
    d = decide(town, est, date(2026, 1, 1))
    ev = AuditEvent.objects.get(action="billing.surcharge_decision_recorded")
    assert ev.object_id == str(d.pk) and ev.citation == "§ 196-19 E(1)(d)"
    assert ev.actor == town.u("superintendent")


def test_agreement_by_clerk_or_superintendent_not_the_engineer(town: Town) -> None:
    est = town.other_plant
    assert est is not None
    a = _agreement(town, est, date(2026, 1, 1), rates={"bod": "1.00"})
    assert a.rate_bod == Decimal("1.0000") and a.rate_grease_oil is None
    assert AuditEvent.objects.filter(action="billing.surcharge_agreement_recorded").count() == 1
    with pytest.raises(Forbidden):
        surcharge_basis.record_agreement(
            est,
            town.u("engineer"),
            parties="p",
            terms="t",
            first_day=date(2026, 1, 1),
            signed_on=date(2026, 1, 1),
            signed_by="s",
            board_approval="b",
        )


def test_bad_input_names_the_field_and_writes_nothing(town: Town) -> None:
    est = town.owner_restaurant
    assert est is not None
    with pytest.raises(InvalidInput) as e:
        surcharge_basis.record_decision(
            est,
            town.u("superintendent"),
            basis="maybe",
            first_day=date(2026, 1, 1),
            decided_on=date(2026, 2, 1),
            reasons=" ",
        )
    assert set(e.value.errors) == {"basis", "reasons", "first_day"}
    assert "does not reach back" in e.value.errors["first_day"][0]
    with pytest.raises(InvalidInput) as e:
        _agreement(town, est, date(2026, 1, 1), board_approval="", rates={"bod": "-1"})
    assert set(e.value.errors) == {"board_approval", "rate_bod"}
    assert not SurchargeDecision.objects.exists() and not SurchargeAgreement.objects.exists()


def test_records_are_never_edited_ended_and_superseded_by_new_records(town: Town) -> None:
    est = town.owner_restaurant
    assert est is not None
    boss = town.u("superintendent")
    d = decide(town, est, date(2026, 1, 1))
    d.reasons = "changed"
    with pytest.raises(ImmutableRecord):
        d.save()
    with pytest.raises(ImmutableRecord):
        d.delete()
    later = surcharge_basis.record_decision(
        est,
        boss,
        basis="beside_pretreatment",
        first_day=date(2026, 4, 1),
        decided_on=date(2026, 3, 20),
        reasons="pretreatment installed; payment beside it for the residual BOD",
        supersedes=d,
        supersede_reason="pretreatment unit in service",
    )
    d = SurchargeDecision.objects.get(pk=d.pk)
    assert d.effective_last_day() == date(2026, 3, 31)  # the day before its successor
    with pytest.raises(InvalidInput, match="already superseded"):
        surcharge_basis.record_decision(
            est,
            boss,
            basis="beside_pretreatment",
            first_day=date(2026, 5, 1),
            decided_on=date(2026, 5, 1),
            reasons="r",
            supersedes=d,
            supersede_reason="again",
        )
    with pytest.raises(InvalidInput, match="Say why"):
        surcharge_basis.end_record(later, boss, last_day=date(2026, 6, 30), reason="")
    surcharge_basis.end_record(later, boss, last_day=date(2026, 6, 30), reason="plant closed")
    assert SurchargeDecision.objects.get(pk=later.pk).effective_last_day() == date(2026, 6, 30)
    with pytest.raises(InvalidInput, match="never extends"):
        surcharge_basis.end_record(later, boss, last_day=date(2026, 7, 31), reason="x")
    ev = AuditEvent.objects.get(action="billing.surcharge_decision_ended")
    assert ev.reason == "plant closed" and ev.object_id == str(later.pk)
    with pytest.raises(Forbidden):
        surcharge_basis.end_record(later, town.u("clerk"), last_day=date(2026, 5, 1), reason="x")


def test_run_without_a_decision_lists_and_does_not_bill(town: Town) -> None:
    theirs = town.other_plant
    assert theirs is not None
    sample_day(theirs, date(2026, 1, 12), "900", "900", "90")
    flow_meter(theirs, date(2026, 1, 5), ["20000"])
    run = runs.create_run("2026-Q1", town.u("clerk"))
    line = RunLine.objects.get(run=run, establishment=theirs)
    assert line.status == "no_decision" and line.amount is None and run.total == 0
    assert "BOD, suspended solids, grease or oil above normal strength" in line.message
    issued = runs.issue_run(run, town.u("clerk"), date(2026, 4, 2))
    assert issued.invoices.count() == 0


def test_run_decision_from_mid_period_bills_only_its_part(town: Town) -> None:
    mine = town.owner_restaurant
    assert mine is not None
    sample_day(mine, date(2026, 1, 10), "600", "250", "80")  # before the decision: not used
    sample_day(mine, date(2026, 2, 20), "400", "250", "60")
    flow_meter(mine, date(2026, 2, 20), ["20000", "20000", "20000"])
    decide(town, mine, date(2026, 2, 15))
    run = runs.create_run("2026-Q1", town.u("clerk"))
    line = RunLine.objects.get(run=run, establishment=mine)
    # Feb 15 – Mar 31 = 45 days × 0.02 MGD = 0.9 MG; Feb 20 only: BOD 160 excess →
    # 1200.96 lb × 0.45 = 540.432; grease 10 → 75.06 lb × 0.55 = 41.283; 581.715 → 581.72
    assert line.status == "charged" and line.amount == Decimal("581.72")
    assert line.computation["uncovered_days"] == 45
    span = line.computation["spans"][0]
    assert (span["first_day"], span["days"]) == ("2026-02-15", 45)
    assert span["strength"]["bod"]["daily_values_mg_l"] == {"2026-02-20": "400"}


def test_run_agreement_ended_mid_period(town: Town) -> None:
    theirs = town.other_plant
    assert theirs is not None
    sample_day(theirs, date(2026, 1, 10), "600", "250", "80")
    sample_day(theirs, date(2026, 3, 1), "2000", "250", "80")  # after the end: not billed
    flow_meter(theirs, date(2026, 1, 5), ["20000"])
    a = _agreement(town, theirs, date(2025, 7, 1))
    surcharge_basis.end_record(
        a, town.u("clerk"), last_day=date(2026, 2, 14), reason="the concern gave notice"
    )
    run = runs.create_run("2026-Q1", town.u("clerk"))
    line = RunLine.objects.get(run=run, establishment=theirs)
    # Jan 1 – Feb 14 = 45 days × 0.02 = 0.9 MG; BOD 360 excess → 2702.16 lb × 0.45 =
    # 1215.972; grease 30 → 225.18 lb × 0.55 = 123.849; total 1339.821 → 1339.82
    assert line.amount == Decimal("1339.82")
    assert line.computation["spans"][0]["last_day"] == "2026-02-14"
    invoice = runs.issue_run(run, town.u("clerk"), date(2026, 4, 2)).invoices.get()
    steps = invoice.lines.get().computation["steps"]
    assert any("§ 196-19 J agreement" in s for s in steps)
    assert any("45 day(s) of the period covered by no decision" in s for s in steps)


def test_grease_composites_are_ignored_and_without_a_grab_nothing_is_stated(town: Town) -> None:
    mine = town.owner_restaurant
    assert mine is not None
    composites(mine, date(2026, 1, 10), bod="600", suspended_solids="250", grease_oil="80")
    flow_meter(mine, date(2026, 1, 5), ["20000"])
    decide(town, mine, date(2026, 1, 1))
    line = RunLine.objects.get(run=runs.create_run("2026-Q1", town.u("clerk")), establishment=mine)
    assert line.status == "not_computable" and line.amount is None
    assert "grease or oil: no grab result" in line.message
    assert "1 result(s) of another sample type ignored" in line.message
