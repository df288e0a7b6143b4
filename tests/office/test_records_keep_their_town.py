"""A permit, a violation and an inspection keep their parcel's town in a column of their own.

So that a town's records are found by an index among a county's (docs/scale.md): each takes its
parcel's town when it is written (a violation or an inspection of a facility, the facility's),
follows its parcel when an act moves the parcel to another town (the parcel's audit event
counts what followed), and the records reached through them (a notice through its violation)
are found by the town the record keeps. The rows stored before the column take it from their
parcel in the migration that added it."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from sewer_office.accounts.access import visible
from sewer_office.accounts.jurisdictions import jurisdiction_paths
from sewer_office.core.models import AuditEvent
from sewer_office.core.parcel_towns import copy_parcel_towns
from sewer_office.enforcement import services as enforcement
from sewer_office.enforcement.models import Notice, Violation
from sewer_office.findings.models import Finding
from sewer_office.inspections import services as inspections
from sewer_office.inspections.choices import InspectionKind
from sewer_office.permits.models import BuildingSewerPermit
from sewer_office.registry.services import move_to_jurisdiction

from .factories import Town, new_record
from .jurisdiction_support import ARTICLE_MEMBER, HOME

pytestmark = pytest.mark.django_db


def test_a_permit_keeps_the_town_of_its_parcel(article_towns: Town) -> None:
    home, other = (
        new_record("building-sewer", article_towns),
        new_record("building-sewer", article_towns, mine=False),
    )
    assert (home.jurisdiction, other.jurisdiction) == (HOME, ARTICLE_MEMBER)
    # the member town's clerk finds the member town's permit, by the column
    mine = visible(BuildingSewerPermit.objects.all(), article_towns.u("oclerk"))
    assert list(mine) == [other]
    assert "jurisdiction" in str(mine.query) and "registry_property" not in str(mine.query)


def test_a_violation_and_an_inspection_keep_their_facilitys_town_else_their_parcels(
    article_towns: Town,
) -> None:
    t = article_towns
    plant, lot = t.other_plant, t.owner_home
    assert plant is not None and lot is not None
    of_plant = enforcement.open_violation(
        t.u("superintendent"),
        kind="discharge_seen",
        section="§ 196-19 C(3)",
        description="pH 4.9",
        person=t.other_person,
        establishment=plant,
    )
    of_lot = enforcement.open_violation(
        t.u("superintendent"),
        kind="discharge_seen",
        section="§ 196-19 A",
        description="roof leader to the sanitary sewer",
        person=t.owner_person,
        property=lot,
    )
    assert (of_plant.jurisdiction, of_lot.jurisdiction) == (ARTICLE_MEMBER, HOME)
    visit = inspections.schedule(
        t.u("inspector"),
        kind=InspectionKind.INDUSTRIAL_USER,
        establishment=plant,
        unscheduled=True,
    )
    assert visit.jurisdiction == ARTICLE_MEMBER
    # a notice is found through the town its violation keeps
    assert jurisdiction_paths(Notice) == ("violation__jurisdiction",)
    assert jurisdiction_paths(Finding) == ("establishment__jurisdiction",)


def test_the_records_follow_their_parcel_when_an_act_moves_it(article_towns: Town) -> None:
    t = article_towns
    permit = new_record("building-sewer", t)
    assert permit.property is not None
    v = enforcement.open_violation(
        t.u("superintendent"),
        kind="discharge_seen",
        section="§ 196-19 A",
        description="roof leader to the sanitary sewer",
        person=t.owner_person,
        property=permit.property,
    )
    move_to_jurisdiction(
        t.u("coordinator"), permit.property, ARTICLE_MEMBER, date(2026, 6, 1), "IMA 2026-7"
    )
    permit.refresh_from_db()
    v.refresh_from_db()
    assert (permit.jurisdiction, v.jurisdiction) == (ARTICLE_MEMBER, ARTICLE_MEMBER)
    assert permit.fee_amount is not None  # what it determined then stands
    event = AuditEvent.objects.filter(action="move_jurisdiction").latest("id")
    following = event.after["records"]
    assert following["permits.BuildingSewerPermit"] == 1
    assert following["enforcement.Violation"] == 1
    assert not visible(Violation.objects.filter(pk=v.pk), t.u("hclerk")).exists()


def test_the_rows_stored_before_the_column_take_their_parcels_town(article_towns: Town) -> None:
    permit = new_record("building-sewer", article_towns, mine=False)
    # a row as the migration finds it: the column's default, the primary town
    BuildingSewerPermit.objects.filter(pk=permit.pk).update(jurisdiction=HOME)
    copy_parcel_towns("permits", {"BuildingSewerPermit": ("property",)})(
        apps, SimpleNamespace(connection=connection)
    )
    permit.refresh_from_db()
    assert permit.jurisdiction == ARTICLE_MEMBER
