"""Headless Chromium: day one of a real town, walked by the clerk from the menu.

The clerk opens "Imports", brings in the sewer districts and the county's parcel roll (a roll
with bad rows is refused by name and nothing is applied; the clean roll applies and shows on
the map with its districts), then the users' spreadsheet (choosing its columns once, the
unmatched row left in the review queue), and makes a laboratory's mapping from its sample
file; ``sewer-use check --mapping`` then reads that laboratory's files with the same findings
as the project's own layout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sewer_cli.main import main as sewer_use
from sewer_office.monitoring.models import LabMapping
from sewer_office.onboarding.models import ReviewItem
from sewer_office.parcels.models import RollImport
from sewer_office.registry.models import Establishment, Property, ServiceArea
from tests.lab_edd import write_both
from tests.parcel_rolls import write_districts, write_roll

from .browser_support import BROWSER_MARKS
from .test_lab_mappings import without_row_text

pytestmark = BROWSER_MARKS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _sign_in(browser: Any, base: str, username: str) -> Any:
    """Signed in as one of the demo town's users (password ``demo``)."""
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


def _from_the_menu(page: Any, base: str, link: str) -> None:
    """From the dashboard: the menu's "Imports", then the named link on that page."""
    page.goto(f"{base}/")
    page.locator("nav.site a", has_text="Imports").click()
    page.wait_for_url(f"{base}/imports/")
    page.locator("main a", has_text=link).first.click()


def _preview(page: Any, path: Path) -> None:
    page.set_input_files("input[name=file]", str(path))
    page.locator("main button", has_text="Preview").click()
    page.wait_for_selector("#preview")


def _parcels_and_districts(page: Any, base: str, tmp_path: Path) -> None:
    _from_the_menu(page, base, "Import the districts")
    (tmp_path / "districts").mkdir()
    _preview(page, write_districts(tmp_path / "districts"))
    assert page.locator("#count-refused").inner_text().strip() == "0"
    page.locator("#apply button").click()
    page.wait_for_selector(".messages .success")
    assert ServiceArea.objects.exclude(boundary="").count() >= 2

    # a roll with its three bad rows: refused by file, row and field, nothing applied
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    bad = write_roll(tmp_path / "bad", parcels=40, fmt="geojson", bad_rows=True)
    _from_the_menu(page, base, "Import the parcel roll")
    _preview(page, bad)
    assert page.locator("#count-refused").inner_text().strip() == "3"
    report = " ".join(page.locator(".row-report li").all_inner_texts())
    for field in ("SBL", "PROP_CLASS", "geometry"):
        assert f"{bad.name}, row" in report and f"field {field}" in report, report
    assert page.locator("#apply").count() == 0
    before = Property.objects.count()

    good = write_roll(tmp_path / "good", parcels=40, fmt="gpkg", bad_rows=False)
    _from_the_menu(page, base, "Import the parcel roll")
    _preview(page, good)
    assert page.locator("#count-refused").inner_text().strip() == "0"
    assert page.locator("#count-new").inner_text().strip() == "40"
    assert Property.objects.count() == before  # a preview writes nothing
    page.locator("#apply button").click()
    page.wait_for_selector(".messages .success")
    assert Property.objects.count() == before + 40
    assert RollImport.objects.count() >= 1

    # the map: the districts and the parcels drawn on the background
    page.goto(f"{base}/parcels/")
    page.locator("main a", has_text="Map").first.click()
    status = page.locator(".map-status")
    status.filter(has_text="in view").wait_for()
    text = status.inner_text()
    assert "parcels in view" in text and "districts drawn" in text, text
    assert page.evaluate("window.sewerParcelMap.parcels.getLayers().length") >= 30
    assert page.evaluate("window.sewerParcelMap.districts.getLayers().length") >= 2


def _users_spreadsheet(page: Any, base: str) -> None:
    _from_the_menu(page, base, "Import users and facilities")
    page.set_input_files("input[name=file]", str(EXAMPLES / "facilities.csv"))
    page.locator("main button", has_text="Upload").click()
    page.wait_for_selector("text=Save the mapping as")
    # the kind column's words, chosen once
    for word, kind in (
        ("SIU", "Industrial user"),
        ("IU", "Industrial user"),
        ("Food prep", "Food preparation service"),
    ):
        page.get_by_label(f"“{word}”").select_option(label=kind)
    page.get_by_label("Save the mapping as").fill("County list")
    page.locator("main button", has_text="Save the mapping and preview").click()
    page.wait_for_selector("text=Apply the import")
    page.locator("main button", has_text="Apply the import").click()
    page.wait_for_selector(".messages .success")
    assert Establishment.objects.filter(name="Valley Foods Commissary").exists() or (
        Establishment.objects.filter(operator__name__icontains="Valley Foods").count() == 2
    )
    assert ReviewItem.objects.filter(state="open").count() == 1
    page.goto(f"{base}/onboarding/review/")
    assert page.locator("main table tr").count() >= 2


def _laboratory_mapping(page: Any, base: str, tmp_path: Path) -> None:
    _own, lab = write_both(tmp_path)
    _from_the_menu(page, base, "New laboratory mapping")
    page.set_input_files("input[name=sample]", str(lab))
    page.locator("#read-sample").click()
    page.wait_for_selector("#sample-columns")
    questions = page.locator("#questions").inner_text()
    assert "03/02/2026" in questions and "%m/%d/%Y" in questions, questions
    page.locator("input[name=name]").fill("hudson-valley")
    page.locator("input[name=laboratory]").fill("Hudson Valley Labs")
    page.locator("input[name=date_format]").fill("%m/%d/%Y %H:%M")
    page.locator("#check-mapping").click()
    page.wait_for_selector("#mapping-preview")
    assert "copper" in page.locator("#mapping-preview").inner_text().lower()
    page.locator("#save-mapping").click()
    page.wait_for_selector(".messages .success")
    assert LabMapping.objects.filter(name="hudson-valley").exists()


def test_clerk_brings_a_town_in(
    live_server: Any, browser: Any, demo_walk: Any, tmp_path: Path, capsys: Any
) -> None:
    base = live_server.url
    clerk = _sign_in(browser, base, "clerk")
    _parcels_and_districts(clerk, base, tmp_path)
    _users_spreadsheet(clerk, base)
    _laboratory_mapping(clerk, base, tmp_path)

    # the laboratory's own file, read with the mapping the clerk made, finds what the
    # project's own layout of the same results finds
    (tmp_path / "cli").mkdir()
    own, lab = write_both(tmp_path / "cli")
    limits = ["--limits", str(EXAMPLES / "permit-limits.csv"), "--format", "json"]
    capsys.readouterr()
    assert sewer_use(["check", str(own), *limits]) == 1
    ours = json.loads(capsys.readouterr().out)
    assert sewer_use(["check", str(lab), "--mapping", "hudson-valley", *limits]) == 1
    theirs = json.loads(capsys.readouterr().out)
    assert ours["results"] and without_row_text(theirs) == without_row_text(ours)
