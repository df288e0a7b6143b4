"""``sewer-use snc-office``: exit 0 none in SNC, 1 some, 2 unusable input; ``flag-overdue``
records late required reports."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from sewer_cli.main import main
from sewer_office.findings.models import Finding
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.models import SNCDetermination

from .factories import Town
from .pretreatment_factories import at, chronic_copper, sup


def test_snc_office_exit_codes_and_json(town: Town, capsys: Any) -> None:
    chronic_copper(town, sius=True)
    assert main(["snc-office", "--period", "2026H1", "--as", "superintendent"]) == 1
    out = capsys.readouterr().out
    assert "Otto Plating" in out and "SNC A" in out and "1 violation(s) opened" in out
    code = main(
        ["snc-office", "--period", "2026H1", "--as", "engineer", "--format", "json",
         "--facility", "OWNER-CAFE"]
    )  # fmt: skip
    assert code == 0
    body = json.loads(capsys.readouterr().out)
    assert body["period"] == {"start": "2026-01-01", "end": "2026-06-30"}
    assert [d["code"] for d in body["determinations"]] == ["OWNER-CAFE"]
    assert body["determinations"][0]["snc"] is False
    assert SNCDetermination.objects.count() == 3
    for argv in (
        ["snc-office", "--period", "2026H3", "--as", "superintendent"],
        ["snc-office", "--period", "2026H1", "--as", "nobody"],
        ["snc-office", "--period", "2026H1", "--as", "clerk"],
        ["snc-office", "--period", "2026H1", "--as", "engineer", "--facility", "NOPE"],
    ):
        assert main(argv) == 2, argv
    err = capsys.readouterr().err
    assert "2026H3" in err and "nobody" in err and "reserved" in err and "NOPE" in err


def test_flag_overdue_records_late_reports(town: Town, capsys: Any) -> None:
    f = chronic_copper(town)
    report_dues.add_requirement(
        sup(town), f.theirs, kind="periodic", first_due=date(2026, 1, 31), at=at("2026-01-02")
    )
    assert main(["flag-overdue", "--date", "2026-02-05"]) == 0
    assert "1 late required report finding(s)" in capsys.readouterr().out
    assert Finding.objects.filter(kind="report_late", establishment=f.theirs).count() == 1
