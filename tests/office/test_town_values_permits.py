"""Permits in an office of several member towns: each application is computed under its own
town's values (the fee of § 196-18 B and § 196-23 C, the plan checks, the evaluation of a
declared discharge, an approval's term and the daily fine its penalties name), never the
primary's; an application on a parcel or facility of a town whose law is its own (the Town of
Poughkeepsie's) is refused at filing, before anything is written."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.core.errors import OfficeError
from sewer_office.core.models import AuditEvent
from sewer_office.core.services import perform
from sewer_office.core.town_law import OtherLaw
from sewer_office.permits import letters, rules
from sewer_office.permits.control_forms import TermsForm
from sewer_office.permits.control_mechanism import penalties_statement
from sewer_office.permits.kinds import KINDS
from sewer_office.permits.services.building_sewer import (
    assess_fee,
    class_preview,
    design_checks,
    plan_checks,
)
from sewer_office.permits.services.subdivision import sewer_duty
from sewer_office.registry.services import move_to_jurisdiction
from sewer_rules.parameters import load_jurisdiction

from . import town_values_support
from .enforcement_factories import at
from .factories import GOOD_DESIGN, Town, new_record
from .jurisdiction_support import ARTICLE_MEMBER as WAPPINGER
from .jurisdiction_support import OTHER
from .town_values_support import RIVERSIDE

# an office of two Article VII towns with different values (:mod:`.town_values_support`)
riverside = town_values_support.riverside

pytestmark = pytest.mark.django_db

FIRST_OF_MARCH = date(2026, 3, 1)


def _permits(town: Town, kind: str) -> tuple[Any, Any]:
    """One record of ``kind`` of each town: the owner's (the primary's), the other's."""
    return new_record(kind, town), new_record(kind, town, mine=False)


def test_each_building_sewer_fee_is_its_towns(riverside: Town) -> None:
    home, other = _permits(riverside, "building-sewer")
    assert (home.fee_amount, other.fee_amount) == (Decimal("200.00"), Decimal("275.00"))
    assert home.fee_authority.startswith("EXAMPLE resolution 2023-41 (demo)")
    assert other.fee_authority == "EXAMPLE Riverside resolution 2024-3"
    assert assess_fee(other).value == Decimal("275.00")  # read again: still the parcel's town's
    assert class_preview(RIVERSIDE, GOOD_DESIGN, "residential", "", 1)["text"].endswith(
        "fee USD 275.00"
    )
    assert class_preview("demo", GOOD_DESIGN, "residential", "", 1)["text"].endswith(
        "fee USD 200.00"
    )
    riverside_version = load_jurisdiction(RIVERSIDE).version
    assert riverside_version.startswith("riverside@")
    assert plan_checks(other)["parameters_version"] == riverside_version
    assert plan_checks(home)["parameters_version"].startswith("demo@")
    assert design_checks(RIVERSIDE, GOOD_DESIGN)["parameters_version"] == riverside_version


def test_the_member_towns_fees_are_its_own_not_the_primarys(article_towns: Town) -> None:
    home, other = _permits(article_towns, "building-sewer")
    assert home.fee_amount == Decimal("200.00") and home.fee_parameter.endswith("class_1")
    assert other.fee_amount is None  # Wappinger's Town Board has set no fee
    sub_home, sub_other = _permits(article_towns, "subdivision")
    assert sub_home.fee_amount == Decimal("2000.00")  # the demo's 2% of 100,000
    assert sub_other.fee_amount is None and sub_other.fee_rate is None
    assert sewer_duty(sub_other)["citation"].startswith("§ 196-16 G")


def test_a_declared_discharge_is_evaluated_under_its_facilitys_town(article_towns: Town) -> None:
    home, other = _permits(article_towns, "industrial")
    assert home.evaluation["parameters_version"] == load_jurisdiction("demo").version
    assert other.evaluation["parameters_version"] == load_jurisdiction(WAPPINGER).version


def test_the_approval_letter_names_its_towns_parameters(article_towns: Town) -> None:
    engineer = article_towns.u("engineer")
    approval = perform(
        new_record("industrial", article_towns, mine=False), "begin_review", engineer
    )
    approval = perform(approval, "approve", engineer, {}, at=at("2026-03-10"))
    assert (approval.term_years, approval.expires_on) == (5, date(2031, 3, 9))
    wappinger = load_jurisdiction(WAPPINGER)
    assert letters.context(approval)["parameters"] == (
        f"Determinations computed under the parameters of {wappinger.name}, version "
        f"{wappinger.version}."
    )


def test_the_penalties_name_each_towns_daily_fine(riverside: Town, settings: Any) -> None:
    assert "USD 350.00 per day" in penalties_statement("demo", FIRST_OF_MARCH)
    assert "USD 500.00 per day" in penalties_statement(RIVERSIDE, FIRST_OF_MARCH)
    assert "EXAMPLE Riverside § 122-20 Y amount" in penalties_statement(RIVERSIDE, FIRST_OF_MARCH)
    # Wappinger's file records no amount: the statement names the provision, not a number
    assert "the amount set in Town Code § 122-20 Y" in penalties_statement(
        WAPPINGER, FIRST_OF_MARCH
    )
    home, other = _permits(riverside, "industrial")
    prefilled = TermsForm(approval=other).fields["penalties"].initial
    assert "USD 500.00 per day" in prefilled and "USD 350.00" not in prefilled
    assert "USD 350.00 per day" in TermsForm(approval=home).fields["penalties"].initial
    assert rules.longest_term(RIVERSIDE, FIRST_OF_MARCH) == 5


def test_params_reads_the_town_named() -> None:
    assert rules.params("demo").version.startswith("demo@")
    assert rules.params(WAPPINGER).version.startswith("wappinger@")
    unset = rules.daily_fine(WAPPINGER, FIRST_OF_MARCH)
    assert unset is not None and unset.value is None  # the article's file: not configured
    fine = rules.daily_fine("demo", FIRST_OF_MARCH)
    assert fine is not None and fine.value == Decimal("350.00")


# --- a town whose law is its own -----------------------------------------------------------------


def test_every_kind_on_a_poughkeepsie_parcel_is_refused_before_anything_is_written(
    two_towns: Town,
) -> None:
    filed = AuditEvent.objects.filter(action="file").count()
    for slug in KINDS:
        with pytest.raises(OtherLaw) as refused:
            new_record(slug, two_towns, mine=False)
        message = refused.value.message
        assert "Town Code Chapter 196, Article VII" in message, slug
        assert "Town of Poughkeepsie" in message and f"--jurisdiction {OTHER}" in message, slug
        assert not KINDS[slug].model.objects.exists(), slug
    assert AuditEvent.objects.filter(action="file").count() == filed
    assert refused.value.status_code == 409


@pytest.mark.parametrize(
    ("slug", "what"),
    [
        ("building-sewer", "A building sewer permit (§ 196-18)"),
        ("industrial", "A discharge approval (§ 196-16 D–F; § 196-19)"),
        ("subdivision", "A subdivision sewer permit (§ 196-16 G; § 196-23)"),
    ],
)
def test_the_refusal_names_what_was_asked(two_towns: Town, slug: str, what: str) -> None:
    with pytest.raises(OtherLaw, match="^" + re.escape(what)):
        new_record(slug, two_towns, mine=False)
    assert new_record(slug, two_towns).pk  # the primary's parcel: filed


def test_the_filing_form_refuses_a_poughkeepsie_parcel(two_towns: Town, login: Any) -> None:
    r = login("bothclerk").post(
        "/permits/building-sewer/new/",
        {
            "applicant": two_towns.other_person.pk,  # type: ignore[union-attr]
            "property": two_towns.other_home.pk,  # type: ignore[union-attr]
            "permit_class": "1",
            "service_use": "residential",
            "diameter": "4 in",
            "slope": "1/4 in/ft",
            "connected_sources": ["sanitary_fixtures"],
            "check": "1",
        },
    )
    assert r.status_code == 400
    assert "Article VII" in r.content.decode()
    assert not KINDS["building-sewer"].model.objects.exists()


def test_a_permit_whose_parcel_passed_to_poughkeepsie_is_not_computed_under_the_article(
    two_towns: Town,
) -> None:
    permit = new_record("building-sewer", two_towns)
    assert permit.fee_amount == Decimal("200.00")
    home = two_towns.owner_home
    assert home is not None
    move_to_jurisdiction(two_towns.u("coordinator"), home, OTHER, date(2026, 3, 1), "IMA 2026-4")
    permit.refresh_from_db()
    assert permit.fee_amount == Decimal("200.00")  # what it determined then stands
    checks = plan_checks(permit)
    assert checks["checks"] == [] and "Town of Poughkeepsie" in checks["error"]
    with pytest.raises(OtherLaw):
        assess_fee(permit)
    sub = new_record("subdivision", two_towns)
    tract = two_towns.tract
    assert tract is not None
    move_to_jurisdiction(two_towns.u("coordinator"), tract, OTHER, date(2026, 3, 1), "IMA 2026-5")
    sub.refresh_from_db()
    with pytest.raises(OfficeError, match="Article VII"):
        sewer_duty(sub)
