"""Laboratory mappings in the office: made from a sample file on the pages (read, check, save,
without script), edited and deleted with their audit events, chosen on the import page, and
named on the command line (``check --mapping NAME`` and ``import-results --mapping NAME``)
with the office's database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_cli.main import main
from sewer_io import lab_mapping as layouts
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent
from sewer_office.monitoring import lab_checks, lab_import, mappings, samplers
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import LabImport, LabMapping, LabResult
from sewer_office.monitoring.services import delete_lab_mapping, save_lab_mapping
from tests.lab_edd import EDD, RECORDS, without_row_text, write_both

from .factories import Town
from .monitoring_factories import facilities

ROOT = Path(__file__).resolve().parents[2]


def sample(name: str = "hvl.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, EDD.read_bytes(), content_type="text/csv")


def form_data(response: Any) -> dict[str, Any]:
    """What the browser would send back: every field of the page's form, as shown."""
    form = response.context["form"]
    data: dict[str, Any] = {}
    for name in form.fields:
        if name == "sample":
            continue
        value = form[name].value()
        data[name] = "" if value is None else value
    return data


def test_a_mapping_made_from_a_sample_file(town: Town, login: Any) -> None:
    facilities(town)
    c = login("clerk")
    assert c.get("/monitoring/mappings/new/").status_code == 200
    read = c.post(
        "/monitoring/mappings/new/",
        {"action": "read", "name": "hudson-valley", "laboratory": "Hudson Valley Labs",
         "sample": sample(), "timezone": "America/New_York"},
    )  # fmt: skip
    assert read.status_code == 200
    page = read.content.decode()
    assert "dates, ambiguous: 03/02/2026 07:00 could be 2 March or 3 February" in page
    assert "7440-50-8 → copper" in page
    assert "qualifier codes: J, U" in page
    assert "the column &#x27;Analysis Date&#x27; reads only as %m/%d/%Y %H:%M" in page
    data = form_data(read)
    # the draft chose the columns from the headers, and no date format (it is ambiguous)
    assert data["col_sample_id"] == "Sample ID" and data["col_cas_number"] == "CAS Number"
    assert data["date_format"] == ""
    assert data[f"q_{b'U'.hex()}"] == "non-detect" and data[f"q_{b'J'.hex()}"] == "estimated"
    assert data["sample_text"].startswith("Sample ID,Collection Date")
    # Check without a date format: the file is refused, the column named
    checked = c.post("/monitoring/mappings/new/", {**data, "action": "check"})
    assert checked.status_code == 400
    assert "no date_format: choose %m/%d/%Y %H:%M or %d/%m/%Y %H:%M" in checked.content.decode()
    data.update({"date_format": "%m/%d/%Y %H:%M", "const_facility": "OTHER-PLANT"})
    checked = c.post("/monitoring/mappings/new/", {**data, "action": "check"})
    assert checked.status_code == 200
    check = checked.context["check"]
    assert check.total == 55 and check.errors == []
    first = check.rows[0]
    assert first["sampled_at"] == "2026-03-02T07:00:00-05:00" and first["parameter"] == "bod5"
    assert first["facility"] == "OTHER-PLANT"
    assert {r["parameter"] for r in check.rows} >= {"copper", "zinc", "ph", "tss"}
    assert not LabMapping.objects.exists()  # checking stores nothing
    # a code without a meaning: its rows are refused, by row and field
    refused = c.post(
        "/monitoring/mappings/new/", {**data, f"q_{b'J'.hex()}": "", "action": "check"}
    )
    assert [(r, f) for r, f, _m in refused.context["check"].errors] == [(20, "qualifier")]
    saved = c.post("/monitoring/mappings/new/", {**data, "action": "save"})
    assert saved.status_code == 302
    m = LabMapping.objects.get()
    assert saved["Location"] == f"/monitoring/mappings/{m.pk}/"
    assert (m.name, m.laboratory, m.created_by, m.updated_by) == (
        "hudson-valley", "Hudson Valley Labs", town.u("clerk"), town.u("clerk"),
    )  # fmt: skip
    stored = mappings.as_layout(m)
    assert stored.date_format == "%m/%d/%Y %H:%M"
    assert stored.constants == {"facility": "OTHER-PLANT"}
    assert stored.qualifiers == {"J": layouts.Meaning.ESTIMATED, "U": layouts.Meaning.NON_DETECT}
    event = AuditEvent.objects.get(action="create_lab_mapping")
    assert event.after is not None and event.after["mapping"]["name"] == "hudson-valley"
    detail = c.get(f"/monitoring/mappings/{m.pk}/")
    assert "date_format: '%m/%d/%Y %H:%M'" in detail.context["yaml"]

    # imported with it: the import page's select, all rows stored, the mapping kept
    s = login("superintendent")
    page = s.get("/monitoring/import/")
    assert (f"office:{m.pk}", "hudson-valley (Hudson Valley Labs)") in page.context["form"].fields[
        "mapping"
    ].choices
    done = s.post(
        "/monitoring/import/", {"file": sample("hvl-march.csv"), "mapping": f"office:{m.pk}"}
    )
    assert done.status_code == 302, done.context["form"].errors if done.context else ""
    imp = LabImport.objects.get()
    assert imp.result_count == 55 and imp.mapping["name"] == "hudson-valley"
    copper = LabResult.objects.get(event__sample_id="AP-260304C", parameter="copper")
    assert copper.sampled_at.isoformat() == "2026-03-04T12:00:00+00:00"
    chromium = LabResult.objects.get(event__sample_id="AP-260304C", parameter="chromium")
    assert (chromium.qualifier, chromium.reporting_limit) == ("U", "0.02")
    assert AuditEvent.objects.get(action="import_results").after["mapping"] == "hudson-valley"


def test_a_mapping_edited_and_deleted_with_its_history(town: Town, login: Any) -> None:
    c = login("engineer")
    data = layouts.preset("generic-edd").to_dict()
    m = save_lab_mapping(town.u("engineer"), layouts.LabMapping.from_dict({**data, "name": "lab"}))
    edit = c.get(f"/monitoring/mappings/{m.pk}/edit/")
    assert edit.status_code == 200
    posted = form_data(edit)
    assert posted["col_sampled_at"] == "Collection Date"
    assert posted["date_format"] == "%m/%d/%Y %H:%M"
    assert posted[f"q_{b'UJ'.hex()}"] == "non-detect"
    assert posted["optional"] == ["facility", "analyzed_at", "sampling_point"]
    posted.update({"laboratory": "Dutchess Labs", "date_format": "%d/%m/%Y %H:%M"})
    saved = c.post(f"/monitoring/mappings/{m.pk}/edit/", {**posted, "action": "save"})
    assert saved.status_code == 302
    m.refresh_from_db()
    assert m.laboratory == "Dutchess Labs"
    assert mappings.as_layout(m) == layouts.LabMapping.from_dict(
        {**data, "name": "lab", "laboratory": "Dutchess Labs", "date_format": "%d/%m/%Y %H:%M"}
    )  # nothing else changed by the round trip through the page
    change = AuditEvent.objects.get(action="change_lab_mapping")
    assert change.before is not None and change.after is not None
    assert (change.before["laboratory"], change.after["laboratory"]) == ("", "Dutchess Labs")
    # a name that is a preset's, or another mapping's, is refused on the form
    other = save_lab_mapping(
        town.u("engineer"), layouts.LabMapping.from_dict({**data, "name": "x"})
    )
    for name, message in (("generic-edd", "is the name of a preset"), ("x", "already exists"),
                          ("lab.yaml", "not a file name")):  # fmt: skip
        r = c.post(f"/monitoring/mappings/{m.pk}/edit/", {**posted, "name": name, "action": "save"})
        assert r.status_code == 400 and message in r.context["form"].errors["name"][0]
    assert c.get(f"/monitoring/mappings/{other.pk}/delete/").status_code == 200
    gone = c.post(f"/monitoring/mappings/{other.pk}/delete/")
    assert gone.status_code == 302 and not LabMapping.objects.filter(pk=other.pk).exists()
    deleted = AuditEvent.objects.get(action="delete_lab_mapping")
    assert deleted.before is not None and deleted.before["name"] == "x"


def test_a_form_error_names_its_field(town: Town, login: Any) -> None:
    c = login("superintendent")
    r = c.post(
        "/monitoring/mappings/new/",
        {"action": "save", "name": "bad", "timezone": "Nowhere/Land", "col_sample_id": "",
         "const_value": "", "date_format": "%d/%Y"},
    )  # fmt: skip
    assert r.status_code == 400
    errors = r.context["form"].errors
    assert "is not a time zone" in errors["timezone"][0]
    assert "has no month" in errors["date_format"][0]
    assert not LabMapping.objects.exists()


def test_services_check_the_role(town: Town) -> None:
    mapping = layouts.preset("generic-edd")
    named = layouts.LabMapping.from_dict({**mapping.to_dict(), "name": "lab"})
    with pytest.raises(Forbidden):
        save_lab_mapping(town.u("viewer"), named)
    m = save_lab_mapping(None, named)  # the command line acts for the office
    with pytest.raises(Forbidden):
        delete_lab_mapping(town.u("owner"), m)
    with pytest.raises(InvalidInput):
        save_lab_mapping(town.u("clerk"), named)  # the same name again


def test_outside_users_are_offered_the_presets_only(town: Town, login: Any) -> None:
    facilities(town)
    data = layouts.preset("generic-edd").to_dict()
    m = save_lab_mapping(None, layouts.LabMapping.from_dict({**data, "name": "office-only"}))
    c = login("owner")
    choices = dict(c.get("/monitoring/import/").context["form"].fields["mapping"].choices)
    assert "preset:generic-edd" in choices and f"office:{m.pk}" not in choices
    r = c.post("/monitoring/import/", {"file": sample(), "mapping": f"office:{m.pk}"})
    assert r.status_code == 400 and not LabImport.objects.exists()


def test_the_office_columns_are_the_imports(town: Town) -> None:
    assert set(layouts.OFFICE_COLUMNS) == {
        "sampling_point",
        *lab_checks.CUSTODY_TIMES,
        *lab_checks.CUSTODY_TEXT,
        samplers.COLUMN,
    }


def _office_mapping(name: str) -> LabMapping:
    data = layouts.preset("generic-edd").to_dict()
    return save_lab_mapping(None, layouts.LabMapping.from_dict({**data, "name": name}))


def test_check_names_an_office_mapping(town: Town, tmp_path: Path, capsys: Any) -> None:
    """``sewer-use check --mapping NAME`` with the office's database: the same findings as the
    project's own layout for the same results."""
    _office_mapping("acme-lab")
    own, lab = write_both(tmp_path)
    limits = ["--limits", str(ROOT / "examples" / "permit-limits.csv"), "--format", "json"]
    assert main(["check", str(own), *limits]) == 1
    mine = json.loads(capsys.readouterr().out)
    assert main(["check", str(lab), "--mapping", "acme-lab", *limits]) == 1
    theirs = json.loads(capsys.readouterr().out)
    assert len(mine["results"]) == len(RECORDS) - 2
    assert without_row_text(theirs) == without_row_text(mine)
    assert main(["check", str(lab), "--mapping", "no-such-lab"]) == 2
    assert "no mapping named 'no-such-lab'" in capsys.readouterr().err


def test_import_results_names_a_mapping(town: Town, tmp_path: Path, capsys: Any) -> None:
    facilities(town)
    _office_mapping("other-lab")
    _own, lab = write_both(tmp_path, facility="OTHER-PLANT")
    assert main(["import-results", str(lab), "--mapping", "other-lab", "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    # the mapping's refusal (row 10, a time that never happened) and the engine's (row 11), by
    # the laboratory's file's rows; nothing stored
    assert {(e["row"], e["field"]) for e in body["errors"]} == {
        (10, "sampled_at"),
        (11, "parameter"),
    }
    assert body["rows"] == len(RECORDS) and not LabImport.objects.exists()
    clean = tmp_path / "clean.csv"
    lines = lab.read_text(encoding="utf-8").splitlines()
    clean.write_text("\n".join(lines[:9] + lines[11:]) + "\n", encoding="utf-8")
    assert main(["import-results", str(clean), "--mapping", "generic-edd"]) == 0
    assert "stored 8 result(s)" in capsys.readouterr().out
    imp = LabImport.objects.get()
    assert imp.mapping["name"] == "generic-edd"
    assert main(["import-results", str(clean), "--mapping", "nope.yaml"]) == 2


def test_a_mapping_without_facility_refuses_the_office_import(town: Town) -> None:
    facilities(town)
    data = layouts.preset("generic-edd").to_dict()
    data["optional"] = [c for c in data["optional"] if c != "facility"]
    del data["columns"]["facility"]
    mapping = layouts.LabMapping.from_dict(data)
    with pytest.raises(lab_import.UnusableFile, match="gives no facility"):
        import_lab_file(EDD.read_bytes(), "hvl.csv", town.u("superintendent"), mapping=mapping)
