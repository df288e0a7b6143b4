"""``sewer-use import-results``: exit 0 stored, 1 refused (every row and field), 2 unusable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sewer_cli.main import main
from sewer_office.monitoring.models import LabResult

from .factories import Town
from .monitoring_factories import facilities

GOOD = (
    "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
    "C1,2026-03-02T10:00,grab,pH,5.0,SU,OTHER-PLANT,CM-1\n"
    "C1,2026-03-02T10:00,grab,Temperature,160,°F,OTHER-PLANT,CM-1\n"
)


def test_exit_codes_and_reports(town: Town, tmp_path: Path, capsys: Any) -> None:
    facilities(town)
    good = tmp_path / "good.csv"
    good.write_text(GOOD, encoding="utf-8")
    assert main(["import-results", str(good), "--dry-run"]) == 0
    assert "would store 2 result(s)" in capsys.readouterr().out
    assert LabResult.objects.count() == 0
    assert main(["import-results", str(good), "--as", "superintendent"]) == 0
    out = capsys.readouterr().out
    assert "stored 2 result(s) as import #" in out and "prohibited 1" in out
    assert main(["import-results", str(good), "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["stored"] is False and "already imported" in body["refused"]
    bad = tmp_path / "bad.csv"
    bad.write_text(
        GOOD.replace("C1", "C2").replace("5.0", "x") + "C3,2026-03-02,grab,pH,7,SU,NOPE,\n"
    )
    assert main(["import-results", str(bad), "--format", "json"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert {(e["row"], e["field"]) for e in body["errors"]} == {(2, "value"), (4, "facility")}
    assert main(["import-results", str(bad)]) == 1
    table = capsys.readouterr().out
    assert "refused, nothing stored (2 errors)" in table and "facility" in table
    assert LabResult.objects.count() == 2
    assert main(["import-results", str(tmp_path / "missing.csv")]) == 2
    junk = tmp_path / "junk.csv"
    junk.write_text("a,b\n1,2\n")
    assert main(["import-results", str(junk)]) == 2
    assert "missing required column" in capsys.readouterr().err
    assert main(["import-results", str(good), "--as", "nobody"]) == 2
    assert main(["import-results", str(bad), "--as", "clerk"]) == 1  # not the clerk's to import
