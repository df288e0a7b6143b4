"""The demo town's monitoring, as a person signed in would see it."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "office"


def test_demo_town_monitoring_end_to_end(demo_town: Any) -> None:
    from sewer_office.findings.models import Finding
    from sewer_office.monitoring.models import LabResult
    from sewer_office.registry.models import Establishment

    demo_town(seed=4, anchor=date(2026, 12, 1))
    acme = Establishment.objects.get(code="ACME-PLATING")
    assert LabResult.objects.filter(establishment=acme).count() > 100
    assert Finding.objects.filter(
        establishment=acme, status="prohibited", citation="§ 196-19 C(3)"
    ).exists()
    assert Finding.objects.filter(establishment=acme, kind="monthly_average").exists()

    su = Client()
    assert su.login(username="superintendent", password="demo")
    page = su.get(f"/registry/establishments/{acme.pk}/").content.decode()
    for expected in (
        "Open findings",
        "§ 196-19 C(3)",
        "Laboratory results",
        "CM-1",
        "ACME-PLATING",
    ):
        assert expected in page, expected
    dashboard = su.get("/").content.decode()
    assert "New findings to review" in dashboard and "Sampling due" in dashboard
    # The Superintendent imports the example laboratory file; the bad one is refused whole.
    before = LabResult.objects.count()
    bad = (EXAMPLES / "lab-results-bad.csv").read_bytes()
    r = su.post("/monitoring/import/", {"file": SimpleUploadedFile("bad.csv", bad)})
    assert r.status_code == 400 and LabResult.objects.count() == before
    body = r.content.decode()
    for field in ("value", "unit", "facility", "sampling_point", "sampled_at"):
        assert f"<code>{field}</code>" in body, field
    good = (EXAMPLES / "lab-results-acme.csv").read_bytes()
    r = su.post("/monitoring/import/", {"file": SimpleUploadedFile("acme.csv", good)})
    assert r.status_code == 302, r.content.decode()[:2000]
    assert LabResult.objects.count() == before + 10
    assert (
        LabResult.objects.get(event__sample_id="HVL-26-4471", parameter="ph").status == "prohibited"
    )

    # acme sees its own facility and nothing of anyone else's.
    c = Client()
    assert c.login(username="acme", password="demo")
    assert c.get(f"/registry/establishments/{acme.pk}/").status_code == 200
    other = Establishment.objects.exclude(code="").exclude(pk=acme.pk).first()
    assert c.get(f"/registry/establishments/{other.pk}/").status_code == 404
    codes = {
        r["facility"] for r in c.get("/api/monitoring/results/?page_size=200").json()["results"]
    }
    assert codes == {"ACME-PLATING"}
    assert {f["facility"] for f in c.get("/api/monitoring/findings/").json()["results"]} <= {
        "ACME-PLATING"
    }
