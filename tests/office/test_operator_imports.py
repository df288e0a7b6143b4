"""The operator's import commands take a file of any size the machine can hold; the upload cap
(``SEWER_USE_MAX_UPLOAD_BYTES``) stays the pages' and the API's, and their refusal by size
names the setting that raises it.

The cap is lowered to a few hundred bytes here so that an ordinary file is "over" it: the same
file the command takes is refused by the page and by the API.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sewer_cli.main import main
from sewer_office.archive.bundle import UnusableFile, read_path
from sewer_office.core.errors import operator_files, upload_cap, upload_refused
from sewer_office.meters.models import Reading
from sewer_office.monitoring.models import LabResult
from sewer_office.onboarding.models import FacilityImport

from .factories import Town
from .monitoring_factories import facilities
from .test_archive_import import DOCS, EVERYTHING, as_dir, prepare
from .test_meters import START, csv_file, day, flow_meter, rows
from .test_onboarding_import import _csv, _mapping, parcels  # noqa: F401  (a fixture)

CAP = 300
SETTING = "SEWER_USE_MAX_UPLOAD_BYTES"


def lab_file(samples: int) -> str:
    """A laboratory file of ``samples`` pH results at OTHER-PLANT (well over :data:`CAP`)."""
    lines = ["sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point"]
    lines += [
        f"S{i},2026-03-{1 + i % 28:02d}T10:{i % 60:02d},grab,pH,7.{i % 10},SU,OTHER-PLANT,CM-1"
        for i in range(samples)
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def low_cap(settings: Any) -> int:
    settings.SEWER_USE_MAX_UPLOAD_BYTES = CAP
    return CAP


def test_the_cap_is_lifted_only_within_the_operators_block(low_cap: int) -> None:
    assert upload_cap() == CAP
    refusal = upload_refused("big.csv", CAP + 1)
    assert refusal is not None and SETTING in refusal and "big.csv: 301 bytes" in refusal
    with operator_files():
        assert upload_cap() is None and upload_refused("big.csv", 10**12) is None
        assert upload_refused("empty.csv", 0) is not None  # an empty file is still refused
    assert upload_cap() == CAP  # and back after the block


def test_import_results_takes_a_file_over_the_cap(
    town: Town, low_cap: int, tmp_path: Path, capsys: Any
) -> None:
    facilities(town)
    path = tmp_path / "county-lab.csv"
    path.write_text(lab_file(40), encoding="utf-8")
    assert path.stat().st_size > 5 * low_cap
    assert main(["import-results", str(path), "--as", "superintendent", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["stored"] is True and body["rows"] == 40
    assert LabResult.objects.count() == 40
    assert upload_cap() == low_cap  # the command's lift does not outlive it


def test_the_page_and_the_api_refuse_the_same_file_naming_the_setting(
    town: Town, low_cap: int, login: Any
) -> None:
    facilities(town)
    data = lab_file(40).encode()
    client = login("superintendent")
    page = client.post(
        "/monitoring/import/", {"file": SimpleUploadedFile("county-lab.csv", data)}, follow=True
    )
    text = page.content.decode()
    assert f"county-lab.csv: {len(data):,} bytes, larger than the {CAP} bytes allowed" in text
    assert SETTING in text
    api = client.post("/api/monitoring/imports/", {"file": SimpleUploadedFile("lab.csv", data)})
    assert api.status_code == 400 and SETTING in api.content.decode()
    assert not LabResult.objects.exists()


def test_import_readings_takes_a_file_over_the_cap(
    town: Town, low_cap: int, tmp_path: Path, capsys: Any, login: Any
) -> None:
    meter = flow_meter(town)
    path = csv_file(tmp_path / "flow.csv", rows(START, day()) + rows(START + timedelta(1), day()))
    assert path.stat().st_size > 10 * low_cap
    assert main(["import-readings", meter.ident, str(path), "--as", "engineer"]) == 0
    assert "Stored 576 readings" in capsys.readouterr().out
    assert Reading.objects.filter(meter=meter).count() == 576
    with path.open("rb") as f:  # the meter's upload page refuses it, naming the setting
        page = login("engineer").post(f"/meters/{meter.pk}/upload/", {"file": f}, follow=True)
    assert SETTING in page.content.decode()
    assert Reading.objects.filter(meter=meter).count() == 576  # nothing more stored


def test_import_facilities_takes_a_file_over_the_cap(
    parcels: Town,  # noqa: F811  (the fixture imported above)
    low_cap: int,
    tmp_path: Path,
    capsys: Any,
) -> None:
    path = tmp_path / "list.csv"
    path.write_bytes(_csv())
    assert path.stat().st_size > low_cap
    _mapping(parcels)
    args = ["import-facilities", str(path), "--mapping", "Town list", "--as", "clerk"]
    assert main([*args, "--format", "json"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["counts"]["new"] == 2
    assert FacilityImport.objects.count() == 1


def test_import_records_takes_files_over_the_cap(
    town: Town, low_cap: int, tmp_path: Path, capsys: Any
) -> None:
    prepare(town)
    folder = as_dir(tmp_path / "past", EVERYTHING, DOCS)
    with pytest.raises(UnusableFile, match=SETTING):  # outside the command: the cap holds
        read_path(folder)
    assert main(["import-records", str(folder), "--dry-run", "--source", "paper files"]) == 0
    assert "would import 16 record(s) of the past" in capsys.readouterr().out
