"""Pages of the archive: the imports of records of the past, one import, and the import itself
(upload → preview of every row → apply). The clerk's, the engineer's and the
Superintendent's; every other user gets 403."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError, upload_refused
from sewer_office.core.exports import Column, export
from sewer_office.core.held_uploads import HeldUploads
from sewer_office.core.models import ImportedRecord
from sewer_office.core.paging import page_of

from .bundle import UnusableFile, read_zip
from .forms import ApplyForm, UploadForm
from .models import RecordImport
from .services import IMPORTERS, ImportReport, import_records

PAGE_SIZE = 50
#: A previewed bundle waits here for its application, held for the user who previewed it.
HELD = HeldUploads("archive-")

#: The download of the list of imports.
IMPORT_COLUMNS = (
    Column("Import", "pk"),
    Column("File", "name"),
    Column("Records", "total"),
    Column("Imported on", "imported_at"),
    Column("Imported by", "imported_by_name"),
    Column("SHA-256", "sha256"),
    Column("Source", "source"),
)
#: The download of one import's records.
RECORD_COLUMNS = (
    Column("Kind", lambda r: r.content_type.model_class()._meta.verbose_name.capitalize()),
    Column("Office number", lambda r: _number(r.record)),
    Column("Number on paper", "original_number"),
    Column("Made on", "made_on"),
    Column("Source", "source"),
    Column("File", "file"),
    Column("Row", "row"),
)


def _number(record: Any) -> str:
    if record is None:
        return ""
    return str(getattr(record, "number", "") or record)


@office_view(*IMPORTERS)
def import_list(request: HttpRequest) -> HttpResponse:
    """``/archive/``: every import of records of the past, newest first."""
    qs = RecordImport.objects.select_related("imported_by")
    if (download := export(request, qs, IMPORT_COLUMNS, "past-record-imports")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(request, "archive/list.html", {"page": page, "query": query})


@office_view(*IMPORTERS)
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One import: what it created (with links), its documents and its audit event."""
    batch = get_object_or_404(RecordImport.objects.select_related("imported_by"), pk=pk)
    records = (
        ImportedRecord.objects.filter(batch_sha256=batch.sha256)
        .select_related("content_type")
        .prefetch_related("record")
        .order_by("id")
    )
    if (
        download := export(request, records, RECORD_COLUMNS, f"past-records-{batch.pk}")
    ) is not None:
        return download
    page, query = page_of(request, records, PAGE_SIZE)
    rows = [
        {
            "imp": r,
            "record": r.record,
            "kind": ContentType.objects.get_for_id(r.content_type_id)
            .model_class()
            ._meta.verbose_name,  # type: ignore[union-attr]  # the model of a stored record exists
            "number": _number(r.record),
        }
        for r in page
    ]
    return render(
        request,
        "archive/detail.html",
        {
            "batch": batch,
            "page": page,
            "rows": rows,
            "query": query,
            "timeline": audit.timeline(batch),
        },
    )


def _preview(request: HttpRequest, data: bytes, name: str, source: str) -> ImportReport:
    """The import of ``data`` checked, nothing written."""
    bundle = read_zip(data, name)
    return import_records(bundle, request.user, source=source, dry_run=True)


@office_view(*IMPORTERS)
def import_upload(request: HttpRequest) -> HttpResponse:
    """``/archive/import/``: upload a ZIP, see every row checked (nothing written), apply it.
    Not through ``form_action``: a two-step preview/confirm import, the preview answering
    with its row report (200, or 400 when a row is refused) and the file held for the apply."""
    if request.method == "POST" and "sha256" in request.POST:
        return _apply(request)
    form = UploadForm(request.POST or None, request.FILES or None)
    report = None
    apply_form = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            upload = form.cleaned_data["file"]
            source = form.cleaned_data["source"]
            refusal = upload_refused(str(upload.name), int(upload.size))
            if refusal:
                form.add_error("file", refusal)
            else:
                data = upload.read()
                try:
                    report = _preview(request, data, str(upload.name), source)
                except UnusableFile as e:
                    form.add_error("file", str(e))
                except OfficeError as e:
                    form.add_error(None, e.message)
                if report is not None:
                    status = 200 if report.ok else 400
                    if report.ok:
                        sha256 = HELD.keep_bytes(data, owner=request.user.pk, suffix=".zip")
                        apply_form = ApplyForm(
                            initial={"sha256": sha256, "source": source, "name": upload.name}
                        )
    return render(
        request,
        "archive/import.html",
        {"form": form, "report": report, "apply_form": apply_form},
        status=status,
    )


def _apply(request: HttpRequest) -> HttpResponse:
    """The confirm step of :func:`import_upload`: the file held since the preview, imported.
    Not through ``form_action``: its refusal shows the upload page (a new preview), not the
    apply form, with the import's row report."""
    form = ApplyForm(request.POST)
    report = None
    if form.is_valid():
        sha256 = form.cleaned_data["sha256"]
        data = HELD.read(sha256, owner=request.user.pk, suffix=".zip")
        if data is None:
            form.add_error(
                None,
                "The previewed file is no longer kept at the server (applied already, or a day "
                "old): upload it again.",
            )
        else:
            name = form.cleaned_data["name"] or f"records-{sha256[:12]}.zip"
            try:
                report = import_records(
                    read_zip(data, name), request.user, source=form.cleaned_data["source"]
                )
            except UnusableFile as e:
                form.add_error(None, str(e))
            except OfficeError as e:
                form.add_error(None, e.message)
            if report is not None and report.stored and report.batch is not None:
                HELD.discard(sha256, owner=request.user.pk, suffix=".zip")
                messages.success(
                    request,
                    f"Imported {report.new} record(s) of the past from {report.name}: import "
                    f"#{report.batch.pk}.",
                )
                return redirect("archive:detail", report.batch.pk)
    return render(
        request,
        "archive/import.html",
        {
            "form": UploadForm(),
            "report": report,
            "apply_form": None,
            "apply_errors": form.non_field_errors() or form.errors,
        },
        status=400,
    )
