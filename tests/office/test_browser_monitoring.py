"""Headless Chromium: the Superintendent imports a laboratory file, sees the prohibited pH on
the facility page with its citation, and traces upstream from a manhole to find the source."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.utils import timezone

from sewer_office.network.services import import_network
from sewer_office.registry.models import Property

from .browser_support import BROWSER_MARKS
from .factories import make_town
from .monitoring_factories import facilities
from .test_browser import _sign_in, _succeeded

pytestmark = BROWSER_MARKS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "network" / "example-network.geojson"
PARCELS = {"PCL-01": "100-01", "PCL-05": "100-03", "PCL-08": "100-04"}


def _network(town: Any) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for f in data["features"]:
        p = f["properties"]
        if p["kind"] == "connection":
            p["parcel"] = PARCELS.get(p["parcel"], p["parcel"])
    for i in range(1, 13):
        parcel = f"PCL-{i:02d}"
        if parcel not in PARCELS:
            Property.objects.create(
                parcel_id=parcel, address=f"{i} Example Rd", owner=town.other_person
            )
    import_network(json.dumps(data), town.u("superintendent"))


def test_superintendent_imports_sees_prohibited_ph_and_traces_upstream(
    live_server: Any, browser: Any, tmp_path: Path
) -> None:
    town = make_town()
    fac = facilities(town)
    _network(town)
    when = timezone.localtime() - timedelta(days=2)
    lab = tmp_path / "lab-2026.csv"
    lab.write_text(
        "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
        f"B1,{when:%Y-%m-%dT%H:%M},grab,pH,4.8,SU,OWNER-CAFE,CM-1\n"
        f"B1,{when:%Y-%m-%dT%H:%M},grab,Temperature,68,°F,OWNER-CAFE,CM-1\n",
        encoding="utf-8",
    )
    base = live_server.url
    su = _sign_in(browser, base, "superintendent")
    su.goto(f"{base}/monitoring/import/")
    su.set_input_files("input[name=file]", str(lab))
    su.click("main button[type=submit]")
    _succeeded(su)
    assert "Import #" in su.locator("h1").inner_text()

    su.goto(f"{base}/registry/establishments/{fac.mine.pk}/")
    row = su.locator("#results tr.result", has_text="ph")
    assert row.count() == 1
    # the status by its label, the code on hover
    assert "Prohibited" in row.inner_text() and "§ 196-19 C(3)" in row.inner_text()
    findings = su.locator("#open-findings").inner_text()
    assert "prohibited" in findings.lower() and "§ 196-19 C(3)" in findings
    assert su.locator("#charts img").count() >= 1

    su.goto(f"{base}/registry/network/")
    su.fill("input[name=manhole]", "MH03")
    su.click("form.card button[type=submit]")
    su.wait_for_selector("h2:has-text('Upstream of MH03')")
    upstream = su.locator("main table").last.inner_text()
    assert "Olive's Diner" in upstream and "1 exceedance" in upstream
    assert "§ 196-19 C(3)" in upstream
