"""Hostile input, every file the office accepts (upload fuzzing).

Every upload endpoint — the laboratory file (page and API), meter readings in CSV and Parquet
(page and API), the network's GeoJSON (API: a file or a JSON body), the building sewer's
design as JSON text, plans and documents of the permits (filing and adding, page and API),
the portal's link request with its document, and the inspection photos (added, and taken
with the completed checklist) — is sent a table of hostile files: empty, random binary,
UTF-16 and Latin-1 text, a byte order mark on a valid file (taken), CSV-injection cells
(taken, and escaped in the office's CSV exports), a file over the cap, a Parquet bomb (forged
``PAR1``, a truncated file, millions of rows or a huge value that compress to kilobytes),
deeply nested JSON, a 200,000-digit number, NUL bytes, a line of a million characters and a
file name of 250 characters.

Each case: a refusal (400/409/413/415 from the API, the form shown again with its message on
a page) — never a server error; the message names the file (and the row and field where
there is one); the input is quoted shortened (the answer stays under 10 KB beyond the page
itself); nothing is stored (every record kind an upload writes, the audit trail and the files
under ``MEDIA_ROOT`` are counted before and after). A valid file of each endpoint (but the
design's field and the checklist, whose refusals name the photo) is taken, so that a refusal
is the file's, not the endpoint's. Another test sends each endpoint an upload declaring
200 MB that fails if read: it is refused by its size first. The report (kinds tried, refusals by
endpoint, server errors) is printed at the end, even without ``-s``.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.test import override_settings
from django.utils import timezone

from sewer_office.core.models import Attachment, AuditEvent
from sewer_office.findings.models import Finding
from sewer_office.inspections import services as inspections
from sewer_office.inspections.checklists import items
from sewer_office.inspections.choices import InspectionKind
from sewer_office.inspections.models import Inspection
from sewer_office.meters import services as meters
from sewer_office.meters.models import Meter, MeterDay, Reading, ReadingUpload
from sewer_office.monitoring.models import LabImport, LabResult, SamplingEvent
from sewer_office.network.models import BuildingConnection, Manhole, NetworkVersion, SewerPipe
from sewer_office.permits.kinds import KINDS
from sewer_office.portal.models import LinkRequest

from .factories import Town, new_record
from .monitoring_factories import facilities

MB = 1024 * 1024
#: The cap of the "over the cap" cases (SEWER_USE_MAX_UPLOAD_BYTES for that request only).
SMALL_CAP = 4096
#: A refusal quoting a 200,000-digit number or a million-character line stays under this
#: beyond the page the form is shown on.
ECHO_LIMIT = 10_000
#: What a page itself takes (its layout, the form, the record), beyond the refusal.
PAGE_ALLOWANCE = 60_000
DIGITS = "9" * 200_000
LONG = "x" * 1_000_000
NESTED = b"[" * 100_000 + b"]" * 100_000
INJECTIONS = ("=cmd|' /C calc'!A0", "+1", "-1+1", "@SUM(1)")
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 48


# --- the payloads -----------------------------------------------------------------------


@dataclass(frozen=True)
class Payload:
    """One hostile file: ``data(n)`` its bytes (``n`` makes a taken file unique)."""

    kind: str
    name: str
    data: Callable[[int], bytes]
    accept: bool = False  # a valid file in disguise: it must be taken
    cap: int | None = None  # SEWER_USE_MAX_UPLOAD_BYTES for this case
    row: int | None = None  # the row the refusal must name (with ``field``)
    field: str = ""
    quoted: str = ""  # input that must not come back whole
    says: str = ""  # a word the refusal must hold (what is wrong)
    content_type: str = "application/octet-stream"
    check: Callable[[Any, Any], str] | None = None  # more checks on a taken file: a failure


def _noise(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def _pad(text: str, size: int) -> str:
    """``text`` (a CSV) grown past ``size`` bytes with valid-looking rows."""
    lines = text.splitlines(keepends=True)
    while len(text.encode()) <= size:
        text += lines[-1]
    return text


def common(valid: Callable[[int], str], suffix: str) -> list[Payload]:
    """The payloads every text upload gets (``valid(n)`` is a valid file's text)."""
    return [
        Payload("empty", f"empty{suffix}", lambda n: b"", says="empty"),
        Payload("binary", f"noise{suffix}", lambda n: _noise(4096, 1)),
        Payload("utf-16", f"utf16{suffix}", lambda n: valid(n).encode("utf-16")),
        Payload("nul-bytes", f"nul{suffix}", lambda n: b"\x00" * 4096),
        Payload(
            "over-the-cap",
            f"big{suffix}",
            lambda n: _pad(valid(n), 2 * SMALL_CAP).encode(),
            cap=SMALL_CAP,
            says="SEWER_USE_MAX_UPLOAD_BYTES",  # the refusal names the setting that raises it
        ),
        Payload("bom", f"bom{suffix}", lambda n: b"\xef\xbb\xbf" + valid(n).encode(), accept=True),
        Payload("nested-json", f"nested{suffix}", lambda n: NESTED),
        Payload("parquet-forged", f"forged{suffix}", lambda n: b"PAR1" + _noise(4096, 2) + b"PAR1"),
    ]


# laboratory files ---------------------------------------------------------------------------

LAB_HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point,collected_by,laboratory\n"


def lab_row(n: int, *, sample: str = "", value: str = "7.1", by: str = "I. Moreau") -> str:
    day = timezone.localdate() - timedelta(days=400 - n)
    return (
        f"{sample or f'S{n}'},{day.isoformat()}T10:42,grab,pH,{value},SU,OTHER-PLANT,CM-1,"
        f"{by},Lab A\n"
    )


def lab_csv(n: int) -> str:
    return LAB_HEADER + lab_row(n)


def _injected_export(client: Any, stage: Stage) -> str:
    """The results and imports lists as CSV: every injected cell escaped (a ' before it)."""
    problems = []
    text = client.get("/monitoring/results/?format=csv").content.decode()
    text += client.get("/monitoring/imports/?format=csv").content.decode()
    for cell in INJECTIONS:
        if f",{cell}" in text or text.startswith(cell):
            problems.append(f"{cell!r} written to a CSV export unescaped")
        if f"'{cell}" not in text:
            problems.append(f"{cell!r} not in the CSV export, escaped")
    return "; ".join(problems)


LAB = [
    *common(lab_csv, ".csv"),
    Payload(
        "latin-1",
        "latin1.csv",
        lambda n: (LAB_HEADER + lab_row(n, by="Zoë Brontë")).encode("latin-1"),
        row=2,
    ),
    Payload(
        "csv-injection",
        "=HYPERLINK(1)-injection.csv",
        lambda n: (
            LAB_HEADER
            + "".join(lab_row(n * 10 + i, sample=f"{c} {n}") for i, c in enumerate(INJECTIONS))
        ).encode(),
        accept=True,
        check=_injected_export,
    ),
    Payload(
        "200000-digits",
        "digits.csv",
        lambda n: (LAB_HEADER + lab_row(n, value=DIGITS)).encode(),
        row=2,
        field="value",
        quoted=DIGITS,
    ),
    Payload(
        "nul-in-a-cell",
        "nulcell.csv",
        lambda n: (LAB_HEADER + lab_row(n, by="I.\x00Moreau")).encode(),
        row=2,
        field="collected_by",
    ),
    Payload(
        "long-line",
        "longline.csv",
        lambda n: (LAB_HEADER + lab_row(n, sample=LONG)).encode(),
        row=2,
        field="sample_id",
        quoted=LONG,
    ),
    # (a name is cut to 255 characters on the way in, by Django, which the import stores)
    Payload("long-name", "n" * 400 + ".csv", lambda n: lab_csv(n).encode(), accept=True),
]


# meter readings -----------------------------------------------------------------------------


def meter_times(n: int, count: int = 12) -> list[str]:
    """``count`` five-minute readings on day ``n`` of the meter's uploads (later each time)."""
    start = timezone.now().replace(microsecond=0, second=0, minute=0) - timedelta(days=300 - n)
    return [(start + timedelta(minutes=5 * i)).isoformat() for i in range(count)]


def meter_csv(n: int, value: str = "10") -> str:
    return "timestamp,value\n" + "".join(f"{t},{value}\n" for t in meter_times(n))


def parquet_bytes(frame: pl.DataFrame) -> bytes:
    out = io.BytesIO()
    frame.write_parquet(out)
    return out.getvalue()


def meter_parquet(n: int) -> bytes:
    times = meter_times(n)
    return parquet_bytes(pl.DataFrame({"timestamp": times, "value": ["10"] * len(times)}))


_BOMB: dict[str, bytes] = {}


def parquet_bomb_rows(n: int) -> bytes:
    """Ten million readings of one instant that compress to a few kilobytes."""
    if "rows" not in _BOMB:
        chunk = pa.table(
            {
                "timestamp": pa.array(["2026-01-01T00:00:00+00:00"] * 1_000_000),
                "value": pa.array(["10"] * 1_000_000),
            }
        )
        out = io.BytesIO()
        with pq.ParquetWriter(out, chunk.schema, compression="zstd") as writer:
            for _ in range(10):
                writer.write_table(chunk)
        _BOMB["rows"] = out.getvalue()
    return _BOMB["rows"]


def parquet_bomb_value(n: int) -> bytes:
    """One reading whose value is 8 MB of digits, compressed to a few kilobytes."""
    if "value" not in _BOMB:
        table = pa.table({"timestamp": [meter_times(n)[0]], "value": ["1" * (8 * MB)]})
        out = io.BytesIO()
        pq.write_table(table, out, compression="zstd", use_dictionary=False)
        _BOMB["value"] = out.getvalue()
    return _BOMB["value"]


METER = [
    *common(meter_csv, ".csv"),
    Payload(
        "latin-1",
        "latin1.csv",
        lambda n: ("timestamp,value\n" + f"{meter_times(n)[0]},10 µ\n").encode("latin-1"),
        row=2,
    ),
    Payload(
        "csv-injection",
        "inject.csv",
        lambda n: (
            "timestamp,value\n"
            + "".join(f"{t},{c}\n" for t, c in zip(meter_times(n), INJECTIONS, strict=False))
        ).encode(),
        row=2,
        field="value",
    ),
    Payload(
        "200000-digits",
        "digits.csv",
        lambda n: meter_csv(n, DIGITS).encode(),
        row=2,
        field="value",
        quoted=DIGITS,
    ),
    Payload(
        "nul-in-a-cell",
        "nulcell.csv",
        lambda n: meter_csv(n, "1\x002").encode(),
        row=2,
        field="value",
    ),
    Payload(
        "long-line",
        "longline.csv",
        lambda n: meter_csv(n, LONG).encode(),
        row=2,
        field="value",
        quoted=LONG,
    ),
    Payload("wrong-kind", "readings.txt", lambda n: meter_csv(n).encode()),
    Payload("parquet", "readings.parquet", meter_parquet, accept=True),
    Payload("parquet-empty", "empty.parquet", lambda n: b""),
    Payload("parquet-forged", "forged.parquet", lambda n: b"PAR1" + _noise(4096, 3) + b"PAR1"),
    Payload("parquet-truncated", "cut.parquet", lambda n: meter_parquet(n)[:-40]),
    Payload(
        "parquet-bomb-rows", "bomb-rows.parquet", parquet_bomb_rows, says="readings, more than"
    ),
    Payload(
        "parquet-bomb-value",
        "bomb-value.parquet",
        parquet_bomb_value,
        cap=256 * 1024,
        quoted="1" * 20_000,
        says="decompresses to",
    ),
    Payload("parquet-csv-inside", "csv.parquet", lambda n: meter_csv(n).encode()),
]


# the network --------------------------------------------------------------------------------


def network(n: int, *, ident: str = "MH1", x: str = "-73.9107") -> str:
    """A valid network of two manholes and a pipe (``x``: the first manhole's longitude,
    as written)."""

    def feature(geometry: str, points: Any, **properties: Any) -> dict[str, Any]:
        coordinates = {"type": geometry, "coordinates": points}
        return {"type": "Feature", "geometry": coordinates, "properties": properties}

    data = {
        "type": "FeatureCollection",
        "name": f"v{n}",
        "features": [
            feature("Point", ["X", 41.5843], kind="manhole", id=ident, public=True),
            feature("Point", [-73.9107, 41.5852], kind="manhole", id="MH2", public=True),
            feature(
                "LineString",
                [[-73.9107, 41.5852], ["X", 41.5843]],
                kind="pipe",
                id="P1",
                to=ident,
                diameter_in=8,
                public=True,
                **{"from": "MH2"},
            ),
        ],
    }
    return json.dumps(data, ensure_ascii=False).replace('"X"', x)


NETWORK = [
    *[p for p in common(network, ".geojson") if p.kind != "nested-json"],
    Payload("nested-json", "nested.geojson", lambda n: NESTED, says="nested"),
    Payload(
        "nested-object",
        "nested-object.geojson",
        lambda n: b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        says="nested",
    ),
    Payload("latin-1", "latin1.geojson", lambda n: network(n, ident="MH-Zoë").encode("latin-1")),
    Payload(
        "200000-digits",
        "digits.geojson",
        lambda n: network(n, x=DIGITS).encode(),
        quoted=DIGITS,
        says="digits",
    ),
    Payload(
        "200000-digit-id",
        "digit-id.geojson",
        lambda n: network(n).replace('"id": "MH2"', f'"id": {DIGITS}').encode(),
        quoted=DIGITS,
    ),
    Payload(
        "nul-in-an-id",
        "nulid.geojson",
        lambda n: network(n, ident="MH\x001").encode(),
    ),
    Payload(
        "long-line",
        "longid.geojson",
        lambda n: network(n, ident=LONG).encode(),
        quoted=LONG,
    ),
]


# documents and photos -------------------------------------------------------------------------


def pdf(n: int) -> bytes:
    return b"%PDF-1.4\n% plans " + str(n).encode() + b"\n%%EOF\n"


def photo(n: int) -> bytes:
    return PNG + str(n).encode()


def _title_fits(client: Any, stage: Stage) -> str:
    longest = max(len(a.title) for a in Attachment.objects.all())
    return "" if longest <= 200 else f"an attachment's title of {longest} characters (200 stored)"


def binary_files(valid: Callable[[int], bytes], suffix: str, content_type: str) -> list[Payload]:
    def p(kind: str, name: str, data: Callable[[int], bytes], **kw: Any) -> Payload:
        return Payload(kind, name, data, content_type=content_type, **kw)

    return [
        p("empty", f"empty{suffix}", lambda n: b"", says="empty"),
        p("binary", f"noise{suffix}", lambda n: _noise(4096, 4)),
        p("utf-16", f"utf16{suffix}", lambda n: "a letter, not a scan".encode("utf-16")),
        p("latin-1", f"latin1{suffix}", lambda n: "Zoë's letter".encode("latin-1")),
        p("nul-bytes", f"nul{suffix}", lambda n: b"\x00" * 4096),
        p("script", f"script{suffix}", lambda n: b"#!/bin/sh\nrm -rf /\n"),
        p("html", f"page{suffix}", lambda n: b"<html><script>alert(1)</script></html>"),
        p("nested-json", f"nested{suffix}", lambda n: NESTED),
        p("parquet-forged", f"forged{suffix}", lambda n: b"PAR1" + _noise(4096, 5) + b"PAR1"),
        p(
            "over-the-cap",
            f"big{suffix}",
            lambda n: valid(n) + b"\x00" * (2 * SMALL_CAP),
            cap=SMALL_CAP,
            says="SEWER_USE_MAX_UPLOAD_BYTES",  # the refusal names the setting that raises it
        ),
        p("long-name", "n" * 250 + suffix, valid, accept=True, check=_title_fits),
    ]


DOCUMENTS = binary_files(pdf, ".pdf", "application/pdf")
PHOTOS = binary_files(photo, ".png", "image/png")
#: The building sewer's design, as JSON text in the filing form (staff).
DESIGN = [
    Payload("nested-json", "design_json", lambda n: b"[" * 200 + b"]" * 200, says="nested"),
    Payload(
        "nested-object", "design_json", lambda n: b'{"a":' * 200 + b"1" + b"}" * 200, says="nested"
    ),
    Payload("nested-json-200kb", "design_json", lambda n: NESTED, says="longer"),
    Payload(
        "200000-digits",
        "design_json",
        lambda n: b'{"buildings": [' + DIGITS.encode() + b"]}",
        quoted=DIGITS,
        says="longer",
    ),
    Payload(
        "5000-digits",
        "design_json",
        lambda n: b'{"buildings": [' + DIGITS[:5000].encode() + b"]}",
        says="digits",  # (the form shows the design back, for correcting: it is not long)
    ),
]


# --- the endpoints ----------------------------------------------------------------------


@dataclass
class Stage:
    """What the endpoints upload to: the test town's facilities, a meter, a permit, an
    inspection; ``n`` numbers the files sent."""

    town: Town
    meter: Meter
    record: Any
    inspection: Inspection
    n: int = 0


def upload(p: Payload, n: int, name: str | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name or p.name, p.data(n), content_type=p.content_type)


def _complete_form(stage: Stage, photos: list[Any]) -> dict[str, Any]:
    start = timezone.localtime() - timedelta(hours=2)
    data: dict[str, Any] = {
        "credentials_presented": "on",
        "credential": "Badge 7",
        "started_at": start.strftime("%Y-%m-%dT%H:%M"),
        "ended_at": (start + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "photos": photos,
    }
    for item in items(stage.inspection.kind):
        data[f"item_{item.key}"] = "pass"
    return data


@dataclass(frozen=True)
class Endpoint:
    name: str
    role: str
    api: bool
    payloads: list[Payload]
    send: Callable[[Any, Stage, Payload, int], Any]
    follow: bool = False  # a page that answers a refusal with a redirect to the record
    named: bool = True  # a file is sent (not JSON in the body or a field): its name is said


def _network_file(c: Any, s: Stage, p: Payload, n: int) -> Any:
    return c.post("/api/network/import/", {"file": upload(p, n), "replace": "true"})


def _network_body(c: Any, s: Stage, p: Payload, n: int) -> Any:
    body = b'{"replace": true, "geojson": ' + p.data(n).removeprefix(b"\xef\xbb\xbf") + b"}"
    return c.post("/api/network/import/", body, content_type="application/json")


def _design(c: Any, s: Stage, p: Payload, n: int) -> Any:
    t = s.town
    return c.post(
        "/permits/building-sewer/new/",
        {
            "applicant": t.owner_person.pk,  # type: ignore[union-attr]
            "property": t.owner_home.pk,  # type: ignore[union-attr]
            "permit_class": "1",
            "diameter": "4 in",
            "slope": "1/4 in/ft",
            "design_json": p.data(n).decode(),
        },
    )


def _filing(path: str, applicant: str, place: str) -> Callable[..., Any]:
    """A private-system filing with plans at ``path``, for the town's ``applicant``'s ``place``."""

    def send(c: Any, s: Stage, p: Payload, n: int) -> Any:
        t = s.town
        return c.post(
            path,
            {
                "applicant": getattr(t, applicant).pk,
                "property": getattr(t, place).pk,
                "system_type": "septic",
                "files": [upload(p, n)],
            },
        )

    return send


def _link(c: Any, s: Stage, p: Payload, n: int) -> Any:
    return c.post(
        "/portal/links/new/",
        {
            "relation": "owner",
            "person_name": f"Hostile Holdings {n}",
            "place": "100-01",
            "note": "",
            "document": upload(p, n),
        },
    )


ENDPOINTS = [
    Endpoint(
        "lab file (page)",
        "superintendent",
        False,
        LAB,
        lambda c, s, p, n: c.post("/monitoring/import/", {"file": upload(p, n)}),
    ),
    Endpoint(
        "lab file (API)",
        "superintendent",
        True,
        LAB,
        lambda c, s, p, n: c.post("/api/monitoring/imports/", {"file": upload(p, n)}),
    ),
    Endpoint(
        "meter readings (page)",
        "engineer",
        False,
        METER,
        lambda c, s, p, n: c.post(f"/meters/{s.meter.pk}/upload/", {"file": upload(p, n)}),
    ),
    Endpoint(
        "meter readings (API)",
        "engineer",
        True,
        METER,
        lambda c, s, p, n: c.post(f"/api/meters/{s.meter.pk}/readings/", {"file": upload(p, n)}),
    ),
    Endpoint("network file (API)", "superintendent", True, NETWORK, _network_file),
    Endpoint(
        "network JSON body (API)",
        "superintendent",
        True,
        [p for p in NETWORK if p.kind in ("nested-json", "nested-object", "200000-digits", "bom")],
        _network_body,
        named=False,
    ),
    Endpoint("building sewer design JSON (page)", "clerk", False, DESIGN, _design, named=False),
    Endpoint(
        "permit filing with plans (page)",
        "owner",
        False,
        DOCUMENTS,
        _filing("/permits/private-system/new/", "owner_person", "phase3_lot"),
    ),
    Endpoint(
        "permit filing with plans (API)",
        "other",
        True,
        DOCUMENTS,
        _filing("/api/permits/private-system/", "other_person", "other_phase3_lot"),
    ),
    Endpoint(
        "permit files (page)",
        "owner",
        False,
        DOCUMENTS,
        lambda c, s, p, n: c.post(
            f"/permits/building-sewer/{s.record.pk}/files/", {"files": [upload(p, n)]}
        ),
        follow=True,
    ),
    Endpoint(
        "permit files (API)",
        "owner",
        True,
        DOCUMENTS,
        lambda c, s, p, n: c.post(
            f"/api/permits/building-sewer/{s.record.pk}/files/", {"files": [upload(p, n)]}
        ),
    ),
    Endpoint("portal link request document (page)", "owner", False, DOCUMENTS, _link),
    Endpoint(
        "inspection photo (page)",
        "inspector",
        False,
        PHOTOS,
        lambda c, s, p, n: c.post(
            f"/inspections/{s.inspection.pk}/photos/", {"photo": upload(p, n)}
        ),
    ),
    Endpoint(
        "inspection photo (API)",
        "inspector",
        True,
        PHOTOS,
        lambda c, s, p, n: c.post(
            f"/api/inspections/{s.inspection.pk}/photos/", {"photo": upload(p, n), "title": ""}
        ),
    ),
    Endpoint(
        "inspection checklist with photos (page)",
        "inspector",
        False,
        [p for p in PHOTOS if not p.accept],
        lambda c, s, p, n: c.post(
            f"/inspections/{s.inspection.pk}/complete/", _complete_form(s, [upload(p, n)])
        ),
    ),
]

API_REFUSALS = (400, 409, 413, 415)
PAGE_REFUSALS = (200, 400, 409, 413, 415)


# --- what an upload stores ---------------------------------------------------------------


def stored(media: Path) -> dict[str, Any]:
    permits = {k.slug: k.model.objects.count() for k in KINDS.values()}
    return {
        **{
            m.__name__: m.objects.count()
            for m in (
                LabImport,
                LabResult,
                SamplingEvent,
                Finding,
                ReadingUpload,
                Reading,
                MeterDay,
                NetworkVersion,
                Manhole,
                SewerPipe,
                BuildingConnection,
                Attachment,
                LinkRequest,
                AuditEvent,
            )
        },
        **permits,
        "files": sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.is_file())
        if media.exists()
        else [],
    }


def _text(response: Any) -> str:
    return str(response.content.decode("utf-8", errors="replace"))


def _names_row(text: str, row: int, field_name: str) -> bool:
    rows = (f'"row": {row}', f'"row":{row}', f"<td>{row}</td>", f"row {row}", f"line {row}")
    return any(r in text for r in rows) and (not field_name or field_name in text)


def judge(
    endpoint: Endpoint,
    p: Payload,
    response: Any,
    before: Any,
    after: Any,
    stage: Stage,
    client: Any,
) -> list[str]:
    """What is wrong with the answer to ``p`` (empty: all well)."""
    status = response.status_code
    text = _text(response)
    problems: list[str] = []
    if status >= 500:
        exc = getattr(response, "exc_info", None)
        return [f"server error {status}: {exc[1]!r}"[:400] if exc else f"server error {status}"]
    if p.accept:
        if status not in (200, 201, 302):
            problems.append(f"a valid file refused ({status}): {text[:300]}")
        elif before == after:
            problems.append("a valid file taken but nothing stored")
        elif p.check is not None and (extra := p.check(client, stage)):
            problems.append(extra)
        return problems
    allowed = API_REFUSALS if endpoint.api else PAGE_REFUSALS
    if status not in allowed:
        problems.append(f"status {status}, not a refusal: {text[:300]}")
    if before != after:
        changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        problems.append(f"something stored: {str(changed)[:300]}")
    name = p.name if len(p.name) < 100 else p.name[:60]
    if endpoint.named and name not in text:
        problems.append(f"the message does not name the file {p.name[:40]!r}: {_message(text)}")
    if p.says and p.says not in text:
        problems.append(f"the message does not say {p.says!r}: {_message(text)}")
    if p.row is not None and not _names_row(text, p.row, p.field):
        problems.append(f"the message does not name row {p.row} {p.field}: {_message(text)}")
    if p.quoted and p.quoted[:5000] in text:
        problems.append(f"the input is echoed whole ({len(text):,} characters)")
    if len(text) > ECHO_LIMIT + (0 if endpoint.api else PAGE_ALLOWANCE):
        problems.append(f"an answer of {len(text):,} characters")
    return problems


def _message(text: str) -> str:
    """The gist of an answer, for a failure's line."""
    found = re.findall(r'class="(?:errorlist|fail|messages?)[^"]*"[^>]*>(.*?)</', text, re.S)
    return (" | ".join(found) or text)[:400]


# --- the battery --------------------------------------------------------------------------


@pytest.fixture
def stage(town: Town) -> Stage:
    facilities(town)
    meter = meters.register_meter(
        town.u("engineer"),
        sampling_point=town.other_plant.sampling_points.get(),  # type: ignore[union-attr]
        ident="OTHER-FLOW-1",
        parameter="flow",
        unit="gpd",
    )
    inspection = inspections.schedule(
        town.u("inspector"),
        kind=InspectionKind.FOOD_SERVICE,
        establishment=town.owner_restaurant,
        scheduled_for=timezone.now() + timedelta(days=3),
    )
    return Stage(town, meter, new_record("building-sewer", town), inspection)


def run_battery(
    stage: Stage, login: Any
) -> tuple[Counter[str], dict[str, Counter[str]], list[str]]:
    media = Path(django_settings.MEDIA_ROOT)
    kinds: Counter[str] = Counter()
    tally: dict[str, Counter[str]] = {}
    failures: list[str] = []
    for endpoint in ENDPOINTS:
        client = login(endpoint.role)
        client.raise_request_exception = False  # a server error is counted, not raised
        counts = tally.setdefault(endpoint.name, Counter())
        # the valid files in disguise last: what they store does not disturb the refusals
        for p in sorted(endpoint.payloads, key=lambda p: p.accept):
            stage.n += 1
            kinds[p.kind] += 1
            before = stored(media)
            with override_settings(SEWER_USE_MAX_UPLOAD_BYTES=p.cap or 20 * MB):
                response = endpoint.send(client, stage, p, stage.n)
                if endpoint.follow and response.status_code == 302:
                    response = client.get(response["Location"])
            after = stored(media)
            outcome = (
                "server error"
                if response.status_code >= 500
                else (
                    "taken"
                    if p.accept and response.status_code < 400 and before != after
                    else "refused"
                )
            )
            counts[outcome] += 1
            for problem in judge(endpoint, p, response, before, after, stage, client):
                failures.append(f"{endpoint.name} / {p.kind} ({p.name[:40]}): {problem}")
    return kinds, tally, failures


def test_every_upload_refuses_hostile_files_cleanly(
    stage: Stage, login: Any, capsys: Any, request: Any
) -> None:
    kinds, tally, failures = run_battery(stage, login)
    errors = sum(c["server error"] for c in tally.values())
    lines = [
        "--- hostile input: every upload endpoint, hostile files ---",
        f"kinds tried ({len(kinds)}): {', '.join(sorted(kinds))}",
        f"endpoints: {len(tally)}   files sent: {sum(kinds.values())}",
        *(f"  {name}: {c['refused']} refused, {c['taken']} taken" for name, c in tally.items()),
        f"server errors: {errors}   failures: {len(failures)}",
    ]
    report = "\n".join(lines)
    print(report)  # captured: shown by -rA (and at once with -s)
    if request.config.getoption("capture") != "no":
        with capsys.disabled():  # and on the terminal even without -s (one process)
            print("\n" + report)
    assert not failures, "\n".join(failures)


# --- a 200 MB file, refused by its declared size before it is read ---------------------------


class Declared(UploadedFile):  # type: ignore[type-arg]  # (generic in the stubs only)
    """An upload that says it holds 200 MB and fails the test if anything reads it."""

    def __init__(self, name: str, content_type: str) -> None:
        super().__init__(None, name, content_type, 200 * MB)

    def _read(self, *args: Any, **kwargs: Any) -> bytes:
        raise AssertionError(f"{self.name}: read before its declared size was checked")

    read = chunks = seek = open = _read  # type: ignore[assignment]

    def multiple_chunks(self, chunk_size: int | None = None) -> bool:
        return True


class DeclaredHandler(FileUploadHandler):
    """Hands the view a :class:`Declared` upload for every file of the request (what Django
    would after streaming 200 MB to a temporary file), whatever few bytes were sent."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        return None

    def file_complete(self, file_size: int) -> Declared:
        return Declared(self.file_name or "upload", self.content_type or "")


@override_settings(
    FILE_UPLOAD_HANDLERS=["tests.office.test_hostile_uploads.DeclaredHandler"],
    DEBUG_PROPAGATE_EXCEPTIONS=True,
)
@pytest.mark.parametrize(
    "endpoint",
    [e for e in ENDPOINTS if e.named],
    ids=[e.name for e in ENDPOINTS if e.named],
)
def test_a_200_mb_file_is_refused_by_its_size_before_it_is_read(
    stage: Stage, login: Any, endpoint: Endpoint
) -> None:
    media = Path(django_settings.MEDIA_ROOT)
    first = endpoint.payloads[0]
    suffix = Path(first.name).suffix
    p = Payload("200-mb", f"huge{suffix}", lambda n: b"tiny", content_type=first.content_type)
    client = login(endpoint.role)
    before = stored(media)
    response = endpoint.send(client, stage, p, 1)
    if endpoint.follow and response.status_code == 302:
        response = client.get(response["Location"])
    text = _text(response)
    assert response.status_code in (API_REFUSALS if endpoint.api else PAGE_REFUSALS), text[:300]
    assert f"huge{suffix}: 209,715,200 bytes, larger than the 20 MB allowed" in text, _message(text)
    assert "SEWER_USE_MAX_UPLOAD_BYTES" in text, _message(text)  # the setting that raises it
    assert stored(media) == before
