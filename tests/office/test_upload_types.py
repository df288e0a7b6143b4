"""Uploads are typed by their content, stored under a generated name with that type's extension
and served as that type (core/filetypes.py, core/storage.py, core/views.py): a page, a picture
in SVG or a script is never stored, whatever it is called; a PDF called ``x.html`` is stored as
``.pdf`` and downloaded as ``application/pdf``; only pictures a browser shows are shown in the
page. An upload that fails midway leaves no temporary file (core/uploads.py)."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIRequest
from django.http import UnreadablePostError
from django.test.client import encode_multipart

from sewer_office.core import uploads
from sewer_office.core.control_chars import find
from sewer_office.core.models import Attachment
from sewer_office.core.storage import AtomicFileSystemStorage

from .factories import PASSWORD, Town, new_record

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 64
HTML = b"<html><body><script>alert(document.cookie)</script></body></html>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'
JS = b"fetch('/api/persons/').then(r => r.text()).then(t => alert(t))"


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.fixture
def permit(town: Town) -> Any:
    return new_record("building-sewer", town)


def _upload(client: Any, permit: Any, name: str, data: bytes, content_type: str) -> Any:
    assert client.login(username="clerk", password=PASSWORD)
    return client.post(
        f"/permits/building-sewer/{permit.pk}/files/",
        {"files": [SimpleUploadedFile(name, data, content_type)]},
        follow=True,
    )


def _newest(permit: Any) -> Attachment:
    ct = ContentType.objects.get_for_model(permit)
    att = Attachment.objects.filter(content_type=ct, object_id=str(permit.pk)).last()
    assert att is not None
    return att


@pytest.mark.parametrize(
    ("name", "data", "content_type"),
    [
        ("plan.pdf", HTML, "application/pdf"),
        ("page.html", HTML, "text/html"),
        ("logo.svg", SVG, "image/svg+xml"),
        ("drawing.png", SVG, "image/png"),
        ("app.js", JS, "text/javascript"),
        ("scan.pdf", b"#!/bin/sh\nrm -rf /\n", "application/pdf"),
    ],
)
def test_a_page_a_picture_in_svg_or_a_script_is_refused_whatever_its_name(
    town: Town, client: Any, settings: Any, permit: Any, name: str, data: bytes, content_type: str
) -> None:
    media = Path(settings.MEDIA_ROOT)
    before, files = Attachment.objects.count(), _files(media)
    page = _upload(client, permit, name, data, content_type)
    text = page.content.decode()
    assert f"{name}: not a PDF, PNG, JPEG or TIFF file (its content, not its name" in text
    assert Attachment.objects.count() == before and _files(media) == files


def test_the_api_refuses_them_too_naming_the_file_and_field(
    town: Town, client: Any, permit: Any
) -> None:
    assert client.login(username="clerk", password=PASSWORD)
    r = client.post(
        f"/api/permits/building-sewer/{permit.pk}/files/",
        {"files": [SimpleUploadedFile("x.svg", SVG, "image/svg+xml")]},
    )
    assert r.status_code == 400
    assert r.json()["errors"]["files"][0].startswith("x.svg: not a PDF, PNG, JPEG or TIFF file")


def test_a_pdf_named_html_is_stored_as_pdf_and_downloaded_as_a_pdf(
    town: Town, client: Any, permit: Any
) -> None:
    page = _upload(client, permit, "x.html", PDF, "text/html")
    assert page.status_code == 200
    att = _newest(permit)
    stored = Path(str(att.file.name))
    assert stored.suffix == ".pdf" and len(stored.stem) == 32  # a generated name
    assert att.original_name == "x.html" and att.media_type == "application/pdf"
    r = client.get(f"/files/{att.pk}/")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/pdf"
    assert r["Content-Disposition"] == 'attachment; filename="x.pdf"'
    assert r["X-Content-Type-Options"] == "nosniff"
    assert b"".join(r.streaming_content) == PDF
    files = client.get(f"/api/permits/building-sewer/{permit.pk}/files/").json()
    listed = next(f for f in files if f["id"] == att.pk)
    assert listed["filename"] == "x.pdf" and listed["media_type"] == "application/pdf"


def test_a_png_is_shown_in_the_page_as_image_png(town: Town, client: Any, permit: Any) -> None:
    _upload(client, permit, "Site Photo.PNG", PNG, "image/png")
    att = _newest(permit)
    assert str(att.file.name).endswith(".png") and att.filename == "Site Photo.PNG"
    r = client.get(f"/files/{att.pk}/")
    assert r["Content-Type"] == "image/png"
    assert r["Content-Disposition"] == 'inline; filename="Site Photo.PNG"'


def test_a_photo_of_an_inspection_is_stored_the_same_way(
    town: Town, client: Any, settings: Any
) -> None:
    from sewer_office.inspections.services import add_photo

    from .test_inspections import scheduled

    inspection = scheduled(town)
    gif = SimpleUploadedFile("photo.html", b"GIF89a" + b"\x00" * 32, "image/gif")
    att = add_photo(inspection, town.u("inspector"), gif)
    assert str(att.file.name).endswith(".gif") and att.media_type == "image/gif"
    assert att.filename == "photo.gif"


def _legacy(permit: Any, name: str, data: bytes) -> Attachment:
    """An attachment stored before types were recorded: the sender's name, no type."""
    att = Attachment(
        content_type=ContentType.objects.get_for_model(permit),
        object_id=str(permit.pk),
        title=name,
        size=len(data),
        sha256="0" * 64,
    )
    att.file.save(name, ContentFile(data), save=False)
    att.save()
    return att


@pytest.mark.parametrize(
    ("name", "data", "content_type", "disposition"),
    [
        ("page.html", HTML, "application/octet-stream", 'attachment; filename="page.html"'),
        ("logo.svg", SVG, "application/octet-stream", 'attachment; filename="logo.svg"'),
        ("plan.pdf", PDF, "application/pdf", 'attachment; filename="plan.pdf"'),
        ("notes.html", PDF, "application/pdf", 'attachment; filename="notes.pdf"'),
        ("photo.png", PNG, "image/png", 'inline; filename="photo.png"'),
    ],
)
def test_files_stored_before_are_served_by_their_bytes(
    town: Town,
    client: Any,
    permit: Any,
    name: str,
    data: bytes,
    content_type: str,
    disposition: str,
) -> None:
    att = _legacy(permit, name, data)
    assert client.login(username="clerk", password=PASSWORD)
    r = client.get(f"/files/{att.pk}/")
    assert r.status_code == 200
    assert r["Content-Type"] == content_type
    assert r["Content-Disposition"] == disposition


# --- temporary files of failed uploads -------------------------------------------------------


def test_the_temporary_directory_is_private_and_in_the_data_directory(settings: Any) -> None:
    path = Path(settings.FILE_UPLOAD_TEMP_DIR)
    assert path.parent == Path(settings.DATA_DIR) and path.name == "tmp"
    assert oct(path.stat().st_mode)[-3:] == "700"


def test_a_storage_failing_midway_leaves_no_file(
    town: Town,
    client: Any,
    settings: Any,
    tmp_path: Path,
    permit: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An upload streamed to a temporary file (above FILE_UPLOAD_MAX_MEMORY_SIZE), then the
    storage fails after its first chunk with an error it does not expect: neither the
    temporary upload nor the storage's partial file remains."""
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "upload-tmp")
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    client.raise_request_exception = False
    Path(settings.FILE_UPLOAD_TEMP_DIR).mkdir()
    media = Path(settings.MEDIA_ROOT)
    kept = _files(media)
    calls: list[int] = []

    def fails(self: AtomicFileSystemStorage, out: Any, chunk: bytes) -> None:
        calls.append(1)
        out.write(chunk[:5])
        out.flush()
        raise RuntimeError("the storage broke midway")

    monkeypatch.setattr(AtomicFileSystemStorage, "_write", fails)
    assert client.login(username="clerk", password=PASSWORD)
    r = client.post(
        f"/permits/building-sewer/{permit.pk}/files/",
        {"files": [SimpleUploadedFile("big.pdf", PDF * 100, "application/pdf")]},
    )
    assert calls, "the upload never reached the storage"
    assert r.status_code == 500
    assert _files(media) == kept, "a partial file was kept"
    assert _files(tmp_path / "upload-tmp") == [], "the temporary upload was kept"


def test_a_refused_upload_leaves_no_temporary_file(
    town: Town, client: Any, settings: Any, tmp_path: Path, permit: Any
) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "upload-tmp")
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10
    Path(settings.FILE_UPLOAD_TEMP_DIR).mkdir()
    page = _upload(client, permit, "big.html", HTML * 100, "text/html")
    assert "big.html: not a PDF" in page.content.decode()
    assert _files(tmp_path / "upload-tmp") == []


class Disconnecting(io.RawIOBase):
    """A request body that breaks off after ``after`` bytes, as a client that disconnects."""

    def __init__(self, data: bytes, after: int) -> None:
        self.data, self.after, self.pos = data, after, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.pos >= self.after:
            raise OSError("the client disconnected")
        n = min(len(buffer), self.after - self.pos)
        buffer[:n] = self.data[self.pos : self.pos + n]
        self.pos += n
        return n


def test_a_client_disconnecting_midway_leaves_no_temporary_file(
    settings: Any, tmp_path: Path
) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "upload-tmp")
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 10
    Path(settings.FILE_UPLOAD_TEMP_DIR).mkdir()
    body = encode_multipart("BoUnDaRy", {"files": SimpleUploadedFile("a.pdf", PDF * 2000)})
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/permits/building-sewer/1/files/",
        "CONTENT_TYPE": "multipart/form-data; boundary=BoUnDaRy",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BufferedReader(Disconnecting(body, len(body) - 500), 1024),
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
    }
    request = WSGIRequest(environ)
    with pytest.raises(UnreadablePostError, match="disconnected"):
        find(request)  # the middleware reads the form first
    # the request (and the handler with its file) is still referenced here: removed anyway
    assert request is not None and _files(tmp_path / "upload-tmp") == []


def test_the_sweep_removes_a_killed_uploads_files_a_day_later(
    settings: Any, tmp_path: Path
) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "upload-tmp")
    tmp = Path(uploads.temporary_directory())
    media = Path(settings.MEDIA_ROOT) / "attachments" / "permit" / "1"
    media.mkdir(parents=True)
    old_upload = tmp / "tmpabc.upload.pdf"
    old_import = tmp / "sewer-upload-xyz"
    old_partial = media / ".partial-abc"
    new_upload = tmp / "tmpnew.upload.pdf"
    stored = media / "0123.pdf"
    for path in (old_upload, old_partial, new_upload, stored):
        path.write_bytes(b"x")
    old_import.mkdir()
    (old_import / "upload.csv").write_bytes(b"x")
    day_ago = time.time() - 25 * 3600
    for path in (old_upload, old_import, old_partial, stored):
        os.utime(path, (day_ago, day_ago))
    removed = uploads.sweep()
    assert sorted(removed) == sorted([old_upload, old_import, old_partial])
    assert new_upload.exists() and stored.exists()
    assert not old_upload.exists() and not old_import.exists() and not old_partial.exists()
