"""Importing the county's tax parcel roll (parcels/services/, reviews.py, districts.py).

A generated roll in the State's shape (tests/parcel_rolls.py: State Plane feet, owners with
several parcels, the class mix, three bad rows) is refused by name — file, row, field — with
nothing applied; without the bad rows it applies; the districts give the parcels their service
areas; next year's roll changes exactly its 300 owners and holds its split and merge for the
clerk; an unchanged roll changes nothing; a notice served before a sale still names the owner
it was served on.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from sewer_io.parcels import read_districts, read_parcels
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.core.models import AuditEvent, IssuedDocument
from sewer_office.parcels import districts, reviews, services
from sewer_office.parcels.choices import ReviewKind, ReviewState
from sewer_office.parcels.models import OwnerChange, ParcelReview, Retirement, RollImport
from sewer_office.registry.models import Person, Property, ServiceArea
from tests.parcel_rolls import (
    DISTRICTS,
    bad_rows,
    expected_district,
    next_year,
    write_districts,
    write_roll,
)

from .enforcement_factories import served
from .factories import Town

#: Parcels of the test rolls: enough for 300 sales, a split and a merge.
PARCELS = 400
ROLL_DATE = date(2026, 3, 1)
NEXT_DATE = date(2027, 3, 1)


@pytest.fixture(scope="module")
def rolls(tmp_path_factory: Any) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("rolls")
    (base / "bad").mkdir()
    (base / "good").mkdir()
    (base / "next").mkdir()
    bad = write_roll(base / "bad", parcels=PARCELS)
    good = write_roll(base / "good", parcels=PARCELS, bad_rows=False)
    return {
        "bad": bad,
        "good": good,
        "next": next_year(good, base / "next"),
        "districts": write_districts(base),
    }


def _applied(path: Path, actor: Any, on: date = ROLL_DATE) -> RollImport:
    preview = services.preview(read_parcels(path))
    assert preview.ok, preview.report_lines()[:5]
    return services.apply(preview, actor, on)


def _other_bytes(path: Path, directory: Path, newlines: int = 1) -> Path:
    """The same roll with other bytes (newlines more): another SHA-256, the same parcels."""
    copy = directory / f"again-{newlines}-{path.name}"
    copy.write_bytes(path.read_bytes() + b"\n" * newlines)
    return copy


def _snapshot() -> dict[int, tuple[Any, ...]]:
    fields = ("parcel_id", *services.PROPERTY_FIELDS, "owner_id", "service_area_id", "updated_at")
    return {r[0]: r[1:] for r in Property.objects.values_list("id", *fields)}


# --- the bad rows ------------------------------------------------------------------------------


def test_bad_rows_are_refused_by_file_row_and_field_and_nothing_is_applied(
    town: Town, rolls: dict[str, Path]
) -> None:
    before = (Property.objects.count(), Person.objects.count(), AuditEvent.objects.count())
    preview = services.preview(read_parcels(rolls["bad"]))
    planted = bad_rows(PARCELS, "geojson")
    assert {(r, f) for r, f, _ in preview.refusals} == set(planted.items())
    lines = preview.report_lines()
    for row, name in planted.items():
        assert any(
            line.startswith(f"roll-2026.geojson, row {row}, field {name}: ") for line in lines
        )
    assert preview.counts["refused"] == 3 and preview.counts["new"] == PARCELS
    with pytest.raises(Blocked, match="3 row errors; nothing was applied"):
        services.apply(preview, town.u("clerk"), ROLL_DATE)
    after = (Property.objects.count(), Person.objects.count(), AuditEvent.objects.count())
    assert after == before and not RollImport.objects.exists()


def test_a_roll_applies_with_one_person_per_owner_and_one_audit_event(
    town: Town, rolls: dict[str, Path]
) -> None:
    events = AuditEvent.objects.count()
    persons = Person.objects.count()
    read = read_parcels(rolls["good"])
    imp = _applied(rolls["good"], town.u("clerk"))
    assert (imp.new_count, imp.changed_count, imp.unchanged_count) == (PARCELS, 0, 0)
    assert imp.crs == "EPSG:2260" and imp.sha256 == read.sha256 and imp.roll_date == ROLL_DATE
    roll = Property.objects.exclude(sbl="")
    assert roll.count() == PARCELS
    # the owner of many rows is one person: as many persons as owner identities on the roll
    identities = read.parcels.select(
        pl.col("owner").str.to_lowercase(), pl.col("mail_street").str.to_lowercase(), "mail_zip"
    ).unique()
    assert Person.objects.count() - persons == imp.persons_created == identities.height
    counts = read.parcels.group_by("owner").len().sort("len", descending=True)
    top, n = counts.row(0)
    assert n >= 3  # the generator's pool of owners of several parcels
    assert Person.objects.get(name=top).properties.count() == n
    # the State's keys, class mix and outline are kept
    sample = roll.get(parcel_id=read.parcels["parcel_id"][0])
    assert sample.swis == "135689" and sample.sbl == read.parcels["sbl"][0]
    assert len(set(roll.values_list("property_class", flat=True))) > 8
    assert json.loads(sample.geometry)["type"] == "Polygon" and -74 < sample.lon < -73.8
    # one audit event for the whole import, naming the file
    new_events = AuditEvent.objects.filter(pk__gt=0).order_by("-id")[
        : AuditEvent.objects.count() - events
    ]
    assert [e.action for e in new_events] == ["import_parcels"]
    assert new_events[0].after["sha256"] == read.sha256
    assert new_events[0].after["source_name"] == "roll-2026.geojson"
    assert new_events[0].after["crs"] == "EPSG:2260"


def test_the_same_file_twice_changes_nothing_and_says_so(
    town: Town, rolls: dict[str, Path]
) -> None:
    _applied(rolls["good"], town.u("clerk"))
    events = AuditEvent.objects.count()
    again = services.preview(read_parcels(rolls["good"]))
    assert again.previous is not None and "already imported" in again.already_imported_message()
    with pytest.raises(Blocked, match="already imported"):
        services.apply(again, town.u("clerk"), ROLL_DATE)
    assert AuditEvent.objects.count() == events and RollImport.objects.count() == 1


def test_an_unchanged_roll_changes_nothing(
    town: Town, rolls: dict[str, Path], tmp_path: Path
) -> None:
    _applied(rolls["good"], town.u("clerk"))
    before, persons = _snapshot(), Person.objects.count()
    events = AuditEvent.objects.count()
    imp = _applied(_other_bytes(rolls["good"], tmp_path), town.u("clerk"), NEXT_DATE)
    assert (imp.new_count, imp.changed_count, imp.unchanged_count) == (0, 0, PARCELS)
    assert (imp.owner_change_count, imp.review_count, imp.persons_created) == (0, 0, 0)
    assert _snapshot() == before and Person.objects.count() == persons
    assert not OwnerChange.objects.exists() and not ParcelReview.objects.exists()
    # the import itself is recorded: one event, nothing else
    assert AuditEvent.objects.count() == events + 1


def test_only_the_importers_import(town: Town, rolls: dict[str, Path]) -> None:
    preview = services.preview(read_parcels(rolls["good"]))
    for name in ("inspector", "viewer", "owner"):
        with pytest.raises(Forbidden):
            services.apply(preview, town.u(name), ROLL_DATE)
    assert not Property.objects.exclude(sbl="").exists()


# --- next year's roll --------------------------------------------------------------------------


def test_next_years_roll_changes_the_300_owners_and_holds_the_split_and_the_merge(
    town: Town, rolls: dict[str, Path], tmp_path: Path
) -> None:
    _applied(rolls["good"], town.u("clerk"))
    before = _snapshot()
    owners_before = dict(Property.objects.values_list("id", "owner_id"))
    imp = _applied(rolls["next"], town.u("clerk"), NEXT_DATE)
    assert imp.owner_change_count == 300 and imp.changed_count == 300
    assert imp.new_count == 0 and imp.review_count == 3  # 2 halves of the split, 1 merged lot
    changes = OwnerChange.objects.all()
    assert changes.count() == 300
    assert {c.effective_on for c in changes} == {NEXT_DATE}
    assert all(owners_before[c.property_id] == c.previous_owner_id for c in changes)
    assert all(c.roll_import_id == imp.pk for c in changes)
    changed = {c.property_id for c in changes}
    after = _snapshot()
    assert set(after) == set(before)  # nothing created, nothing removed
    for pk, values in after.items():
        if pk in changed:
            # only the owner moved (and the time of the change)
            assert values[:-3] == before[pk][:-3] and values[-2] == before[pk][-2]
            assert values[-3] != before[pk][-3]
        else:
            assert values == before[pk], pk
    by_kind = {r.kind: r for r in ParcelReview.objects.all()}
    assert sorted(by_kind) == [ReviewKind.MERGE, ReviewKind.SPLIT]
    split, merge = by_kind[ReviewKind.SPLIT], by_kind[ReviewKind.MERGE]
    assert (len(split.gone), len(split.held)) == (1, 2)
    assert (len(merge.gone), len(merge.held)) == (2, 1)
    assert not Retirement.objects.exists()

    # the same roll again (other bytes) while the reviews wait: no review twice, nothing changes
    again = services.preview(read_parcels(_other_bytes(rolls["next"], tmp_path)))
    assert again.counts["changed"] == 0 and again.counts["review"] == 3
    assert {r.existing for r in again.reviews} == {split.pk, merge.pk}
    services.apply(again, town.u("clerk"), NEXT_DATE)
    assert ParcelReview.objects.count() == 2 and OwnerChange.objects.count() == 300

    # the clerk confirms: the new parcels are created, the gone ones retired (and kept)
    reviews.confirm(split, town.u("clerk"), "subdivision map 2026-114")
    reviews.confirm(merge, town.u("engineer"))
    split.refresh_from_db()
    merge.refresh_from_db()
    assert split.state == merge.state == ReviewState.CONFIRMED and len(split.created) == 2
    retired = set(Retirement.objects.values_list("property_id", flat=True))
    assert retired == {g["property"] for g in split.gone + merge.gone}
    assert Property.objects.filter(pk__in=retired).count() == 3
    assert {p.sbl for p in Property.objects.filter(pk__in=split.created + merge.created)} == {
        h["sbl"] for h in split.held + merge.held
    }
    with pytest.raises(Blocked):
        reviews.reject(split, town.u("clerk"))
    # next time the roll is read, nothing is left to review
    third = services.preview(read_parcels(_other_bytes(rolls["next"], tmp_path, 2)))
    assert (
        third.previous is None
        and third.reviews == []
        and third.counts["unchanged"] == PARCELS - 3 + 3
    )
    assert third.counts["new"] == third.counts["changed"] == 0


def test_a_rejected_review_changes_nothing(town: Town, rolls: dict[str, Path]) -> None:
    _applied(rolls["good"], town.u("clerk"))
    _applied(rolls["next"], town.u("clerk"), NEXT_DATE)
    count = Property.objects.count()
    review = ParcelReview.objects.get(kind=ReviewKind.SPLIT)
    with pytest.raises(Forbidden):
        reviews.reject(review, town.u("viewer"))
    reviews.reject(review, town.u("clerk"), "the subdivision is not filed yet")
    review.refresh_from_db()
    assert review.state == ReviewState.REJECTED and review.note
    assert Property.objects.count() == count and not Retirement.objects.exists()
    assert AuditEvent.objects.filter(action="reject_parcel_review").count() == 1


def test_a_notice_served_before_the_sale_still_names_the_owner_it_was_served_on(
    town: Town, rolls: dict[str, Path]
) -> None:
    violation = served(town)  # the owner's restaurant, on the parcel 100-03
    prop = town.owner_restaurant.building.property
    read = read_parcels(rolls["good"])
    first = read.parcels.row(0, named=True)
    # the parcel entered by hand is found on the roll by its tax parcel id
    Property.objects.filter(pk=prop.pk).update(parcel_id=first["parcel_id"])
    documents = {d.pk: d.sha256 for d in IssuedDocument.objects.all()}
    assert documents  # the notice and its certificate of service
    _applied(rolls["good"], town.u("clerk"))
    prop.refresh_from_db()
    assert prop.sbl == first["sbl"] and prop.owner.name == first["owner"]
    change = OwnerChange.objects.get(property=prop)
    assert change.previous_owner == town.owner_person and change.new_owner == prop.owner
    violation.refresh_from_db()
    assert violation.person == town.owner_person  # served on Olive Owner, and still so
    notice = violation.notices.get()
    assert notice.violation.person.name == "Olive Owner" and notice.served_on is not None
    assert {d.pk: d.sha256 for d in IssuedDocument.objects.all()} == documents


# --- districts ---------------------------------------------------------------------------------


def test_districts_give_the_parcels_their_service_areas(town: Town, rolls: dict[str, Path]) -> None:
    _applied(rolls["good"], town.u("clerk"))
    preview = districts.preview_districts(read_districts(rolls["districts"]))
    assert preview.ok and preview.counts["new"] == len(DISTRICTS)
    imp = districts.apply_districts(preview, town.u("engineer"))
    assert imp.new_count == len(DISTRICTS) and imp.areas_assigned > 0
    codes = dict(ServiceArea.objects.values_list("id", "code"))
    read = read_parcels(rolls["good"])
    # the generator says which district each lot lies in (by its corner in State Plane feet)
    placed = dict(Property.objects.exclude(sbl="").values_list("sbl", "service_area_id"))
    wanted = _expected(read)
    assert {sbl: codes.get(a) for sbl, a in placed.items()} == wanted
    assert AuditEvent.objects.filter(action="import_districts").count() == 1
    # a later roll places its parcels by the boundaries (the hand-entered ones keep theirs)
    assert Property.objects.get(pk=town.owner_home.pk).service_area == town.served


def _expected(read: Any) -> dict[str, str | None]:
    from pyproj import Transformer

    to_feet = Transformer.from_crs("EPSG:4326", "EPSG:2260", always_xy=True)
    x, y = to_feet.transform(read.parcels["lon"].to_numpy(), read.parcels["lat"].to_numpy())
    return {
        sbl: expected_district(float(a), float(b))
        for sbl, a, b in zip(read.parcels["sbl"], x, y, strict=True)
    }


def test_a_roll_after_the_districts_places_new_parcels(town: Town, rolls: dict[str, Path]) -> None:
    preview = districts.preview_districts(read_districts(rolls["districts"]))
    districts.apply_districts(preview, town.u("engineer"))
    imp = _applied(rolls["good"], town.u("clerk"))
    assert imp.areas_assigned == sum(
        v is not None for v in _expected(read_parcels(rolls["good"])).values()
    )
    assert (
        Property.objects.exclude(sbl="").filter(service_area__isnull=False).count()
        == imp.areas_assigned
    )


def test_a_district_row_refused_refuses_the_file(town: Town, rolls: dict[str, Path]) -> None:
    from sewer_io.parcels import DistrictFile, Refusal

    good = read_districts(rolls["districts"])
    shape = good.districts["geometry"][0]
    frame = pl.DataFrame(
        {
            "row": [1, 2, 3, 4],
            "code": ["phase-1", "phase-1", "no good!", "x" * 41],
            "name": ["Phase I", "again", "bad", "long"],
            "geometry": [shape] * 4,
        }
    )
    planted = (Refusal(5, "geometry", "the polygon is empty"),)
    read = DistrictFile("d.geojson", "0" * 64, "EPSG:2260", 5, frame, planted)
    preview = districts.preview_districts(read)
    assert {(r, f) for r, f, _ in preview.refusals} == {
        (2, "code"),
        (3, "code"),
        (4, "code"),
        (5, "geometry"),
    }
    assert any("the same code as row 1" in m for _, _, m in preview.refusals)
    assert preview.counts["changed"] == 1  # phase-1 is the town's: its boundary is new
    with pytest.raises(Blocked, match="4 row errors"):
        districts.apply_districts(preview, town.u("clerk"))
    assert not ServiceArea.objects.exclude(boundary="").exists()


def test_in_an_office_of_several_towns_a_new_parcel_takes_its_areas_town(
    two_towns: Town, rolls: dict[str, Path]
) -> None:
    """The districts place the roll's new parcels; each belongs to its district's town (the
    rest to the primary). The roll touches every town's parcels: a clerk of one town may not
    import it, a clerk of both may."""
    from .jurisdiction_support import HOME, OTHER

    preview = districts.preview_districts(read_districts(rolls["districts"]))
    districts.apply_districts(preview, two_towns.u("superintendent"))
    other_area = ServiceArea.objects.filter(boundary__gt="").order_by("code").first()
    assert other_area is not None
    ServiceArea.objects.filter(pk=other_area.pk).update(jurisdiction=OTHER)
    roll = services.preview(read_parcels(rolls["good"]))
    with pytest.raises(Forbidden):
        services.apply(roll, two_towns.u("hclerk"), ROLL_DATE)
    services.apply(roll, two_towns.u("bothclerk"), ROLL_DATE)
    placed = Property.objects.exclude(sbl="")
    assert placed.filter(service_area=other_area).exists()
    assert set(placed.filter(service_area=other_area).values_list("jurisdiction", flat=True)) == {
        OTHER
    }
    assert set(placed.exclude(service_area=other_area).values_list("jurisdiction", flat=True)) == {
        HOME
    }
