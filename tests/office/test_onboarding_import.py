"""The import of a town's spreadsheet of users and facilities (onboarding): the column mapping
chosen once and kept, each row matched to its parcel (SBL or address) and operator, refused
rows stopping the whole import, unmatched rows queued for review and resolved from the queue,
an operator of several facilities registered once, a re-import changing nothing, an xlsx and
a CSV, the command line, and the pages closed to outside users."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from openpyxl import Workbook

from sewer_cli.main import main
from sewer_office.core.models import AuditEvent
from sewer_office.onboarding.importing import MappingSpec, plan_import
from sewer_office.onboarding.matching import address_key, sbl_key
from sewer_office.onboarding.models import ColumnMapping, FacilityImport, ReviewItem
from sewer_office.onboarding.services import apply_import, dismiss_review_item, save_mapping
from sewer_office.onboarding.spreadsheet import UnusableFile, read_sheet
from sewer_office.onboarding.views import DATA_SUFFIX, HELD
from sewer_office.registry.models import Building, Contact, Establishment, Person

from .factories import Town

pytestmark = pytest.mark.django_db

HEADER = [
    "Facility",
    "Code",
    "Type",
    "Operator",
    "Street",
    "City",
    "State",
    "ZIP",
    "Email",
    "Phone",
    "SBL",
    "Address",
    "Building",
    "Use",
]
ROWS = [
    # row 2: by SBL (the tract's, written with dashes and a dot), a new building on it
    [
        "Tract Bakery",
        "TB-1",
        "Food prep",
        "Valley Foods Group Inc.",
        "77 Market Street",
        "Poughkeepsie",
        "NY",
        "12601",
        "office@valleyfoods.invalid",
        "",
        "6157-02-123.456",
        "",
        "",
        "",
    ],
    # row 3: by address ("Street" for "St", a suite); the same operator, written otherwise
    [
        "Valley Foods Cafe",
        "",
        "Restaurant",
        "Valley Foods Group, Inc",
        "77 Market St",
        "Poughkeepsie",
        "ny",
        "12601",
        "",
        "(845) 555-0133",
        "",
        "100-03 Main Street, Suite 2",
        "",
        "",
    ],
    # row 4: a facility already registered (by its name on the parcel named by its tax map
    # number): its code is added
    ["Otto Plating", "otto-plating", "SIU", "Otto Other", *[""] * 6, "100 04", "", "", ""],
    # row 5: no parcel at that address: to the review queue
    [
        "Ghost Kitchen",
        "GK-1",
        "Restaurant",
        "Ghost Foods LLC",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "1 Nowhere Road",
        "",
        "",
    ],
]
COLUMNS = {
    "facility_name": "Facility",
    "facility_code": "Code",
    "kind": "Type",
    "operator_name": "Operator",
    "mailing_street": "Street",
    "mailing_city": "City",
    "mailing_state": "State",
    "mailing_zip": "ZIP",
    "email": "Email",
    "phone": "Phone",
    "sbl_or_parcel": "SBL",
    "address": "Address",
    "building_name": "Building",
    "building_use": "Use",
}
KINDS = {"Food prep": "food_preparation", "SIU": "industrial", "Restaurant": "restaurant"}


def _csv(rows: list[list[str]] = ROWS, header: list[str] = HEADER) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def _xlsx(rows: list[list[Any]], header: list[str] = HEADER, sheet: str = "Users") -> bytes:
    book = Workbook()
    first = book.active
    assert first is not None
    first.title = "Notes"
    first.append(["This sheet is not the list"])
    ws = book.create_sheet(sheet)
    ws.append(header)
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.fixture
def parcels(town: Town) -> Town:
    """The tract gets its roll keys (SWIS and SBL), the only way its parcel is found by SBL."""
    assert town.tract is not None
    town.tract.swis, town.tract.sbl = "132800", "615702123456"
    town.tract.save()
    return town


def _counts() -> dict[str, int]:
    return {
        "persons": Person.objects.count(),
        "contacts": Contact.objects.count(),
        "buildings": Building.objects.count(),
        "facilities": Establishment.objects.count(),
        "imports": FacilityImport.objects.count(),
        "items": ReviewItem.objects.count(),
        "events": AuditEvent.objects.count(),
    }


def _mapping(town: Town, name: str = "Town list") -> ColumnMapping:
    return save_mapping(
        town.u("clerk"), name=name, header=HEADER, columns=COLUMNS, kind_values=KINDS
    )


# --- matching --------------------------------------------------------------------------------


def test_keys_compare_what_a_clerk_would_call_the_same() -> None:
    assert sbl_key("6158-02-103.848") == sbl_key("6158 02 103848") == "615802103848"
    assert address_key("1000 Route 9, Suite 2") == address_key("1000 RTE. 9") == "1000 rte 9"
    assert address_key("12 Main Street #4") == address_key("12 main st") == "12 main st"
    assert address_key("5 North Road") != address_key("5 South Road")


# --- the pages, step by step -------------------------------------------------------------------


def _upload(client: Any, data: bytes, name: str, sheet: str = "") -> str:
    answer = client.post(
        "/onboarding/import/", {"file": SimpleUploadedFile(name, data), "sheet": sheet}
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    found = re.search(r"/onboarding/import/([0-9a-f]{64})/mapping/", answer["Location"])
    assert found is not None
    return found.group(1)


def _choose_columns(client: Any, digest: str, name: str) -> ColumnMapping:
    url = f"/onboarding/import/{digest}/mapping/"
    page = client.get(url)
    assert page.status_code == 200
    fields = {f"col_{target}": column for target, column in COLUMNS.items()}
    # the kind column is chosen: the page lists its words to be mapped
    listed = client.post(url, {**fields, "name": name, "shown_kind_column": ""})
    assert listed.status_code == 200 and "Food prep" in listed.content.decode()
    words = listed.context["form"].words
    assert set(words) == {"Food prep", "Restaurant", "SIU"}
    kinds = {f"word_{i}": KINDS[w] for i, w in enumerate(words)}
    saved = client.post(url, {**fields, **kinds, "name": name, "shown_kind_column": "Type"})
    assert saved.status_code == 302, saved.content.decode()[:3000]
    mapping = ColumnMapping.objects.get(name=name)
    assert saved["Location"].endswith(f"/onboarding/import/{digest}/preview/?mapping={mapping.pk}")
    return mapping


def test_csv_import_through_the_pages(parcels: Town, login: Any) -> None:
    town = parcels
    client = login("clerk")
    digest = _upload(client, _csv(), "town-list.csv")
    mapping = _choose_columns(client, digest, "Town list")
    assert mapping.columns == COLUMNS
    assert mapping.kind_values == {"food prep": "food_preparation", "siu": "industrial"} | {
        "restaurant": "restaurant"
    }
    preview = client.get(f"/onboarding/import/{digest}/preview/", {"mapping": mapping.pk})
    assert preview.status_code == 200
    plan = preview.context["plan"]
    assert [r.outcome for r in plan.rows] == ["new", "new", "changed", "unmatched"]
    before = _counts()
    # a preview posted back is never trusted: the file is planned again; a stale one is shown
    stale = client.post(
        f"/onboarding/import/{digest}/apply/", {"mapping": mapping.pk, "fingerprint": "0" * 64}
    )
    assert stale.status_code == 409 and _counts() == before
    applied = client.post(
        f"/onboarding/import/{digest}/apply/",
        {"mapping": mapping.pk, "fingerprint": preview.context["fingerprint"]},
    )
    assert applied.status_code == 302
    imp = FacilityImport.objects.get()
    assert applied["Location"] == f"/onboarding/imports/{imp.pk}/"
    assert (imp.row_count, imp.new_count, imp.changed_count, imp.queued_count) == (4, 2, 1, 1)
    assert imp.persons_new_count == 1 and imp.source_name == "town-list.csv"
    assert HELD.read(digest, suffix=DATA_SUFFIX) is None  # the kept file is gone once applied
    event = AuditEvent.objects.get(action="import_facilities")
    assert event.after is not None
    assert event.after["sha256"] == digest and event.after["new_count"] == 2

    # SBL match: the tract, a new building of the kind's use (food preparation → food service)
    bakery = Establishment.objects.get(code="TB-1")
    assert bakery.building.property == town.tract
    assert (bakery.building.name, bakery.building.use) == ("Tract Bakery", "food_service")
    assert bakery.kind == "food_preparation"
    # address match: the shop's only building
    cafe = Establishment.objects.get(name="Valley Foods Cafe")
    assert cafe.building == town.owner_shop_building
    # one operator for both, with its mailing address and both contacts
    assert bakery.operator == cafe.operator
    valley = bakery.operator
    assert (valley.name, valley.mail_zip, valley.mail_state) == (
        "Valley Foods Group Inc.",
        "12601",
        "NY",
    )
    assert sorted(valley.contacts.values_list("kind", flat=True)) == ["email", "phone"]
    assert Person.objects.filter(name__startswith="Valley Foods").count() == 1
    # the registered facility matched and changed, audited
    assert town.other_plant is not None
    town.other_plant.refresh_from_db()
    assert town.other_plant.code == "OTTO-PLATING"
    assert town.other_plant.operator == town.other_person
    assert AuditEvent.objects.filter(
        action="change_from_import", object_id=str(town.other_plant.pk)
    ).exists()
    # the unmatched row waits in the queue
    item = ReviewItem.objects.get()
    assert (item.row, item.state, item.values["facility_name"]) == (5, "open", "Ghost Kitchen")
    assert "no parcel at" in item.reason
    assert not Establishment.objects.filter(code="GK-1").exists()
    assert not Person.objects.filter(name="Ghost Foods LLC").exists()
    page = client.get(f"/onboarding/imports/{imp.pk}/")
    assert page.status_code == 200 and "Ghost Kitchen" in page.content.decode()
    queue = client.get("/onboarding/review/")
    assert queue.status_code == 200 and list(queue.context["page"]) == [item]
    assert client.get("/onboarding/review/", {"format": "csv"})["Content-Type"].startswith(
        "text/csv"
    )

    # resolved from the queue: the clerk picks the parcel, the facility is created there
    assert town.phase3_lot is not None
    resolved = client.post(
        f"/onboarding/review/{item.pk}/resolve/", {"property": str(town.phase3_lot.pk)}
    )
    assert resolved.status_code == 302
    item.refresh_from_db()
    ghost = Establishment.objects.get(code="GK-1")
    assert item.state == "resolved" and item.resolved_establishment == ghost
    assert item.resolved_property == town.phase3_lot and item.decided_by == town.u("clerk")
    assert ghost.building.property == town.phase3_lot and ghost.operator.name == "Ghost Foods LLC"
    assert (
        client.post(f"/onboarding/review/{item.pk}/dismiss/", {"reason": "late"}).status_code == 400
    )  # decided once

    # the same file again changes nothing: every row matched unchanged or queued before
    before = _counts()
    again = _upload(client, _csv(), "town-list.csv")
    page = client.get(f"/onboarding/import/{again}/mapping/")
    assert page.context["saved"] == mapping  # the mapping is found by the file's header
    preview = client.get(f"/onboarding/import/{again}/preview/", {"mapping": mapping.pk})
    # (the queued row's facility now exists: it is matched by its code)
    assert [r.outcome for r in preview.context["plan"].rows] == ["unchanged"] * 4
    refused = client.post(
        f"/onboarding/import/{again}/apply/",
        {"mapping": mapping.pk, "fingerprint": preview.context["fingerprint"]},
    )
    assert refused.status_code == 409 and "nothing to change" in refused.content.decode()
    assert _counts() == before


def test_a_bad_kind_refuses_the_whole_file_by_row_and_field(parcels: Town, login: Any) -> None:
    rows = [list(r) for r in ROWS]
    rows[1][2] = "Take-out"
    rows[2][7] = "1259"  # a ZIP code of four digits
    client = login("clerk")
    mapping = _mapping(parcels)
    digest = _upload(client, _csv(rows), "bad.csv")
    preview = client.get(f"/onboarding/import/{digest}/preview/", {"mapping": mapping.pk})
    assert preview.status_code == 400
    plan = preview.context["plan"]
    errors = {(r, f) for r, f, _m in plan.errors}
    assert errors == {(3, "Type"), (4, "ZIP")}
    message = next(m for r, f, m in plan.errors if f == "Type")
    assert "'Take-out' is not a kind" in message and "Town list" in message
    before = _counts()
    answer = client.post(
        f"/onboarding/import/{digest}/apply/",
        {"mapping": mapping.pk, "fingerprint": preview.context["fingerprint"]},
    )
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "bad.csv" in body and "Take-out" in body and "refused, nothing written" in body
    assert _counts() == before  # nothing written, not even the valid rows nor the queue


def test_an_xlsx_sheet_with_numbers_in_its_cells(parcels: Town, login: Any) -> None:
    rows: list[list[Any]] = [list(r) for r in ROWS[:2]]
    rows[0][7] = 12601  # a ZIP code typed as a number
    rows[1][7] = 12601.0
    client = login("engineer")
    mapping = _mapping(parcels)
    refused = client.post(
        "/onboarding/import/",
        {"file": SimpleUploadedFile("list.xlsx", _xlsx(rows)), "sheet": "Sheet9"},
    )
    assert refused.status_code == 400 and "no sheet named" in refused.content.decode()
    digest = _upload(client, _xlsx(rows), "list.xlsx", sheet="Users")
    page = client.get(f"/onboarding/import/{digest}/mapping/")
    assert page.context["saved"] == mapping and page.context["sheet"].sheet == "Users"
    preview = client.get(f"/onboarding/import/{digest}/preview/", {"mapping": mapping.pk})
    assert [r.outcome for r in preview.context["plan"].rows] == ["new", "new"]
    client.post(
        f"/onboarding/import/{digest}/apply/",
        {"mapping": mapping.pk, "fingerprint": preview.context["fingerprint"]},
    )
    imp = FacilityImport.objects.get()
    assert (imp.sheet, imp.new_count, imp.imported_by) == ("Users", 2, parcels.u("engineer"))
    valley = Establishment.objects.get(code="TB-1").operator
    assert valley.mail_zip == "12601"
    assert Person.objects.filter(name__startswith="Valley Foods").count() == 1


def test_operators_are_matched_not_duplicated(parcels: Town) -> None:
    """A registered person of the same name and mailing address is the operator (the
    survivor when it was merged), given the contacts it lacked; a namesake elsewhere is not."""
    town = parcels
    clerk = town.u("clerk")
    kept = Person.objects.create(
        name="Valley Foods Group Incorporated",
        mail_street="Attn: Office\n77 Market St.",
        mail_city="Poughkeepsie",
        mail_state="NY",
        mail_zip="12601-0001",
    )
    duplicate = Person.objects.create(name="Valley Foods Group", merged_into=kept)
    Contact.objects.create(person=kept, kind="email", value="OFFICE@valleyfoods.invalid")
    mapping = MappingSpec(name="t", columns=COLUMNS, kind_values=KINDS)
    sheet = read_sheet(_csv(ROWS[:2]), "two.csv")
    plan = plan_import(sheet, mapping)
    assert [r.operator_id for r in plan.rows] == [kept.pk, kept.pk]
    assert not plan.new_persons
    # the e-mail (another case) is not added again; the phone is
    assert plan.rows[0].person_changes == []
    assert plan.rows[1].person_changes == ["operator's phone (845) 555-0133 added"]
    apply_import(sheet, mapping, clerk, digest="d" * 64)
    assert Establishment.objects.filter(operator=kept).count() == 2
    assert not Establishment.objects.filter(operator=duplicate).exists()
    assert kept.contacts.count() == 2
    # a namesake at another address is another person
    rows = [list(ROWS[0])]
    rows[0][0], rows[0][1], rows[0][4], rows[0][7] = "Other Bakery", "OB-1", "1 Elm St", "12590"
    rows[0][10] = "100-01"
    plan = plan_import(read_sheet(_csv(rows), "x.csv"), mapping)
    assert plan.rows[0].new_person is not None and "another mailing address" in " ".join(
        plan.rows[0].notes
    )


def test_parcels_found_by_sbl_or_address_exactly_once(parcels: Town) -> None:
    town = parcels
    assert town.other_home is not None and town.tract is not None
    town.other_home.address = "100-01 Main St"  # two parcels at one address now
    town.other_home.save()
    mapping = MappingSpec(name="t", columns=COLUMNS, kind_values=KINDS)
    rows = [list(ROWS[3]) for _ in range(4)]
    for i, (code, sbl, address) in enumerate(
        [
            ("A-1", "", "100-01 Main Street"),  # two parcels: unmatched, says so
            ("A-2", "132800 6157-02-123456", ""),  # SWIS + SBL
            ("A-3", "9999-99", "Tract A"),  # an SBL found nowhere: unmatched despite the address
            ("A-4", "", ""),
        ]
    ):
        rows[i][0], rows[i][1], rows[i][10], rows[i][11] = f"Kitchen {i}", code, sbl, address
    plan = plan_import(read_sheet(_csv(rows), "p.csv"), mapping)
    outcomes = [(r.outcome, r.property_id, r.reason) for r in plan.rows]
    assert outcomes[0][:2] == ("unmatched", None) and "2 parcels at that address" in outcomes[0][2]
    assert outcomes[1][:2] == ("new", town.tract.pk)
    assert outcomes[2][:2] == ("unmatched", None)
    assert "no parcel with the SBL" in outcomes[2][2] and "Tract A" in outcomes[2][2]
    assert outcomes[3][0] == "unmatched" and "neither an SBL nor an address" in outcomes[3][2]


def test_rows_refused_for_what_they_hold(parcels: Town) -> None:
    town = parcels
    assert town.owner_restaurant is not None
    town.owner_restaurant.code = "OLIVE-1"
    town.owner_restaurant.save()
    mapping = MappingSpec(name="t", columns=COLUMNS, kind_values=KINDS)
    base = list(ROWS[0])
    rows = [list(base) for _ in range(6)]
    rows[0][0] = ""  # facility name missing
    rows[1][1] = "OLIVE-1"  # a code registered at another parcel
    rows[2][8] = "not an address"  # e-mail
    rows[3][6] = "XX"  # state
    rows[4][1], rows[5][1] = "DUP-1", "DUP-1"  # one code on two rows
    rows[4][0], rows[5][0] = "First", "Second"
    plan = plan_import(read_sheet(_csv(rows), "r.csv"), mapping)
    errors = {(r, f): m for r, f, m in plan.errors}
    assert set(errors) == {(2, "Facility"), (3, "Code"), (4, "Email"), (5, "State"), (7, "Code")}
    assert "missing" in errors[(2, "Facility")]
    assert "100-03" in errors[(3, "Code")] and "OLIVE-1" in errors[(3, "Code")]
    assert "also on row 6" in errors[(7, "Code")]
    assert plan.refused and [r.outcome for r in plan.rows].count("refused") == 5


def test_unusable_files_are_refused_naming_the_file() -> None:
    for data, said in (
        (b"", "empty file"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64, "old Excel file"),
        (b"PK\x03\x04garbage", "damaged ZIP"),
        (b"Name,Name\nx,y\n", "named twice"),
        (b"\xff\xfeN\x00", "UTF-16"),
        (b",,\n1,2,3\n", "no column names"),
    ):
        with pytest.raises(UnusableFile, match=said) as caught:
            read_sheet(data, "town.csv")
        assert "town.csv" in str(caught.value)


def test_mappings_kept_edited_and_deleted(parcels: Town, login: Any) -> None:
    client = login("superintendent")
    mapping = _mapping(parcels)
    listing = client.get("/onboarding/mappings/")
    assert listing.status_code == 200 and "Town list" in listing.content.decode()
    assert client.get("/onboarding/mappings/", {"format": "xlsx"}).status_code == 200
    page = client.get(f"/onboarding/mappings/{mapping.pk}/")
    assert page.status_code == 200
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v}
    data.update({"new_word_0": "Take-out", "new_kind_0": "restaurant"})
    data["col_phone"] = ""  # the phone column no longer read
    answer = client.post(f"/onboarding/mappings/{mapping.pk}/", data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    mapping.refresh_from_db()
    assert mapping.kind_values["take-out"] == "restaurant" and "phone" not in mapping.columns
    assert AuditEvent.objects.filter(action="change_column_mapping").count() == 1
    # a required field without its column is refused on its field
    data["col_kind"] = ""
    refused = client.post(f"/onboarding/mappings/{mapping.pk}/", data)
    assert refused.status_code == 400 and refused.context["form"].errors["col_kind"]
    assert client.get(f"/onboarding/mappings/{mapping.pk}/delete/").status_code == 200
    assert client.post(f"/onboarding/mappings/{mapping.pk}/delete/").status_code == 302
    assert not ColumnMapping.objects.exists()
    assert AuditEvent.objects.filter(action="delete_column_mapping").count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the guards exist on PostgreSQL")
def test_a_decided_item_and_an_import_are_guarded_below_the_application(parcels: Town) -> None:
    mapping = MappingSpec.of(_mapping(parcels))
    sheet = read_sheet(_csv(ROWS[3:]), "one.csv")
    imp = apply_import(sheet, mapping, parcels.u("clerk"), digest="e" * 64).facility_import
    item = ReviewItem.objects.get()
    dismiss_review_item(item, "closed in 2019", parcels.u("clerk"))

    def refused(sql: str, pk: int) -> str:
        with (
            pytest.raises(IntegrityError) as caught,
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [pk])
        return str(caught.value)

    assert "state cannot change" in refused(
        "UPDATE onboarding_reviewitem SET state = 'open' WHERE id = %s", item.pk
    )
    assert "decision_note cannot change" in refused(
        "UPDATE onboarding_reviewitem SET decision_note = 'x' WHERE id = %s", item.pk
    )
    assert "never deleted" in refused("DELETE FROM onboarding_reviewitem WHERE id = %s", item.pk)
    assert "outcomes cannot change" in refused(
        "UPDATE onboarding_facilityimport SET outcomes = '[]' WHERE id = %s", imp.pk
    )
    assert "sha256 cannot change" in refused(
        "UPDATE onboarding_facilityimport SET sha256 = 'x' WHERE id = %s", imp.pk
    )


def test_dismissed_with_a_reason(parcels: Town, login: Any) -> None:
    client = login("clerk")
    mapping = MappingSpec.of(_mapping(parcels))
    apply_import(
        read_sheet(_csv(ROWS[3:]), "one.csv"), mapping, parcels.u("clerk"), digest="e" * 64
    )
    item = ReviewItem.objects.get()
    assert client.get(f"/onboarding/review/{item.pk}/").status_code == 200
    assert client.post(f"/onboarding/review/{item.pk}/dismiss/", {"reason": ""}).status_code == 400
    answer = client.post(f"/onboarding/review/{item.pk}/dismiss/", {"reason": "closed in 2019"})
    assert answer.status_code == 302
    item.refresh_from_db()
    assert (item.state, item.decision_note) == ("dismissed", "closed in 2019")
    assert not client.get("/onboarding/review/").context["page"].object_list
    assert list(client.get("/onboarding/review/", {"state": "dismissed"}).context["page"]) == [item]


def test_the_command_line(parcels: Town, tmp_path: Path, capsys: Any) -> None:
    good = tmp_path / "list.csv"
    good.write_bytes(_csv())
    spec = tmp_path / "mapping.json"
    spec.write_text(json.dumps({"name": "Town list", "columns": COLUMNS, "kind_values": KINDS}))
    assert main(["import-facilities", str(good), "--mapping-file", str(spec), "--dry-run"]) == 0
    assert "would apply — 2 new, 1 changed" in capsys.readouterr().out
    assert not FacilityImport.objects.exists()
    assert main(["import-facilities", str(good), "--mapping", "Town list"]) == 2  # not kept
    _mapping(parcels)
    args = ["import-facilities", str(good), "--mapping", "Town list", "--as", "clerk"]
    assert main([*args, "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["counts"]["new"] == 2 and body["import_id"] == FacilityImport.objects.get().pk
    assert main(args) == 0
    assert "nothing to change" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_bytes(_csv([[*ROWS[0][:2], "Take-out", *ROWS[0][3:]]]))
    assert main(["import-facilities", str(bad), "--mapping", "Town list"]) == 1
    assert "refused, nothing written (1 error)" in capsys.readouterr().out
    assert main(["import-facilities", str(tmp_path / "missing.csv"), "--mapping", "x"]) == 2
    assert main([*args[:-2], "--as", "owner"]) == 1  # not an outside user's to import


def test_the_example_spreadsheet_fits_the_demo_town_mapping() -> None:
    """examples/facilities.csv is read with examples/facilities-mapping.json: every column the
    mapping names is in the file, and every word of its kind column is mapped."""
    root = Path(__file__).resolve().parents[2] / "examples"
    sheet = read_sheet((root / "facilities.csv").read_bytes(), "facilities.csv")
    spec = MappingSpec.from_snapshot(json.loads((root / "facilities-mapping.json").read_text()))
    assert not spec.missing_in(sheet.header)
    assert all(spec.kind_of(w) for w in sheet.values(spec.columns["kind"]))


def test_the_example_spreadsheet_on_the_demo_town(demo_town: Any) -> None:
    """What the lead's walk in the browser uploads: on the demo town, examples/facilities.csv
    matches Acme Plating (unchanged) and the Hudson Valley Diner (its code and phone added),
    creates four facilities (one operator of two), and queues the brewery for review."""
    demo_town(seed=4, anchor=timezone.localdate())
    root = Path(__file__).resolve().parents[2] / "examples"
    sheet = read_sheet((root / "facilities.csv").read_bytes(), "facilities.csv")
    spec = MappingSpec.from_snapshot(json.loads((root / "facilities-mapping.json").read_text()))
    applied = apply_import(sheet, spec, None, digest="f" * 64)
    assert [r.outcome for r in applied.plan.rows] == [
        "unchanged",
        "changed",
        "new",
        "new",
        "new",
        "new",
        "unmatched",
    ]
    assert len(applied.plan.new_persons) == 2
    assert Establishment.objects.get(code="HV-DINER").name == "Hudson Valley Diner"
    item = ReviewItem.objects.get()
    assert item.values["facility_name"] == "Wappinger Falls Brewing"
