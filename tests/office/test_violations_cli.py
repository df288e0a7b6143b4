"""``sewer-use violations [--open] [--format table|json]`` through the CLI entry point."""

from __future__ import annotations

import json
from typing import Any

from sewer_cli.main import main
from sewer_office.core.services import perform

from .enforcement_factories import opened, overdue, served
from .factories import Town
from .jurisdiction_support import ARTICLE_MEMBER, HOME, all_of_town


def _run(capsys: Any, *argv: str) -> tuple[int, str]:
    code = main(["violations", *argv])
    return code, capsys.readouterr().out


def test_json_lists_every_violation_with_plain_fields(town: Town, capsys: Any) -> None:
    late = overdue(town)  # deadline 2026-01-15, fines accruing since 2026-01-16
    on_time = served(town, mine=False, on="2026-01-05")
    code, out = _run(capsys, "--format", "json")
    assert code == 0
    rows = {r["id"]: r for r in json.loads(out)}
    r = rows[late.pk]
    assert r["facility"] == "Olive's Diner" and r["section"] == "§ 196-19 C(3)"
    assert (r["kind"], r["state"]) == ("result_exceedance", "fines_accruing")
    assert r["notice_deadline"] == "2026-01-15"
    assert r["days_late"] > 0
    assert r["fines_status"] == "accrued, subject to conviction"
    assert r["fines_accrued"] is not None
    assert rows[on_time.pk]["facility"] == "Otto Plating"
    assert set(r) >= {"id", "facility", "section", "kind", "stage", "days_late", "fines_accrued"}


def test_open_filter_and_table(town: Town, capsys: Any) -> None:
    v = opened(town)
    dismissed = opened(town, mine=False, day="2026-01-03")
    perform(dismissed, "dismiss", town.u("superintendent"), reason="wrong sample")
    code, out = _run(capsys, "--open", "--format", "json")
    assert code == 0 and [r["id"] for r in json.loads(out)] == [v.pk]
    code, out = _run(capsys)
    assert code == 0
    assert "facility/property" in out and "days late" in out
    assert "Dismissed" in out and "Olive's Diner" in out
    assert "No notice served yet" in out


def test_unconfigured_amount_says_not_configured(town: Town, capsys: Any, settings: Any) -> None:
    """A violation of a town whose values state no daily amount (each record is counted
    under its own town's values: here an office of Wappinger alone)."""
    overdue(town)
    all_of_town(town, settings, "wappinger")
    code, out = _run(capsys, "--format", "json")
    row = json.loads(out)[0]
    assert code == 0 and row["fines_accrued"] is None
    assert row["fines_status"] == "not configured" and "122-20 Y" in row["fines_note"]
    code, out = _run(capsys)
    assert "not configured" in out and "122-20 Y" in out


def test_no_violations(town: Town, capsys: Any) -> None:
    assert _run(capsys, "--open") == (0, "No open violations.\n")


def test_one_member_towns_violations(article_towns: Town, capsys: Any) -> None:
    """In an office of two towns, ``--jurisdiction`` lists one town's; each row names its town;
    a town the office does not serve is refused."""
    overdue(article_towns, mine=True)
    overdue(article_towns, mine=False)
    code, out = _run(capsys, "--format", "json")
    assert code == 0 and {r["jurisdiction"] for r in json.loads(out)} == {HOME, ARTICLE_MEMBER}
    code, out = _run(capsys, "--jurisdiction", ARTICLE_MEMBER, "--format", "json")
    assert code == 0 and [r["jurisdiction"] for r in json.loads(out)] == [ARTICLE_MEMBER]
    assert main(["violations", "--jurisdiction", "elsewhere"]) == 2
    assert "not a member town" in capsys.readouterr().err
