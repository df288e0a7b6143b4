"""Billing in an office of several member towns: a charge is computed under the values of the
town of what it is for (the permit's parcel, the facility), records that town and the version
of its values; an invoice's due date is its charges' town's resolution, and an invoice bills
one town's charges; a billing run computes each facility's line under its town's values. A
surcharge or a fee for a record of the Town of Poughkeepsie (a law of its own) is refused."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.billing import charges, invoices, pdf, runs, surcharge_basis
from sewer_office.billing.models import Charge, Invoice, RunLine
from sewer_office.billing.permit_fees import fee_assessment, issue_permit_fee_invoice
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.town_law import OtherLaw
from sewer_office.registry.services import move_to_jurisdiction
from sewer_rules.parameters import load_jurisdiction

from . import town_values_support
from .enforcement_factories import at
from .factories import Town, new_record
from .jurisdiction_support import OTHER
from .test_billing_core_runs import decide, flow_meter, sample_day
from .town_values_support import RIVERSIDE

# an office of two Article VII towns with different values (:mod:`.town_values_support`)
riverside = town_values_support.riverside

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 2)


def test_each_permits_fee_is_charged_and_invoiced_under_its_towns_values(riverside: Town) -> None:
    clerk = riverside.u("clerk")
    home = new_record("building-sewer", riverside)
    other = new_record("building-sewer", riverside, mine=False)
    mine = issue_permit_fee_invoice(clerk, home, at=at("2026-03-02"))
    theirs = issue_permit_fee_invoice(clerk, other, at=at("2026-03-02"))
    assert (mine.total, theirs.total) == (Decimal("200.00"), Decimal("275.00"))
    charge = theirs.lines.get().charge
    assert charge.computation["town"] == RIVERSIDE
    assert charge.computation["jurisdiction"] == load_jurisdiction(RIVERSIDE).version
    assert charge.computation["parameters"][0]["authority"] == "EXAMPLE Riverside resolution 2024-3"
    assert mine.lines.get().charge.computation["town"] == "demo"
    # each invoice falls due after its own town's days
    assert (mine.due_on, theirs.due_on) == (DAY + timedelta(days=30), DAY + timedelta(days=45))
    assert theirs.due_basis["authority"] == "EXAMPLE Riverside resolution 2015-9"
    assert pdf.due_words(theirs) == (
        "Due on April 16, 2026: 45 days after issue, as set by EXAMPLE Riverside resolution 2015-9."
    )


def test_the_member_towns_unset_fees_are_refused_naming_it(article_towns: Town) -> None:
    clerk = article_towns.u("clerk")
    other = new_record("building-sewer", article_towns, mine=False)
    with pytest.raises(
        Blocked, match=r"fee\.building_sewer\.class_1 is not configured in wappinger"
    ):
        charges.building_sewer_fee(other, clerk)
    with pytest.raises(Blocked, match="jurisdiction 'wappinger'"):
        issue_permit_fee_invoice(clerk, other)
    sub = new_record("subdivision", article_towns, mine=False)
    with pytest.raises(Blocked, match=r"not configured in wappinger"):
        charges.subdivision_fee(sub, clerk)
    assert not Charge.objects.exists() and not Invoice.objects.exists()
    home = new_record("building-sewer", article_towns)
    assert charges.building_sewer_fee(home, clerk).amount == Decimal("200.00")


def test_an_invoice_bills_the_charges_of_one_town(riverside: Town) -> None:
    clerk, person = riverside.u("clerk"), riverside.owner_person
    assert person is not None
    with pytest.raises(InvalidInput, match="name the member town"):
        charges.article_copies(person, 1, DAY, clerk)  # whose copies, in an office of two?
    demo = charges.article_copies(person, 1, DAY, clerk, town="demo")
    theirs = charges.article_copies(person, 2, DAY, clerk, town=RIVERSIDE)
    assert (demo.computation["town"], theirs.computation["town"]) == ("demo", RIVERSIDE)
    with pytest.raises(Blocked, match=r"several towns \(demo, riverside\.yaml\).*one invoice per"):
        invoices.issue_invoice(person, [demo, theirs], clerk, DAY)
    assert not Invoice.objects.exists()
    first = invoices.issue_invoice(person, [demo], clerk, DAY)
    second = invoices.issue_invoice(person, [theirs], clerk, DAY)
    assert (first.due_on, second.due_on) == (DAY + timedelta(days=30), DAY + timedelta(days=45))


def _quarter(town: Town) -> None:
    """The same quarter at both facilities: the same samples, flow and decision."""
    for est in (town.owner_restaurant, town.other_plant):
        assert est is not None
        sample_day(est, date(2026, 1, 10), "600", "250", "80")
        sample_day(est, date(2026, 2, 10), "400", "250", "60")
        flow_meter(est, date(2026, 1, 5), ["20000", "20000", "20000"])
        decide(town, est, date(2025, 12, 1))


def test_a_run_computes_each_facility_under_its_towns_values(riverside: Town) -> None:
    _quarter(riverside)
    clerk = riverside.u("clerk")
    run = runs.create_run("2026-Q1", clerk)
    mine = RunLine.objects.get(run=run, establishment=riverside.owner_restaurant)
    theirs = RunLine.objects.get(run=run, establishment=riverside.other_plant)
    # 3903.12 lb of BOD: × 0.45 (demo) + 165.132 grease = 1921.54; × 0.60 (Riverside) → 2507.00
    assert (mine.amount, theirs.amount) == (Decimal("1921.54"), Decimal("2507.00"))
    assert (mine.computation["town"], theirs.computation["town"]) == ("demo", RIVERSIDE)
    assert theirs.computation["jurisdiction"] == load_jurisdiction(RIVERSIDE).version
    assert run.jurisdiction == "each line's town's values"
    bulk = {
        (ln.establishment_id, ln.result.amount) for ln in runs.compute_lines(run.start, run.end)
    }
    loop = {
        (ln.establishment_id, ln.result.amount)
        for ln in runs.compute_lines_per_facility(run.start, run.end)
    }
    assert bulk == loop
    issued = runs.issue_run(run, clerk, DAY)
    due = {i.establishment_id: i.due_on for i in issued.invoices.all()}
    assert due == {
        mine.establishment_id: DAY + timedelta(days=30),
        theirs.establishment_id: DAY + timedelta(days=45),
    }
    charge = Charge.objects.get(establishment=riverside.other_plant)
    assert charge.computation["town"] == RIVERSIDE and charge.amount == Decimal("2507.00")


def test_a_run_of_one_town_names_its_values(article_towns: Town) -> None:
    mine = article_towns.owner_restaurant
    assert mine is not None
    sample_day(mine, date(2026, 1, 10), "600", "250", "80")
    decide(article_towns, mine, date(2025, 12, 1))
    run = runs.create_run("2026-Q1", article_towns.u("clerk"))
    assert run.jurisdiction == load_jurisdiction("demo").version


# --- a town whose law is its own -----------------------------------------------------------------


def test_no_article_surcharge_for_a_poughkeepsie_facility(two_towns: Town) -> None:
    theirs, mine = two_towns.other_plant, two_towns.owner_restaurant
    assert theirs is not None and mine is not None
    theirs.refresh_from_db()  # passed to the Town of Poughkeepsie with its parcel
    with pytest.raises(OtherLaw, match=r"^A surcharge decision \(§ 196-19 E\(1\)\(d\)\)"):
        decide(two_towns, theirs, date(2025, 12, 1))
    with pytest.raises(OtherLaw, match=r"^A surcharge agreement \(§ 196-19 J\)"):
        surcharge_basis.record_agreement(
            theirs,
            two_towns.u("superintendent"),
            parties="the Town and Otto Plating",
            terms="rates",
            first_day=date(2026, 1, 1),
            signed_on=date(2026, 1, 1),
            signed_by="both",
            board_approval="res. 2026-1",
        )
    for est in (theirs, mine):  # both of abnormal strength, neither with a decision
        sample_day(est, date(2026, 1, 12), "900", "900", "90")
    listed = {ln.establishment_id for ln in runs.compute_lines(date(2026, 1, 1), date(2026, 3, 31))}
    assert listed == {mine.pk}


def test_a_fee_of_a_parcel_passed_to_poughkeepsie_is_refused(
    two_towns: Town, settings: Any
) -> None:
    clerk = two_towns.u("clerk")
    permit = new_record("building-sewer", two_towns)
    home = two_towns.owner_home
    assert home is not None
    move_to_jurisdiction(two_towns.u("coordinator"), home, OTHER, date(2026, 3, 1), "IMA 2026-4")
    permit.refresh_from_db()
    amount, _, blocked = fee_assessment(permit)
    assert amount is None and "Town of Poughkeepsie" in blocked
    with pytest.raises(OtherLaw, match=r"^A building sewer permit fee \(§ 196-18 B\)"):
        issue_permit_fee_invoice(clerk, permit)
    with pytest.raises(OtherLaw):
        charges.building_sewer_fee(permit, clerk)
    with pytest.raises(OtherLaw, match=r"^Copies of the article \(§ 196-23 D\)"):
        charges.article_copies(two_towns.owner_person, 1, DAY, clerk, town=OTHER)  # type: ignore[arg-type]
    assert not Charge.objects.exists() and not Invoice.objects.exists()
