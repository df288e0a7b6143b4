"""Records of the past: permits, approvals (conditions, limits, terms), inspections and
violations kept on paper, imported as records made outside the office (docs/past-records.md).

Each kind imported with its own dates and state; refusals named by file, row and field with
nothing written; documents attached with their SHA-256; the banner on every detail page and
the badge in the lists; an imported approval expiring next year renewed as any other; the
import in each record's timeline; the command line's exit codes and JSON."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import zipfile
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, connection, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from sewer_cli.main import main
from sewer_office.archive.bundle import UnusableFile, read_directory, read_zip
from sewer_office.archive.models import RecordImport
from sewer_office.archive.panels import imports_panel
from sewer_office.archive.services import import_records
from sewer_office.core import audit
from sewer_office.core.attachments import attach
from sewer_office.core.errors import Forbidden
from sewer_office.core.models import Attachment, AuditEvent, ImportedRecord
from sewer_office.core.services import perform
from sewer_office.enforcement.models import Violation
from sewer_office.findings.models import Finding
from sewer_office.inspections.checklists import items
from sewer_office.inspections.models import Inspection
from sewer_office.inspections.services import complete
from sewer_office.monitoring.models import DischargeLimit
from sewer_office.permits.models import (
    BuildingSewerPermit,
    FlushingNotice,
    GrinderApproval,
    IndustrialDischargeApproval,
    InterceptorRequirement,
    PrivateDisposalSystem,
    SubdivisionSewer,
)
from sewer_office.permits.services.industrial import (
    file_discharge_approval,
    flag_expired_approvals,
)

from .factories import Town, new_record

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
SCAN = b"%PDF-1.4\n% scanned approval, 3 pages\n%%EOF\n"
TODAY = timezone.localdate()
NEXT_YEAR = TODAY.replace(year=TODAY.year + 1, month=6, day=30)
DECIDED = NEXT_YEAR.replace(year=NEXT_YEAR.year - 5) + timedelta(days=1)  # five-year term


def csv_text(rows: list[dict[str, str]]) -> str:
    """The rows as a CSV file, the columns in the order they first appear."""
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


PERMITS = csv_text(
    [
        {
            "kind": "building-sewer",
            "number": "BSP 88-4",
            "state": "completed",
            "applicant": "Olive Owner",
            "parcel": "100-01",
            "filed_on": "1988-05-02",
            "description": "House connection",
            "documents": "bsp-88-4.pdf",
            "permit_class": "1",
            "connected_on": "1988-06-20",
        },
        {
            "kind": "private-system",
            "number": "PDS-77-12",
            "state": "in_service",
            "applicant": "Otto Other",
            "parcel": "300-02",
            "filed_on": "1977-03-01",
            "system_type": "septic",
            "health_approved_on": "1977-03-20",
        },
        {
            "kind": "subdivision",
            "number": "SUB 1999/2",
            "state": "filed",
            "applicant": "Olive Owner",
            "parcel": "900-01",
            "filed_on": "1999-01-04",
            "name": "Meadow Lots",
            "lots": "12",
            "smallest_lot_acres": "0.5",
            "estimated_cost": "180000",
            "provision": "public_sewer",
        },
        {
            "kind": "grinder",
            "number": "G-2004-1",
            "state": "approved",
            "parcel": "100-03",
            "filed_on": "2004-02-02",
            "make_model": "InSinkErator SS",
            "motor_hp": "0.5",
            "decided_on": "2004-02-20",
            "facility": "Olive's Diner",
        },
        {
            "kind": "interceptor",
            "number": "GT-2001-9",
            "state": "approved",
            "filed_on": "2001-05-05",
            "facility": "Olive's Diner",
            "interceptor_kind": "grease_trap",
            "basis": "Restaurant kitchen",
            "installed_on": "2001-06-01",
            "approved_on": "2001-06-15",
        },
        {
            "kind": "flushing",
            "number": "FL-2010-3",
            "state": "completed",
            "applicant": "Olive Owner",
            "parcel": "100-01",
            "filed_on": "2010-08-01",
            "planned_on": "2010-08-20",
            "water_source": "hydrant",
            "tri_municipal_notified_on": "2010-08-05",
            "flushed_on": "2010-08-20",
        },
    ]
)

APPROVALS = (
    "number,state,applicant,facility,discharge_kind,flow_gpd,filed_on,decided_on,term_years,"
    "expires_on,documents,source\n"
    f"IDA-98-12,approved_with_conditions,Otto Other,OTTO-PLATING,new,2500,{DECIDED - timedelta(days=40)},"
    f'{DECIDED},5,,ida-98-12.pdf,"cabinet B, folder IDA"\n'
    "IDA-91-3,rejected,,OTTO-PLATING,change_character,,1991-02-01,1991-04-01,,,,\n"
)
CONDITIONS = (
    "approval,kind,text\n"
    "IDA-98-12,pretreatment,Neutralise to pH 6-9 before discharge.\n"
    "IDA-98-12,sampling,Quarterly composite sample at CM-1.\n"
)
LIMITS = "approval,parameter,limit_type,value,unit\nIDA-98-12,copper,daily_maximum,1.5,mg/l\n"
INSPECTIONS = (
    "number,kind,state,facility,parcel,inspector,started_at,scheduled_for,observations,"
    "cancel_reason,documents\n"
    "INS 2019/7,industrial_user,completed,OTTO-PLATING,,inspector,2019-05-14 10:30,,"
    "Clean control manhole.,,insp-2019-7.pdf\n"
    f",building_sewer,scheduled,,100-01,inspector,,{TODAY + timedelta(days=60)} 09:00,,,\n"
    ",private_system,cancelled,,300-02,superintendent,,2015-04-01,,Owner away,\n"
)
VIOLATIONS = (
    "number,kind,section,description,person,facility,parcel,observed_on,state,closed_on\n"
    "NOV-2015-2,overdue_pumpout,§ 196-19 F(2),Grease trap not pumped,Olive Owner,"
    "Olive's Diner,,2015-03-02,corrected,2015-03-20\n"
    "NOV-2020-9,discharge_seen,§ 196-19 C(3),Oil seen at the manhole,Otto Other,"
    "OTTO-PLATING,,2020-09-01,open,\n"
)
DOCS = {"bsp-88-4.pdf": PDF, "ida-98-12.pdf": SCAN, "insp-2019-7.pdf": PDF}
EVERYTHING = {
    "permits.csv": PERMITS,
    "approvals.csv": APPROVALS,
    "approval_conditions.csv": CONDITIONS,
    "approval_limits.csv": LIMITS,
    "inspections.csv": INSPECTIONS,
    "violations.csv": VIOLATIONS,
}


def prepare(town: Town) -> None:
    """The factory town's plant gets a facility code (limits are read by it)."""
    plant = town.other_plant
    assert plant is not None
    plant.code = "OTTO-PLATING"
    plant.save()


def as_zip(files: dict[str, str], docs: dict[str, bytes] | None = None, top: str = "") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:  # dated alike, so the same files give the same bytes
        for name, text in files.items():
            z.writestr(zipfile.ZipInfo(f"{top}{name}", (2026, 1, 2, 3, 4, 6)), text)
        for name, data in (docs or {}).items():
            z.writestr(zipfile.ZipInfo(f"{top}documents/{name}", (2026, 1, 2, 3, 4, 6)), data)
    return buf.getvalue()


def as_dir(path: Path, files: dict[str, str], docs: dict[str, bytes] | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (path / name).write_text(text, encoding="utf-8")
    if docs:
        (path / "documents").mkdir(exist_ok=True)
        for name, data in docs.items():
            (path / "documents" / name).write_bytes(data)
    return path


def imported(town: Town, files: dict[str, str] | None = None, **kw: Any) -> Any:
    prepare(town)
    bundle = read_zip(as_zip(files or EVERYTHING, DOCS), "past.zip")
    return import_records(bundle, town.u("clerk"), source=kw.pop("source", "paper files"), **kw)


def provenance(record: Any) -> ImportedRecord:
    return ImportedRecord.objects.get(
        content_type=ContentType.objects.get_for_model(record), object_id=str(record.pk)
    )


# --- each kind ------------------------------------------------------------------------------------


def test_each_kind_is_imported_as_on_paper(town: Town) -> None:
    report = imported(town)
    assert report.ok and report.stored, report.rows
    assert report.new == 16 and report.refused == 0
    assert report.counts == {
        "permits.csv": 6,
        "approvals.csv": 2,
        "approval_conditions.csv": 2,
        "approval_limits.csv": 1,
        "inspections.csv": 3,
        "violations.csv": 2,
    }
    bsp = BuildingSewerPermit.objects.get()
    assert (bsp.state, bsp.filed_on, bsp.connected_on) == (
        "completed",
        date(1988, 5, 2),
        date(1988, 6, 20),
    )
    assert bsp.number == f"BSP-1988-{bsp.pk:05d}" and bsp.applicant == town.owner_person
    assert provenance(bsp).original_number == "BSP 88-4"
    assert PrivateDisposalSystem.objects.get().state == "in_service"
    sub = SubdivisionSewer.objects.get()
    assert (sub.name, sub.lots, sub.state) == ("Meadow Lots", 12, "filed")
    grinder = GrinderApproval.objects.get()
    assert grinder.applicant == town.owner_person  # the facility's operator
    assert grinder.decided_on == date(2004, 2, 20)
    assert "below 0.75 hp" in grinder.rule_check["message"]  # the rules, as on its filing day
    trap = InterceptorRequirement.objects.get()
    assert (trap.kind, trap.state, trap.property) == (
        "grease_trap",
        "approved",
        town.owner_shop_building.property,
    )
    assert FlushingNotice.objects.get().building == town.owner_home.buildings.get()

    ida = IndustrialDischargeApproval.objects.get(state="approved_with_conditions")
    assert (ida.decided_on, ida.term_years, ida.expires_on) == (DECIDED, 5, NEXT_YEAR)
    assert [(c.kind, c.citation) for c in ida.conditions.all()] == [
        ("pretreatment", "§ 196-19 E(1)(b)"),
        ("sampling", "§ 196-19 I"),
    ]
    limit = DischargeLimit.objects.get()
    assert (
        limit.approval,
        limit.parameter,
        limit.value,
        limit.effective_from,
        limit.effective_to,
    ) == (
        ida,
        "copper",
        "1.5",
        DECIDED,
        NEXT_YEAR,
    )
    assert provenance(ida).source == "cabinet B, folder IDA"  # the row's own source
    assert IndustrialDischargeApproval.objects.get(state="rejected").decided_on == date(1991, 4, 1)

    done = Inspection.objects.get(state="completed")
    assert done.started_at is not None and timezone.localtime(done.started_at).hour == 10
    assert done.inspector == town.u("inspector") and done.observations == "Clean control manhole."
    assert provenance(done).original_number == "INS 2019/7"
    assert Inspection.objects.get(state="scheduled").scheduled_for is not None
    assert Inspection.objects.get(state="cancelled").cancel_reason == "Owner away"

    corrected = Violation.objects.get(state="corrected")
    assert (corrected.section, corrected.observed_on) == ("§ 196-19 F(2)", date(2015, 3, 2))
    assert provenance(corrected).as_written["closed_on"] == "2015-03-20"
    assert Violation.objects.get(state="open").opened_by is None

    assert ImportedRecord.objects.count() == 13  # one per record, none for conditions/limits
    batch = RecordImport.objects.get()
    assert batch.sha256 == hashlib.sha256(as_zip(EVERYTHING, DOCS)).hexdigest()
    assert {p.batch_sha256 for p in ImportedRecord.objects.all()} == {batch.sha256}
    assert all(p.imported_by == town.u("clerk") for p in ImportedRecord.objects.all())
    # ONE event for the batch, with its SHA-256; one per record
    batch_events = AuditEvent.objects.filter(action="import_records")
    assert batch_events.count() == 1 and batch_events.get().after["sha256"] == batch.sha256
    assert AuditEvent.objects.filter(action="import_record").count() == 13
    assert AuditEvent.objects.filter(action="import_discharge_limit").count() == 1


def test_the_same_import_is_refused_the_second_time(town: Town) -> None:
    assert imported(town).stored
    again = imported(town)
    assert not again.ok and "imported already" in again.refused_reason
    assert RecordImport.objects.count() == 1
    # the same records in another file: refused row by row, by their paper numbers
    other = imported(town, {"permits.csv": PERMITS + "\n"})
    assert not other.stored
    assert {(r["file"], r["row"]) for r in other.rows if r["status"] == "refused"} == {
        ("permits.csv", n) for n in range(2, 8)
    }
    assert "was imported already" in other.rows[0]["errors"][0]["message"]


# --- refusals -----------------------------------------------------------------------------------


def test_refusals_are_named_by_file_row_and_field_and_nothing_is_written(town: Town) -> None:
    prepare(town)
    bad = {
        "permits.csv": (
            "kind,number,state,applicant,parcel,filed_on,permit_class,system_type\n"
            "building-sewer,B1,completed,Nobody Known,100-01,1990-01-01,1,\n"  # person
            "building-sewer,B2,flying,Olive Owner,100-01,1990-01-01,1,\n"  # state
            "building-sewer,B3,completed,Olive Owner,999-99,1990-01-01,1,\n"  # parcel
            "building-sewer,B4,completed,Olive Owner,100-01,1990-13-01,1,\n"  # date
            "building-sewer,B5,submitted,Olive Owner,100-01,1990-01-01,1,\n"  # awaiting fee
            "private-system,P1,in_service,Olive Owner,300-01,1990-01-01,1,septic\n"  # wrong field
            "industrial,I1,approved,Olive Owner,100-01,1990-01-01,,\n"  # goes in approvals.csv
            "building-sewer,B1,completed,Olive Owner,100-01,1990-01-01,3,\n"  # class
            "building-sewer,B6,plan_review,Olive Owner,100-01,1990-01-01,1,\n"  # design
        ),
        "approvals.csv": (
            "number,state,facility,discharge_kind,filed_on,decided_on,term_years\n"
            "A1,approved,OTTO-PLATING,new,2001-01-01,,5\n"  # decided_on missing
            "A2,approved_with_conditions,OTTO-PLATING,new,2001-01-01,2001-02-01,5\n"  # none
            "A3,submitted,NO-SUCH,new,2001-01-01,,\n"  # facility
            f"A4,approved,OTTO-PLATING,new,2001-01-01,{TODAY + timedelta(days=3)},5\n"  # future
            "A5,submitted,,new,2001-01-01,,\n"  # no facility
        ),
        "approval_conditions.csv": "approval,kind,text\nA9,pretreatment,x\nA3,magic,x\n",
        "approval_limits.csv": (
            "approval,parameter,limit_type,value,unit\nA2,copper,daily_maximum,1,furlongs\n"
        ),
        "inspections.csv": (
            "kind,state,facility,inspector,started_at\n"
            "food_service,completed,OTTO-PLATING,ghost,2019-01-01\n"  # account
            "food_service,completed,OTTO-PLATING,inspector,\n"  # started_at
            "building_sewer,scheduled,OTTO-PLATING,clerk,\n"  # clerk cannot inspect; no date
        ),
        "violations.csv": (
            "kind,section,description,person,facility,observed_on,state\n"
            "discharge_seen,§ 196-15,Oil,Otto Other,OTTO-PLATING,2020-01-01,open\n"  # no duty
            "discharge_seen,§ 196-19 C(3),Oil,Otto Other,OTTO-PLATING,1980-01-01,open\n"  # guide
            "no_such_kind,§ 196-19 C(3),Oil,Otto Other,OTTO-PLATING,2020-01-01,open\n"  # kind
            "discharge_seen,§ 196-19 C(3),Oil,Otto Other,OTTO-PLATING,2020-01-01,served\n"  # state
        ),
    }
    events = AuditEvent.objects.count()
    report = import_records(read_zip(as_zip(bad), "bad.zip"), town.u("clerk"), source="paper")
    assert not report.ok and not report.stored and report.new == 0
    refused = {(r["file"], r["row"], e["field"]) for r in report.rows for e in r.get("errors", [])}
    assert refused == {
        ("permits.csv", 2, "applicant"),
        ("permits.csv", 3, "state"),
        ("permits.csv", 4, "parcel"),
        ("permits.csv", 5, "filed_on"),
        ("permits.csv", 6, "state"),
        ("permits.csv", 7, "permit_class"),
        ("permits.csv", 8, "kind"),
        ("permits.csv", 9, "permit_class"),
        ("permits.csv", 10, "state"),
        ("approvals.csv", 2, "decided_on"),
        ("approvals.csv", 3, "state"),
        ("approvals.csv", 4, "facility"),
        ("approvals.csv", 5, "decided_on"),
        ("approvals.csv", 6, "facility"),
        ("approval_conditions.csv", 2, "approval"),
        ("approval_conditions.csv", 3, "approval"),
        ("approval_limits.csv", 2, "unit"),
        ("inspections.csv", 2, "inspector"),
        ("inspections.csv", 3, "started_at"),
        ("inspections.csv", 4, "scheduled_for"),
        ("violations.csv", 2, "section"),
        ("violations.csv", 3, "observed_on"),
        ("violations.csv", 4, "kind"),
        ("violations.csv", 5, "state"),
    }
    messages = {(r["file"], r["row"]): r["errors"][0]["message"] for r in report.rows}
    assert "no person named Nobody Known" in messages[("permits.csv", 2)]
    assert "awaiting its filing fee" in messages[("permits.csv", 6)]
    assert "filed in the office with its design" in messages[("permits.csv", 10)]
    assert "not a field of a private disposal system" in messages[("permits.csv", 7)]
    assert "list them in approval_conditions.csv" in messages[("approvals.csv", 3)]
    assert "no enforcement guide before 1992-09-28" in messages[("violations.csv", 3)]
    assert "imposes no duty" in messages[("violations.csv", 2)]
    # all or nothing: not a record, not a file, not an event
    assert AuditEvent.objects.count() == events
    assert not RecordImport.objects.exists() and not ImportedRecord.objects.exists()
    assert not BuildingSewerPermit.objects.exists() and not Attachment.objects.exists()
    assert not IndustrialDischargeApproval.objects.exists() and not Inspection.objects.exists()


def test_one_bad_row_keeps_every_good_row_out(town: Town) -> None:
    files = dict(EVERYTHING)
    files["violations.csv"] = VIOLATIONS.replace("Olive Owner", "Olive Unknown")
    report = imported(town, files)
    assert not report.stored and report.refused == 1 and report.new == 15
    assert not BuildingSewerPermit.objects.exists() and not DischargeLimit.objects.exists()


def test_unusable_bundles(town: Town, tmp_path: Path) -> None:
    with pytest.raises(UnusableFile, match="not a ZIP"):
        read_zip(b"plain text", "x.zip")
    with pytest.raises(UnusableFile, match="no CSV file of records"):
        read_zip(as_zip({"notes.txt": "x"}), "x.zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("../permits.csv", PERMITS)
    with pytest.raises(UnusableFile, match="path out of the archive"):
        read_zip(buf.getvalue(), "evil.zip")
    with pytest.raises(UnusableFile, match="unknown column 'colour'"):
        import_records(read_zip(as_zip({"violations.csv": "colour\nred\n"}), "x.zip"), None)
    with pytest.raises(UnusableFile, match="missing required column"):
        import_records(read_zip(as_zip({"violations.csv": "kind\nx\n"}), "x.zip"), None)
    with pytest.raises(UnusableFile, match=r"approvals\.csv, which is missing"):
        import_records(read_zip(as_zip({"approval_limits.csv": LIMITS}), "x.zip"), None)
    with pytest.raises(UnusableFile, match="not UTF-8"):
        read_zip(_latin1_zip(), "x.zip")
    # a ZIP of a folder reads as the folder; a directory hashes as its manifest
    prepare(town)
    nested = read_zip(as_zip({"violations.csv": VIOLATIONS}, top="past/"), "past.zip")
    assert set(nested.csv) == {"violations.csv"}
    one = read_directory(as_dir(tmp_path / "a", EVERYTHING, DOCS))
    two = read_directory(as_dir(tmp_path / "b", EVERYTHING, DOCS))
    assert one.sha256 == two.sha256 and set(one.documents) == set(DOCS)


def _latin1_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("permits.csv", "kind,number\nbuilding-sewer,Zo\xeb\n".encode("latin-1"))
    return buf.getvalue()


def test_only_the_importers_import(town: Town) -> None:
    prepare(town)
    bundle = read_zip(as_zip({"violations.csv": VIOLATIONS}), "v.zip")
    for name in ("inspector", "viewer", "owner"):
        with pytest.raises(Forbidden):
            import_records(bundle, town.u(name), source="paper")
    for name in ("engineer", "superintendent"):
        assert import_records(bundle, town.u(name), source="paper", dry_run=True).ok


# --- documents ----------------------------------------------------------------------------------


def test_documents_are_attached_with_their_hashes(town: Town) -> None:
    report = imported(town)
    ida = IndustrialDischargeApproval.objects.get(
        number__isnull=False, state="approved_with_conditions"
    )
    att = Attachment.objects.get(
        content_type=ContentType.objects.get_for_model(ida), object_id=str(ida.pk)
    )
    assert att.sha256 == hashlib.sha256(SCAN).hexdigest() and att.size == len(SCAN)
    assert att.media_type == "application/pdf" and att.original_name == "ida-98-12.pdf"
    assert att.file.read() == SCAN
    assert AuditEvent.objects.filter(action="attach_file", object_id=str(ida.pk)).exists()
    batch = report.batch
    assert batch is not None
    listed = {d["name"]: d for d in batch.documents}
    assert listed["ida-98-12.pdf"]["sha256"] == att.sha256
    assert listed["ida-98-12.pdf"]["records"] == [ida.number]
    assert Attachment.objects.count() == 3


def test_a_document_that_is_not_a_scan_or_missing_is_refused(town: Town) -> None:
    prepare(town)
    files = {
        "violations.csv": VIOLATIONS.replace("state,closed_on", "state,closed_on,documents")
        .replace("2015-03-20\n", "2015-03-20,page.html\n")
        .replace("open,\n", "open,,gone.pdf\n")
    }
    report = import_records(
        read_zip(
            as_zip(files, {"page.html": b"<html><script>x</script>", "extra.pdf": PDF}), "d.zip"
        ),
        town.u("clerk"),
        source="paper",
    )
    errors = {
        (r["row"], e["field"]): e["message"] for r in report.rows for e in r.get("errors", [])
    }
    assert "not a PDF, PNG, JPEG or TIFF" in errors[(2, "documents")]
    assert "gone.pdf is not in documents/" in errors[(3, "documents")]
    assert any("extra.pdf" in n for n in report.notes)  # named by no row: said, not imported


# --- the pages ------------------------------------------------------------------------------------

BANNER = "Imported record</strong> — made outside the office on"


def test_the_banner_on_every_detail_page_and_the_badge_in_the_lists(town: Town, login: Any) -> None:
    imported(town)
    made_here = new_record("building-sewer", town)
    client = login("clerk")
    for model in (
        BuildingSewerPermit,
        PrivateDisposalSystem,
        SubdivisionSewer,
        GrinderApproval,
        InterceptorRequirement,
        FlushingNotice,
        IndustrialDischargeApproval,
        Inspection,
        Violation,
    ):
        for record in model.objects.all():
            if record == made_here:
                continue
            page = client.get(record.get_absolute_url()).content.decode()
            assert BANNER in page, (model, record.pk)
            paper = provenance(record)
            assert "imported by clerk" in page
            if paper.original_number:
                assert paper.original_number in page
    bsp = BuildingSewerPermit.objects.exclude(pk=made_here.pk).get()
    page = client.get(bsp.get_absolute_url()).content.decode()
    assert "on 1988-05-02, from paper files" in page and "BSP 88-4" in page
    assert BANNER not in client.get(made_here.get_absolute_url()).content.decode()
    # lists: the badge on the imported rows only
    listing = client.get("/permits/building-sewer/").content.decode()
    assert listing.count("imported-badge") == 1
    row = next(line for line in listing.splitlines() if bsp.number in line)
    assert "imported-badge" in row
    assert made_here.number not in next(
        (line for line in listing.splitlines() if "imported-badge" in line), ""
    )
    assert client.get("/permits/").content.decode().count("imported-badge") == 8
    assert client.get("/inspections/").content.decode().count("imported-badge") == 3
    assert client.get("/enforcement/").content.decode().count("imported-badge") == 2
    # and where a property's or a facility's page lists its permits and approvals
    prop = client.get(f"/registry/properties/{bsp.property_id}/").content.decode()
    assert re.search(re.escape(bsp.number) + r"</a> <span[^>]*imported-badge", prop)
    made = client.get(f"/registry/properties/{made_here.property_id}/").content.decode()
    assert re.search(re.escape(made_here.number) + r"</a> </td>", made)
    ida = IndustrialDischargeApproval.objects.get(state="approved_with_conditions")
    facility = client.get(f"/registry/establishments/{ida.establishment_id}/").content.decode()
    assert re.search(re.escape(ida.number) + r"</a> <span[^>]*imported-badge", facility)


def test_an_outside_user_sees_the_banner_on_their_imported_record(town: Town, login: Any) -> None:
    imported(town)
    bsp = BuildingSewerPermit.objects.get()
    page = login("owner").get(bsp.get_absolute_url())
    assert page.status_code == 200 and BANNER in page.content.decode()
    assert login("other").get(bsp.get_absolute_url()).status_code == 404


def test_no_office_document_is_issued_for_an_imported_record(town: Town, login: Any) -> None:
    imported(town)
    ida = IndustrialDischargeApproval.objects.get(state="approved_with_conditions")
    client = login("engineer")
    page = client.get(ida.get_absolute_url()).content.decode()
    assert "Approval letter (PDF)" not in page and "ida-98-12.pdf" in page
    assert client.get(f"/permits/industrial/{ida.pk}/letter.pdf").status_code == 404
    done = Inspection.objects.get(state="completed")
    assert "Printable report" not in client.get(done.get_absolute_url()).content.decode()
    assert client.get(f"/inspections/{done.pk}/report.pdf").status_code == 404
    assert not AuditEvent.objects.filter(action__startswith="issue").exists()


def test_the_search_box_finds_a_record_by_its_paper_number(town: Town, login: Any) -> None:
    imported(town)
    bsp = BuildingSewerPermit.objects.get()
    page = login("clerk").get("/search/", {"q": "88-4"}).content.decode()
    assert "BSP 88-4 (on paper) → " + bsp.number in page and bsp.get_absolute_url() in page
    # an outside user finds their own only
    assert bsp.number in login("owner").get("/search/", {"q": "BSP 88"}).content.decode()
    assert bsp.number not in login("other").get("/search/", {"q": "BSP 88"}).content.decode()


def test_the_timeline_shows_the_import(town: Town, login: Any) -> None:
    imported(town)
    for record in (
        BuildingSewerPermit.objects.get(),
        IndustrialDischargeApproval.objects.get(state="rejected"),
        Inspection.objects.get(state="completed"),
        Violation.objects.get(state="open"),
    ):
        first = audit.timeline(record).order_by("id").first()
        assert first is not None and first.action == "import_record"
        assert first.reason.startswith("Imported record, made outside the office")
        assert first.actor == town.u("clerk") and first.state_to == record.state
    bsp = BuildingSewerPermit.objects.get()
    page = login("clerk").get(bsp.get_absolute_url()).content.decode()
    assert "Import record" in page and "number on paper BSP 88-4" in page


# --- open records continue --------------------------------------------------------------------------


def test_an_imported_approval_expiring_next_year_is_renewed_in_the_office(town: Town) -> None:
    imported(town)
    old = IndustrialDischargeApproval.objects.get(state="approved_with_conditions")
    assert old.expires_on == NEXT_YEAR and not old.expired
    renewal = file_discharge_approval(
        town.u("clerk"),
        applicant=town.other_person,
        establishment=town.other_plant,
        discharge_kind="new",
        concentrations={"ph": "7"},
        renews=old,
    )
    assert renewal.renews == old and renewal.renewal_timely is True
    engineer = town.u("engineer")
    renewal = perform(renewal, "begin_review", engineer)
    renewal = perform(renewal, "approve", engineer, {"term_years": 5})
    renewal.refresh_from_db()
    assert renewal.state == "approved" and renewal.expires_on is not None
    assert renewal.expires_on > NEXT_YEAR
    # the day after the old term runs out, the renewal is in force: no expiry finding
    assert flag_expired_approvals(NEXT_YEAR + timedelta(days=2)) == 0


def test_an_imported_approval_not_renewed_is_flagged_when_it_expires(town: Town) -> None:
    imported(town)
    old = IndustrialDischargeApproval.objects.get(state="approved_with_conditions")
    assert flag_expired_approvals(TODAY) == 0
    assert flag_expired_approvals(NEXT_YEAR + timedelta(days=1)) == 1
    finding = Finding.objects.get(kind="approval_expired")
    assert old.number in finding.message and finding.status == "violation"


def test_open_imported_records_continue_in_their_workflow(town: Town) -> None:
    imported(town)
    scheduled = Inspection.objects.get(state="scheduled")
    done = complete(
        scheduled,
        town.u("inspector"),
        credentials_presented=True,
        credential="Badge 7",
        started_at=timezone.now() - timedelta(hours=1),
        ended_at=None,
        answers={i.key: "pass" for i in items(scheduled.kind)},
    )
    assert done.state == "completed"
    # a building sewer permit whose plans were approved on paper: its road opening permit next
    more = csv_text(
        [
            {
                "kind": "building-sewer",
                "number": "BSP 26-1",
                "state": "plans_approved",
                "applicant": "Otto Other",
                "parcel": "100-02",
                "filed_on": str(TODAY - timedelta(days=30)),
                "permit_class": "1",
                "plans_approved_on": str(TODAY - timedelta(days=10)),
            }
        ]
    )
    assert imported(town, {"permits.csv": more}).stored
    bsp = BuildingSewerPermit.objects.get(state="plans_approved")
    bsp = perform(
        bsp,
        "record_road_opening_permit",
        town.u("highway"),
        {"road_opening_number": "RO-77", "insurance_confirmed": True, "bond_confirmed": True},
    )
    assert bsp.state == "road_opening_permitted" and bsp.road_opening_number == "RO-77"
    violation = Violation.objects.get(state="open")
    perform(violation, "dismiss", town.u("superintendent"), reason="Paper record: resolved in 2020")
    violation.refresh_from_db()
    assert violation.state == "dismissed"
    assert [e.action for e in audit.timeline(violation).order_by("id")][:1] == ["import_record"]


# --- the web import ----------------------------------------------------------------------------------


def test_upload_preview_then_apply(town: Town, login: Any) -> None:
    prepare(town)
    client = login("clerk")
    data = as_zip(EVERYTHING, DOCS)
    upload = io.BytesIO(data)
    upload.name = "past.zip"
    r = client.post("/archive/import/", {"file": upload, "source": "paper files"})
    assert r.status_code == 200
    body = r.content.decode()
    assert "16 records to import — nothing written yet" in body and 'id="apply"' in body
    assert not ImportedRecord.objects.exists()
    sha = hashlib.sha256(data).hexdigest()
    r = client.post(
        "/archive/import/", {"sha256": sha, "source": "paper files", "name": "past.zip"}
    )
    batch = RecordImport.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/archive/{batch.pk}/"
    assert batch.name == "past.zip" and batch.imported_by == town.u("clerk")
    page = client.get(f"/archive/{batch.pk}/").content.decode()
    bsp = BuildingSewerPermit.objects.get()
    assert bsp.get_absolute_url() in page and "BSP 88-4" in page and "ida-98-12.pdf" in page
    listing = client.get("/archive/").content.decode()
    assert "past.zip" in listing and f"/archive/{batch.pk}/" in listing
    assert client.get("/archive/", {"format": "csv"}).content.decode().count("\n") == 2
    # applied once: the kept file is gone
    r = client.post("/archive/import/", {"sha256": sha, "source": "", "name": "past.zip"})
    assert r.status_code == 400 and "no longer kept" in r.content.decode()
    # a bad upload: the rows, nothing kept to apply
    fresh = VIOLATIONS.replace("NOV-2015-2", "").replace("NOV-2020-9", "")
    bad = io.BytesIO(as_zip({"violations.csv": fresh.replace("Otto Other", "Nobody")}))
    bad.name = "bad.zip"
    r = client.post("/archive/import/", {"file": bad, "source": "x"})
    assert r.status_code == 400 and 'id="apply"' not in r.content.decode()
    assert "no person named Nobody" in r.content.decode()
    junk = io.BytesIO(b"not a zip")
    junk.name = "junk.zip"
    r = client.post("/archive/import/", {"file": junk})
    assert r.status_code == 400 and "not a ZIP file" in r.content.decode()


def test_the_imports_page_offers_the_import(town: Town, rf: Any) -> None:
    request = rf.get("/imports/")
    request.user = town.u("inspector")
    assert imports_panel(request) is None
    request.user = town.u("clerk")
    panel = imports_panel(request)
    assert panel is not None and panel.context["latest"] == []
    html = render_to_string(panel.template, {"panel": panel, "ctx": panel.context})
    assert 'href="/archive/import/"' in html and "None imported yet" in html
    assert imported(town).stored
    panel = imports_panel(request)
    assert panel is not None
    html = render_to_string(panel.template, {"panel": panel, "ctx": panel.context})
    assert "past.zip" in html and "16 records" in html


# --- the command line -------------------------------------------------------------------------------


def test_cli_exit_codes_and_json(town: Town, tmp_path: Path, capsys: Any) -> None:
    prepare(town)
    good = as_dir(tmp_path / "past", EVERYTHING, DOCS)
    assert main(["import-records", str(good), "--dry-run", "--source", "paper files"]) == 0
    out = capsys.readouterr().out
    assert "would import 16 record(s) of the past" in out and not ImportedRecord.objects.exists()
    assert (
        main(
            [
                "import-records",
                str(good),
                "--format",
                "json",
                "--as",
                "clerk",
                "--source",
                "paper files",
            ]
        )
        == 0
    )
    body = json.loads(capsys.readouterr().out)
    assert body["stored"] is True and body["new"] == 16 and body["refused"] == 0
    assert {r["status"] for r in body["rows"]} == {"new"}
    bsp_row = next(r for r in body["rows"] if r["number"] == "BSP 88-4")
    assert bsp_row["record"] == BuildingSewerPermit.objects.get().number
    assert RecordImport.objects.get().imported_by == town.u("clerk")
    assert main(["import-records", str(good), "--format", "json"]) == 1  # the same, again
    assert "imported already" in json.loads(capsys.readouterr().out)["refused_reason"]
    fresh = VIOLATIONS.replace("NOV-2015-2", "").replace("NOV-2020-9", "")
    bad = as_dir(tmp_path / "bad", {"violations.csv": fresh.replace("§ 196-19 C(3)", "§ 999")})
    assert main(["import-records", str(bad), "--format", "json", "--source", "x"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["stored"] is False and body["refused"] == 1 and body["new"] == 1
    refused = next(r for r in body["rows"] if r["status"] == "refused")
    assert (refused["file"], refused["row"], refused["errors"][0]["field"]) == (
        "violations.csv",
        3,
        "section",
    )
    assert main(["import-records", str(bad), "--source", "x"]) == 1
    assert "refused, nothing stored (1 row to correct)" in capsys.readouterr().out
    assert main(["import-records", str(tmp_path / "missing")]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["import-records", str(empty)]) == 2
    assert "no CSV file of records" in capsys.readouterr().err
    zipped = tmp_path / "past.zip"
    zipped.write_bytes(as_zip({"violations.csv": VIOLATIONS}))
    assert main(["import-records", str(zipped), "--as", "nobody"]) == 2
    assert main(["import-records", str(zipped), "--as", "inspector", "--source", "x"]) == 1
    assert "for the clerk, the engineer and the Superintendent" in capsys.readouterr().err


# --- the example -----------------------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "past-records"


def test_the_example_imports_into_the_demo_town(demo_town: Any, capsys: Any) -> None:
    """``sewer-use import-records examples/past-records`` on the demo town: every row
    matches the town's properties, facilities, persons and accounts."""
    demo_town(seed=4, anchor=TODAY)
    assert main(["import-records", str(EXAMPLE), "--dry-run"]) == 0
    assert "would import 13 record(s) of the past" in capsys.readouterr().out
    assert main(["import-records", str(EXAMPLE), "--as", "clerk", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["stored"] and body["new"] == 13 and body["refused"] == 0, body["rows"]
    assert not any("no row names" in n for n in body["notes"])  # every document is named
    ida = IndustrialDischargeApproval.objects.get(pk=provenance_of("IDA-2022-14").object_id)
    assert (ida.establishment.code, ida.expires_on) == ("RIVERBEND-PRINTING", date(2027, 6, 30))
    assert ida.conditions.count() == 2 and ida.limits.count() == 4
    assert Attachment.objects.filter(original_name="ida-2022-14.pdf").get().sha256 == (
        hashlib.sha256((EXAMPLE / "documents" / "ida-2022-14.pdf").read_bytes()).hexdigest()
    )


def provenance_of(number: str) -> ImportedRecord:
    return ImportedRecord.objects.get(original_number=number)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the triggers exist on PostgreSQL only"
)
def test_provenance_and_the_import_are_never_rewritten_below_the_application(town: Town) -> None:
    imported(town)
    paper = ImportedRecord.objects.first()
    batch = RecordImport.objects.get()
    assert paper is not None
    for sql, pk in (
        ("UPDATE core_importedrecord SET source = 'elsewhere' WHERE id = %s", paper.pk),
        ("DELETE FROM core_importedrecord WHERE id = %s", paper.pk),
        ("UPDATE archive_recordimport SET sha256 = 'x' WHERE id = %s", batch.pk),
    ):
        with (
            pytest.raises(IntegrityError, match="record of legal weight"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [pk])
    # and an imported completed inspection is a completed inspection: never edited
    done = Inspection.objects.get(state="completed")
    with (
        pytest.raises(IntegrityError, match="observations cannot change"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "UPDATE inspections_inspection SET observations = 'x' WHERE id = %s", [done.pk]
        )


def test_the_banner_links_the_scans_of_the_paper(town: Town, login: Any) -> None:
    prepare(town)
    files = {
        "violations.csv": "number,kind,section,description,person,facility,observed_on,state,"
        "documents\nNOV-9,discharge_seen,§ 196-19 C(3),Oil,Otto Other,OTTO-PLATING,2020-09-01,"
        "dismissed,nov-9.pdf;nov-9-photo.jpg\n"
    }
    photo = b"\xff\xd8\xff\xe0" + b"\x00" * 40
    report = import_records(
        read_zip(as_zip(files, {"nov-9.pdf": PDF, "nov-9-photo.jpg": photo}), "n.zip"),
        town.u("superintendent"),
        source="notices binder",
    )
    assert report.stored, report.rows
    violation = Violation.objects.get()
    scans = list(Attachment.objects.order_by("id"))
    assert [a.original_name for a in scans] == ["nov-9.pdf", "nov-9-photo.jpg"]
    page = login("clerk").get(violation.get_absolute_url()).content.decode()
    assert "Scans of the paper:" in page
    for att in scans:
        assert f'href="/files/{att.pk}/"' in page and att.sha256[:12] in page
    assert login("clerk").get(f"/files/{scans[0].pk}/").status_code == 200
    # a file added later is the office's, not a scan of the paper
    later = made_later(violation, town)
    assert (
        f'href="/files/{later.pk}/"'
        not in login("clerk").get(violation.get_absolute_url()).content.decode()
    )


def made_later(record: Any, town: Town) -> Attachment:
    return attach(record, SimpleUploadedFile("later.pdf", PDF), town.u("clerk"))
