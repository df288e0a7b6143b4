"""The parcels pages (upload → preview → apply, the reviews, the map) and the command line
(``sewer-use import-parcels`` / ``import-districts``: exit 0, 1, 2 and the JSON's shape)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_cli.main import main
from sewer_office.core.uploads import temporary_directory
from sewer_office.parcels.choices import ReviewKind, ReviewState
from sewer_office.parcels.models import OwnerChange, ParcelReview, RollImport
from sewer_office.registry.models import Property, ServiceArea
from tests.parcel_rolls import bad_rows, next_year, write_districts, write_roll

from .factories import Town

PARCELS = 320


@pytest.fixture(scope="module")
def rolls(tmp_path_factory: Any) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("page-rolls")
    for d in ("bad", "good", "next"):
        (base / d).mkdir()
    good = write_roll(base / "good", parcels=PARCELS, bad_rows=False)
    return {
        "bad": write_roll(base / "bad", parcels=PARCELS),
        "good": good,
        "next": next_year(good, base / "next"),
        "districts": write_districts(base),
    }


@pytest.fixture(autouse=True)
def _own_temporary_directory(settings: Any, tmp_path: Path) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "tmp")


def _upload(path: Path) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, path.read_bytes(), "application/geo+json")


def _sent(preview_page: Any) -> dict[str, str]:
    """The apply form's hidden fields, as the browser sends them back."""
    initial = preview_page.context["apply_form"].initial
    return {k: "" if v is None else str(v) for k, v in initial.items()}


def _waiting() -> list[Path]:
    return sorted(Path(temporary_directory()).glob("parcels-*"))


# --- the command line --------------------------------------------------------------------------


def test_the_command_exits_0_1_2_and_writes_the_json_of_the_contract(
    town: Town, rolls: dict[str, Path], tmp_path: Path, capsys: Any
) -> None:
    assert main(["import-parcels", str(rolls["bad"]), "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert list(body)[:5] == ["new", "changed", "unchanged", "refused", "rows"]
    assert (body["new"], body["changed"], body["unchanged"], body["refused"]) == (PARCELS, 0, 0, 3)
    refused = {(r["row"], r["field"]) for r in body["rows"] if r["outcome"] == "refused"}
    assert refused == set(bad_rows(PARCELS, "geojson").items())
    assert all(r["message"] for r in body["rows"] if r["outcome"] == "refused")
    assert {r["outcome"] for r in body["rows"]} == {"new", "refused"}
    assert body["applied"] is False and not Property.objects.exclude(sbl="").exists()

    assert main(["import-parcels", str(rolls["bad"])]) == 1
    out = capsys.readouterr().out
    row, field = next(iter(bad_rows(PARCELS, "geojson").items()))
    assert f"roll-2026.geojson, row {row}, field {field}: " in out
    assert "refused, nothing applied (3 errors)" in out

    assert main(["import-parcels", str(rolls["good"]), "--dry-run"]) == 0
    assert "would be applied" in capsys.readouterr().out
    assert not RollImport.objects.exists()
    assert main(["import-parcels", str(rolls["good"]), "--as", "clerk", "--roll-date",
                 "2026-03-01"]) == 0  # fmt: skip
    assert "applied as import #" in capsys.readouterr().out
    assert Property.objects.exclude(sbl="").count() == PARCELS
    assert main(["import-parcels", str(rolls["good"]), "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert "already imported" in body["message"] and body["applied"] is False

    assert main(["import-parcels", str(rolls["next"]), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert (body["changed"], body["owner_changes"], body["splits"], body["merges"]) == (
        300,
        300,
        1,
        1,
    )
    changed = [r for r in body["rows"] if r["outcome"] == "changed"]
    assert len(changed) == 300 and all(list(r["changed"]) == ["owner"] for r in changed)
    assert OwnerChange.objects.count() == 300

    junk = tmp_path / "junk.geojson"
    junk.write_text("{not json")
    assert main(["import-parcels", str(junk)]) == 2
    assert "junk.geojson" in capsys.readouterr().err
    assert main(["import-parcels", str(tmp_path / "missing.geojson")]) == 2
    assert capsys.readouterr().err
    assert main(["import-parcels", str(rolls["good"]), "--as", "nobody"]) == 2
    assert main(["import-parcels", str(rolls["good"]), "--as", "viewer"]) == 1

    assert main(["import-districts", str(rolls["districts"]), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["new"] == 3 and body["properties_reassigned"] > 0 and body["applied"]
    assert main(["import-districts", str(rolls["districts"])]) == 1
    assert "already imported" in capsys.readouterr().out
    assert main(["import-districts", str(junk)]) == 2


# --- the pages ---------------------------------------------------------------------------------


def test_upload_preview_and_apply_through_the_pages(
    town: Town, rolls: dict[str, Path], login: Any
) -> None:
    c = login("clerk")
    assert c.get("/parcels/import/").status_code == 200
    r = c.post("/parcels/import/", {"step": "preview", "file": _upload(rolls["bad"]),
                                    "roll_date": "2026-03-01"})  # fmt: skip
    assert r.status_code == 400
    page = r.content.decode()
    for row, field in bad_rows(PARCELS, "geojson").items():
        assert f"roll-2026.geojson, row {row}, field {field}: " in page
    assert 'id="apply"' not in page and not Property.objects.exclude(sbl="").exists()
    assert _waiting() == []  # a refused file is not kept

    r = c.post("/parcels/import/", {"step": "preview", "file": _upload(rolls["good"]),
                                    "roll_date": "2026-03-01"})  # fmt: skip
    assert r.status_code == 200
    page = r.content.decode()
    assert f'id="count-new">{PARCELS}<' in page and 'id="apply"' in page
    assert not Property.objects.exclude(sbl="").exists()  # a preview applies nothing
    [waiting] = _waiting()
    data = {"step": "apply", **_sent(r)}
    # a preview's figures tampered with are not applied: the file is read again
    assert c.post("/parcels/import/", {**data, "seen": "1,2,3,4,5,6"}).status_code == 409
    r = c.post("/parcels/import/", data)
    assert r.status_code == 302 and r["Location"] == "/parcels/"
    assert Property.objects.exclude(sbl="").count() == PARCELS
    assert RollImport.objects.get().imported_by == town.u("clerk")
    assert not waiting.exists()
    # the same preview sent again: the file is gone, nothing happens twice
    assert c.post("/parcels/import/", data).status_code == 400
    assert RollImport.objects.count() == 1
    assert "roll-2026.geojson" in c.get("/parcels/").content.decode()


def test_the_register_changed_since_the_preview_is_said_and_not_applied(
    town: Town, rolls: dict[str, Path], login: Any
) -> None:
    c = login("engineer")
    r = c.post("/parcels/import/", {"step": "preview", "file": _upload(rolls["good"]),
                                    "roll_date": "2026-03-01"})  # fmt: skip
    data = {"step": "apply", **_sent(r)}
    assert main(["import-parcels", str(rolls["good"])]) == 0  # another import meanwhile
    r = c.post("/parcels/import/", data)
    assert r.status_code == 409 and "already imported" in r.content.decode()
    assert RollImport.objects.count() == 1


def test_districts_page_and_the_map(town: Town, rolls: dict[str, Path], login: Any) -> None:
    assert main(["import-parcels", str(rolls["good"])]) == 0
    c = login("superintendent")
    r = c.post("/parcels/districts/import/", {"step": "preview",
                                              "file": _upload(rolls["districts"])})  # fmt: skip
    assert r.status_code == 200 and 'id="count-moves"' in r.content.decode()
    data = {"step": "apply", **_sent(r)}
    assert c.post("/parcels/districts/import/", data).status_code == 302
    assert ServiceArea.objects.exclude(boundary="").count() == 3
    # the map: the districts and the extent first; parcels by the view, at most the cap
    page = c.get("/parcels/map/")
    assert page.status_code == 200 and 'id="parcel-map"' in page.content.decode()
    assert "leaflet.js" in page.content.decode()
    assert "<table" in page.content.decode()  # without JavaScript, the parcels' table
    body = c.get("/parcels/map/data/").json()
    kinds = [f["properties"]["kind"] for f in body["features"]]
    assert kinds == ["district"] * 3 and len(body["extent"]) == 4
    w, s, e, n = body["extent"]
    whole = c.get("/parcels/map/data/", {"bbox": f"{w},{s},{e},{n}"}).json()
    assert whole["in_view"] == PARCELS
    parcels = [f for f in whole["features"] if f["properties"]["kind"] == "parcel"]
    assert len(parcels) == PARCELS and parcels[0]["geometry"]["type"] == "Polygon"
    assert c.get("/parcels/map/data/", {"bbox": "x"}).status_code == 400
    csv = c.get("/parcels/map/", {"format": "csv"})
    assert csv["Content-Type"].startswith("text/csv")
    assert len(csv.content.decode().strip().splitlines()) == PARCELS + 1


def test_the_map_caps_what_one_view_draws(
    town: Town, rolls: dict[str, Path], login: Any, monkeypatch: Any
) -> None:
    from sewer_office.parcels.views import map_pages as views

    assert main(["import-parcels", str(rolls["good"])]) == 0
    monkeypatch.setattr(views, "MAP_PARCELS", 50)
    body = login("viewer").get("/parcels/map/data/", {"bbox": "-75,40,-72,43"}).json()
    assert body["in_view"] == PARCELS and body["cap"] == 50
    assert not [f for f in body["features"] if f["properties"]["kind"] == "parcel"]


def test_a_review_is_confirmed_on_its_page_and_the_property_shows_its_owners(
    town: Town, rolls: dict[str, Path], login: Any
) -> None:
    assert main(["import-parcels", str(rolls["good"]), "--roll-date", "2026-03-01"]) == 0
    assert main(["import-parcels", str(rolls["next"]), "--roll-date", "2027-03-01"]) == 0
    split = ParcelReview.objects.get(kind=ReviewKind.SPLIT)
    c = login("viewer")
    page = c.get(f"/parcels/reviews/{split.pk}/")
    assert page.status_code == 200 and 'id="decide"' not in page.content.decode()
    assert c.post(f"/parcels/reviews/{split.pk}/", {"decision": "confirm"}).status_code == 403
    index = c.get("/parcels/").content.decode()
    assert f"/parcels/reviews/{split.pk}/" in index
    c = login("clerk")
    page = c.get(f"/parcels/reviews/{split.pk}/").content.decode()
    assert 'id="decide"' in page and split.gone[0]["key"] in page
    r = c.post(f"/parcels/reviews/{split.pk}/", {"decision": "confirm", "note": "map 114"})
    assert r.status_code == 302
    split.refresh_from_db()
    assert split.state == ReviewState.CONFIRMED and len(split.created) == 2
    gone = Property.objects.get(pk=split.gone[0]["property"])
    assert (
        "left the roll on 2027-03-01" in c.get(f"/registry/properties/{gone.pk}/").content.decode()
    )
    sold = OwnerChange.objects.select_related("previous_owner", "new_owner").first()
    assert sold is not None
    page = c.get(f"/registry/properties/{sold.property_id}/").content.decode()
    assert 'id="ownership-history"' in page
    assert sold.previous_owner.name in page and sold.new_owner.name in page and "2027-03-01" in page
    # the imports page: the roll's panel, its last import
    imports = c.get("/imports/").content.decode()
    assert 'id="imports-parcels"' in imports and "roll-2027.geojson" in imports
    # decided: the form is gone, a second decision is refused
    assert c.post(f"/parcels/reviews/{split.pk}/", {"decision": "reject"}).status_code == 409
