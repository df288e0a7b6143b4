"""Laboratory results under their own town's values: a file holding results of facilities of
two towns is evaluated town by town — each result against its facility's town's limits, each
finding with its town's parameters version, in the file's order — and a file holding a
result of a facility of a town whose law is its own is refused as a whole, naming the file,
the rows, the facility and why (the article's limits, § 196-19, are not its law)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.core.town_law import OtherLaw
from sewer_office.findings.models import Finding
from sewer_office.monitoring import queries, services
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit, LabImport, LabResult, SamplingEvent
from sewer_office.registry.models import Establishment

from . import pretreatment_factories as pf
from .factories import Town
from .jurisdiction_support import OTHER

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
#: Rows of the two towns interleaved: 2 and 4 the demo town's diner, 3 and 5 Wappinger's plant.
MIXED = HEADER + (
    "S1,2026-03-02T10:00,grab,Copper,1.5,mg/l,OWNER-CAFE,CM-1\n"
    "S2,2026-03-02T11:00,grab,Copper,1.5,mg/l,OTHER-PLANT,CM-1\n"
    "S1,2026-03-02T10:00,grab,Zinc,2.5,mg/l,OWNER-CAFE,CM-1\n"
    "S2,2026-03-02T11:00,grab,Zinc,2.5,mg/l,OTHER-PLANT,CM-1\n"
)


def _findings(est: Establishment | None, analyte: str) -> list[Finding]:
    return list(Finding.objects.filter(establishment=est, analyte=analyte, result__isnull=False))


def test_a_file_of_two_towns_is_judged_each_row_under_its_towns_limits(
    article_towns: Town,
) -> None:
    t = article_towns
    report = import_lab_file(MIXED.encode(), "march.csv", t.u("superintendent"))
    assert report.ok and report.stored, (report.errors, report.refused)
    imp = LabImport.objects.get()
    assert imp.jurisdiction == "demo, wappinger"
    demo_version, wapp_version = imp.parameters_version.split(", ")
    assert demo_version.startswith("demo@") and wapp_version.startswith("wappinger@")
    # the file's order kept: each stored row is its facility's
    rows = dict(LabResult.objects.values_list("row", "establishment_id"))
    diner, plant = t.owner_restaurant, t.other_plant
    assert diner is not None and plant is not None
    assert rows == {2: diner.pk, 3: plant.pk, 4: diner.pk, 5: plant.pk}
    # the demo town's copper limit (1, § 196-19 D(5)) judges its diner's 1.5 for review ...
    [local] = [f for f in _findings(diner, "copper") if f.parameter == "local_limit.copper"]
    assert (local.status, local.limit, local.citation) == ("review", "1", "§ 196-19 D(5)")
    # ... while Wappinger configures none: the same 1.5 at its plant has no limit to break
    [none] = [f for f in _findings(plant, "copper") if f.parameter == "local_limit.copper"]
    assert (none.status, none.limit) == ("no_limit", "")
    statuses = dict(LabResult.objects.values_list("row", "status"))
    assert statuses == {2: "review", 3: "no_limit", 4: "review", 5: "no_limit"}
    # every finding keeps its own town's parameters version
    for est, version in ((diner, demo_version), (plant, wapp_version)):
        versions = set(
            Finding.objects.filter(establishment=est).values_list("parameters_version", flat=True)
        )
        assert versions == {version}


def test_a_file_of_two_towns_reports_every_row_error_in_place(article_towns: Town) -> None:
    custody = HEADER.replace("\n", ",received_at\n")
    data = custody + (
        "S1,2026-03-02T10:00,grab,Copper,1.5,mg/l,OWNER-CAFE,CM-1,2026-03-02T12:00\n"
        "S2,2026-03-02T11:00,grab,Copper,1.5,mg/l,OTHER-PLANT,CM-1,yesterday\n"
        "S3,2026-03-02T11:00,grab,Copper,1.5,mg/l,NOBODY,CM-1,\n"
        "S1,2026-03-02T10:00,grab,Zinc,2.5,mg/l,OWNER-CAFE,CM-1,2026-03-02T12:00\n"
        "S2,2026-03-02T11:00,grab,Zinc,lots,mg/l,OTHER-PLANT,CM-1,2026-03-02T12:00\n"
    )
    report = import_lab_file(data.encode(), "errors.csv", article_towns.u("superintendent"))
    assert not report.stored and not LabResult.objects.exists()
    by_row = {(r, f) for r, f, _m in report.errors}
    assert {(3, "received_at"), (4, "facility"), (6, "value")} <= by_row
    assert not {r for r, _f in by_row} & {2, 5}


def test_a_file_of_two_towns_keeps_each_rows_chain_of_custody(article_towns: Town) -> None:
    custody = HEADER.replace("\n", ",received_at,received_by\n")
    data = custody + (
        "S1,2026-03-02T10:00,grab,Copper,0.5,mg/l,OWNER-CAFE,CM-1,2026-03-02T12:00,Ann\n"
        "S2,2026-03-02T11:00,grab,Copper,0.5,mg/l,OTHER-PLANT,CM-1,2026-03-03T08:30,Bob\n"
        "S1,2026-03-02T10:00,grab,Zinc,0.5,mg/l,OWNER-CAFE,CM-1,2026-03-02T12:00,Ann\n"
    )
    report = import_lab_file(data.encode(), "custody.csv", article_towns.u("superintendent"))
    assert report.stored, report.errors
    got = {
        e.sample_id: (timezone.localtime(e.received_at).strftime("%m-%d %H:%M"), e.received_by)
        for e in SamplingEvent.objects.all()
    }
    assert got == {"S1": ("03-02 12:00", "Ann"), "S2": ("03-03 08:30", "Bob")}


def test_a_file_of_one_town_records_that_town(article_towns: Town) -> None:
    one = HEADER + "S9,2026-03-02T10:00,grab,Copper,1.5,mg/l,OTHER-PLANT,CM-1\n"
    report = import_lab_file(one.encode(), "one.csv", article_towns.u("superintendent"))
    assert report.stored
    imp = LabImport.objects.get()
    assert imp.jurisdiction == "wappinger" and imp.parameters_version.startswith("wappinger@")
    assert report.parameters_version == imp.parameters_version


def test_monthly_averages_are_judged_under_each_towns_values(article_towns: Town) -> None:
    t = article_towns
    for est in (t.owner_restaurant, t.other_plant):
        pf.limit(est, "copper", "0.6", kind="monthly_average")  # type: ignore[arg-type]
    report = import_lab_file(
        MIXED.encode(), "march.csv", t.u("superintendent"), today=date(2026, 4, 2)
    )
    assert report.stored and len(report.monthly) == 2
    monthly = {
        f.establishment_id: f.parameters_version
        for f in Finding.objects.filter(kind="monthly_average")
    }
    assert monthly[t.owner_restaurant.pk].startswith("demo@")  # type: ignore[union-attr]
    assert monthly[t.other_plant.pk].startswith("wappinger@")  # type: ignore[union-attr]


# --- a town whose law is its own -----------------------------------------------------------

#: Row 2 the demo town's diner, rows 3 and 4 the plant of the Town of Poughkeepsie.
WITH_OWN_LAW = HEADER + (
    "S1,2026-03-02T10:00,grab,Copper,1.5,mg/l,OWNER-CAFE,CM-1\n"
    "S2,2026-03-02T11:00,grab,Copper,1.5,mg/l,OTHER-PLANT,CM-1\n"
    "S2,2026-03-02T11:00,grab,Zinc,2.5,mg/l,OTHER-PLANT,CM-1\n"
)


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_file_with_an_own_law_towns_result_is_refused_whole(
    two_towns: Town, dry_run: bool
) -> None:
    report = import_lab_file(
        WITH_OWN_LAW.encode(), "county-lab.csv", two_towns.u("superintendent"), dry_run=dry_run
    )
    assert not report.ok and not report.stored
    text = report.refused
    assert text.startswith("county-lab.csv: refused, nothing stored.")
    assert "rows 3, 4, facility OTHER-PLANT" in text and "OWNER-CAFE" not in text
    assert "Town of Poughkeepsie" in text and "Article VII" in text and "§ 196-19" in text
    assert not LabImport.objects.exists() and not LabResult.objects.exists()
    assert not Finding.objects.exists()


def test_the_api_refuses_it_as_a_conflict(two_towns: Town, login: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("county-lab.csv", WITH_OWN_LAW.encode(), "text/csv")
    r = login("superintendent").post("/api/monitoring/imports/", {"file": upload})
    assert r.status_code == 409, r.content
    assert "facility OTHER-PLANT" in r.json()["refused"]
    assert not LabResult.objects.exists()


def test_a_result_of_an_own_law_town_is_not_corrected_under_the_article(two_towns: Town) -> None:
    plant = Establishment.objects.get(pk=two_towns.other_plant.pk)  # type: ignore[union-attr]
    assert plant.jurisdiction == OTHER
    [result] = pf.results(plant, "copper", [("2026-01-10", "1.4")])
    with pytest.raises(OtherLaw) as refused:
        services.correct_result(
            result, two_towns.u("superintendent"), value="1.0", unit="mg/l", reason="typo"
        )
    assert "Town of Poughkeepsie" in refused.value.message
    assert LabResult.objects.count() == 1


def test_the_chart_draws_the_articles_limits_only_for_a_town_of_the_article(
    two_towns: Town,
) -> None:
    plant = Establishment.objects.get(pk=two_towns.other_plant.pk)  # type: ignore[union-attr]
    diner = Establishment.objects.get(pk=two_towns.owner_restaurant.pk)  # type: ignore[union-attr]
    for est in (plant, diner):
        pf.limit(est, "copper", "0.8")
    on = date(2026, 3, 1)
    diner_lines = [line.label for line in queries.limit_lines(diner, "copper", on)]
    plant_lines = [line.label for line in queries.limit_lines(plant, "copper", on)]
    assert any("1.0 mg/l" in label and "§ 196-19" in label for label in diner_lines)
    assert [label for label in plant_lines if "§ 196-19" in label] == []
    assert len(plant_lines) == 1 and "0.8 mg/l" in plant_lines[0]


def test_a_limit_record_alone_is_no_reason_to_judge(two_towns: Town) -> None:
    """The engine applies the article's limits to every row besides the permit's: a facility
    of an own-law town with permit limits of its own is still refused (nothing half-judged)."""
    plant = Establishment.objects.get(pk=two_towns.other_plant.pk)  # type: ignore[union-attr]
    DischargeLimit.objects.create(
        establishment=plant,
        parameter="copper",
        limit_type="daily_maximum",
        value="0.8",
        unit="mg/l",
        effective_from=date(2025, 1, 1),
    )
    one = HEADER + "S2,2026-03-02T11:00,grab,Copper,0.5,mg/l,OTHER-PLANT,CM-1\n"
    report = import_lab_file(one.encode(), "permit-only.csv", two_towns.u("superintendent"))
    assert "row 2, facility OTHER-PLANT" in report.refused and not report.stored


@pytest.mark.django_db
def test_a_file_of_a_countys_towns_keeps_every_towns_name_and_version() -> None:
    # the plant's laboratory sends one file for every member town: twenty towns' names and
    # versions, joined, are longer than a column of fixed width held (PostgreSQL refused them)
    towns = ", ".join(f"county-town-{k:02d}" for k in range(1, 21))
    versions = ", ".join(f"county-town-{k:02d}@2026-01-01+sha256:{'0' * 12}" for k in range(1, 21))
    stored = LabImport.objects.create(
        sha256="c" * 64, source="lab_file", jurisdiction=towns, parameters_version=versions
    )
    again = LabImport.objects.get(pk=stored.pk)
    assert (again.jurisdiction, again.parameters_version) == (towns, versions)
