"""The letters engine and the office's letters editor (``/letters/``).

A template edited in the office changes the next letter while a document already issued
stays as issued (same bytes, same SHA-256); a template without a required field, or with a
forbidden tag, is refused naming it; only the Superintendent and the clerk save; the
letterhead heads the PDF; the markup reads as documented.
"""

from __future__ import annotations

import hashlib
import io
import re
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone

from sewer_office.core import letter_edits, letter_pdf, letters, protection
from sewer_office.core.audit import timeline
from sewer_office.core.models import ImmutableRecord, IssuedDocument, LetterTemplate
from sewer_office.core.services import perform
from sewer_office.permits.letters import APPROVAL

from .enforcement_factories import at
from .factories import Town, new_record

pypdfium2 = pytest.importorskip("pypdfium2")

#: A 1×1 PNG (the smallest picture fpdf2 reads).
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5f1d9c90000000049454e44ae426082"
)


def pdf_text(data: bytes) -> str:
    """Every page's text, in order (pypdfium2)."""
    doc = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def approved(town: Town) -> Any:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    return perform(a, "approve", town.u("engineer"), {"term_years": "3"}, at=at("2024-03-10"))


def _issued(record: Any) -> IssuedDocument:
    doc = letters.issued(APPROVAL, record)
    assert doc is not None
    return doc


def _save(town: Town, user: str, body: str, note: str = "New wording") -> LetterTemplate:
    return letter_edits.save_template(APPROVAL, body, note, actor=town.u(user))


def _letterhead(town: Town, **extra: Any) -> Any:
    fields = {
        "town_name": "Town of Wappinger",
        "office_name": "Office of the Superintendent of the Sewer Districts",
        "address": "20 Middlebush Road\nWappingers Falls, NY 12590",
        "phone": "(845) 297-4158",
        "email": "sewer@example.org",
        "hours": "Monday to Friday, 8:30 to 4:00",
        "payment_instructions": "Pay at the Town Clerk's office.",
        "note": "The office's address",
    }
    return letter_edits.save_letterhead(fields | extra, actor=town.u("clerk"))


# --- the markup ---------------------------------------------------------------------------------


def test_markup_reads_line_by_line() -> None:
    blocks = letters.parse_blocks(
        "## A title\n# A heading\n~ small print\n\n\n\nA paragraph — with a dash\n"
        "|| Item | Amount |\n| Sewer rent | USD 120.00 |\n---\nafter the break\n\n"
    )
    assert blocks == [
        ("title", "A title"),
        ("heading", "A heading"),
        ("small", "small print"),
        ("gap", ""),
        ("text", "A paragraph — with a dash"),
        ("rowhead", "Item\tAmount"),
        ("row", "Sewer rent\tUSD 120.00"),
        ("page", ""),
        ("text", "after the break"),
    ]


def test_a_merge_value_of_several_lines_expands_in_place() -> None:
    value = "# 1. Sewer rent — USD 120.00\n~ Town Code § 196-23"
    assert letters.blocks_of("Lines:\n{{ lines }}\nTotal", {"lines": value}) == [
        ("text", "Lines:"),
        ("heading", "1. Sewer rent — USD 120.00"),
        ("small", "Town Code § 196-23"),
        ("text", "Total"),
    ]


def test_merge_values_are_not_escaped() -> None:
    assert letters.blocks_of("{{ name }}", {"name": "O'Brien & Sons <Ltd>"}) == [
        ("text", "O'Brien & Sons <Ltd>")
    ]


def test_latin_keeps_the_section_sign_and_replaces_what_the_fonts_lack() -> None:
    assert letter_pdf.latin("§ 196-22 A — “notice” ≤ 5 … 40 °F ±1") == (
        '§ 196-22 A - "notice" <= 5 ... 40 °F ±1'
    )
    assert letter_pdf.latin("Łódź") == "?ód?"


# --- refusals ---------------------------------------------------------------------------------


def test_a_template_missing_a_required_field_is_refused_naming_it(town: Town) -> None:
    approved(town)
    kind = letters.kind(APPROVAL)
    body = kind.default_body.replace("{{ no_waiver }}", "").replace("{{ term }}", "")
    with pytest.raises(ValidationError) as e:
        _save(town, "superintendent", body)
    text = " ".join(e.value.messages)
    assert "no_waiver" in text and "term" in text and "title" not in text.split(":")[-1]
    # hidden in an {% if %}, a comment or behind a filter: still missing
    for hidden in (
        "{% if x %}{{ no_waiver }}{% endif %}",
        "{% comment %}{{ no_waiver }}{% endcomment %}",
        "{{ no_waiver|slice:':0' }}",
    ):
        with pytest.raises(ValidationError, match="no_waiver"):
            _save(town, "superintendent", kind.default_body.replace("{{ no_waiver }}", hidden))
    assert not LetterTemplate.objects.exists()


@pytest.mark.parametrize(
    "tag",
    [
        "{% load static %}",
        "{% include 'base.html' %}",
        "{% extends 'base.html' %}",
        "{% ssi '/etc/passwd' %}",
        "{%debug%}",
    ],
)
def test_forbidden_tags_are_refused(town: Town, tag: str) -> None:
    approved(town)
    body = tag + "\n" + letters.kind(APPROVAL).default_body
    with pytest.raises(ValidationError, match="may not use"):
        _save(town, "clerk", body)


def test_a_template_that_fails_on_the_preview_record_is_refused(town: Town) -> None:
    approved(town)
    body = letters.kind(APPROVAL).default_body + "{% for x in %}{% endfor %}"
    with pytest.raises(ValidationError, match="does not parse"):
        _save(town, "clerk", body)
    # a tag that fails when rendered on the record refuses the template too
    body = letters.kind(APPROVAL).default_body + "{% url 'no-such-page' %}"
    with pytest.raises(ValidationError, match="fails on the preview record"):
        _save(town, "clerk", body)


def test_a_note_is_required(town: Town) -> None:
    approved(town)
    with pytest.raises(ValidationError, match="why the wording changes"):
        _save(town, "clerk", letters.kind(APPROVAL).default_body, note="  ")


@pytest.mark.parametrize("user", ["engineer", "inspector", "highway", "viewer", "owner"])
def test_only_the_superintendent_and_the_clerk_may_save(town: Town, user: str) -> None:
    with pytest.raises(PermissionDenied):
        _save(town, user, letters.kind(APPROVAL).default_body)
    with pytest.raises(PermissionDenied):
        letter_edits.save_letterhead(
            {"town_name": "x", "office_name": "y", "address": "z", "note": "n"},
            actor=town.u(user),
        )


# --- versions and documents of record ---------------------------------------------------------


def test_an_edit_changes_the_next_letter_and_the_issued_one_stays_as_issued(
    town: Town, login: Any
) -> None:
    first = approved(town)
    doc = letters.issued(APPROVAL, first)
    assert doc is not None and doc.template is None  # issued at approval, bundled wording
    kept, kept_sha = bytes(doc.content), doc.sha256
    assert hashlib.sha256(kept).hexdigest() == kept_sha
    assert timeline(doc).get().action == "issue_document"

    body = letters.kind(APPROVAL).default_body.replace(
        "{{ decision }}", "Dear applicant, we write about your request.\n{{ decision }}"
    )
    saved = _save(town, "superintendent", body)
    assert saved.version == 1
    assert timeline(saved).get().action == "edit_letter_template"

    second = approved(town)
    assert "Dear applicant" in pdf_text(bytes(_issued(second).content))
    # the first letter, downloaded again: the same bytes, the same hash, the old words
    r = login("owner").get(f"/permits/industrial/{first.pk}/letter.pdf")
    assert r.status_code == 200 and r.content == kept
    assert r["X-Content-SHA256"] == kept_sha
    assert "Dear applicant" not in pdf_text(r.content)
    # issuing again returns the stored one, never a new rendering
    again = letters.issue(APPROVAL, first, actor=town.u("engineer"))
    assert again.pk == doc.pk and bytes(again.content) == kept
    assert IssuedDocument.objects.filter(kind=APPROVAL).count() == 2
    # and neither a document nor a version is ever changed or deleted
    with pytest.raises(ImmutableRecord):
        doc.save()
    with pytest.raises(ImmutableRecord):
        saved.delete()


def test_a_letter_decided_before_documents_were_kept_is_issued_on_first_request(
    town: Town, login: Any
) -> None:
    a = approved(town)
    # an approval with no document (decided before documents of record were kept)
    with protection.suspended(connection, "core.IssuedDocument"):
        IssuedDocument.objects.filter(pk=_issued(a).pk)._raw_delete("default")
    assert letters.issued(APPROVAL, a) is None
    r = login("owner").get(f"/permits/industrial/{a.pk}/letter.pdf")
    doc = letters.issued(APPROVAL, a)
    assert doc is not None and r.content == bytes(doc.content)
    assert "issued on first request" in timeline(doc).get().reason


# --- the letterhead -----------------------------------------------------------------------------


def test_the_letterhead_heads_the_letter_and_its_contact_every_page(town: Town) -> None:
    a = approved(town)
    head = _letterhead(town)
    assert head.version == 1 and timeline(head).get().action == "edit_letterhead"
    text = pdf_text(letters.render(APPROVAL, a))
    for expected in (
        "Town of Wappinger",
        "20 Middlebush Road",
        "Wappingers Falls, NY 12590",
        "(845) 297-4158",
        "sewer@example.org",
        "Office hours: Monday to Friday",
        "page 1 of 1",
    ):
        assert expected in text, expected
    # a long letter: the contact and "page N of M" on every page
    blocks = [("text", f"Paragraph {n} of a long letter.") for n in range(200)]
    pdf = letter_pdf.render_pdf(blocks, title="long", created=timezone.now())
    doc = pypdfium2.PdfDocument(pdf)
    pages = len(doc)
    assert pages > 1
    for i in range(pages):
        page = doc[i].get_textpage().get_text_range()
        assert "(845) 297-4158" in page and f"page {i + 1} of {pages}" in page
    doc.close()


def test_the_letter_issued_keeps_its_letterhead_version(town: Town) -> None:
    _letterhead(town)
    a = approved(town)
    doc = _issued(a)
    assert doc.letterhead is not None and doc.letterhead.version == 1
    _letterhead(town, address="1 New Street\nWappingers Falls, NY 12590", note="Moved")
    assert "20 Middlebush Road" in pdf_text(bytes(_issued(a).content))
    assert "1 New Street" in pdf_text(letters.render(APPROVAL, a))


def test_the_bundled_letterhead_says_what_the_office_must_complete(town: Town, login: Any) -> None:
    assert letter_pdf.head_of(None).missing == [
        "mailing address",
        "phone",
        "e-mail",
        "office hours",
    ]
    page = login("viewer").get("/letters/").content.decode()
    assert "The letterhead lacks: mailing address, phone, e-mail, office hours" in page
    _letterhead(town)
    assert "The letterhead lacks" not in login("viewer").get("/letters/").content.decode()


def test_a_logo_png_or_jpeg_within_the_limit(town: Town) -> None:
    head = _letterhead(town)
    assert head.logo_type == ""
    logo = letter_edits.save_letterhead(
        {**_fields(head), "note": "Logo"},
        actor=town.u("superintendent"),
        logo=SimpleUploadedFile("seal.png", PNG, content_type="image/png"),
    )
    assert logo.logo_type == "png" and bytes(logo.logo) == PNG
    # the logo is drawn on the letter (an image on page 1)
    pdf = letter_pdf.render_pdf([("text", "x")], title="t", created=timezone.now())
    assert b"/Subtype /Image" in pdf
    # a new version without a new file keeps the logo; "remove" drops it
    kept = letter_edits.save_letterhead({**_fields(head), "note": "Hours"}, actor=town.u("clerk"))
    assert bytes(kept.logo) == PNG
    gone = letter_edits.save_letterhead(
        {**_fields(head), "note": "No logo"}, actor=town.u("clerk"), keep_logo=False
    )
    assert bytes(gone.logo) == b""
    for name, data, message in (
        ("seal.gif", b"GIF89a" + b"\0" * 40, "not a PNG or JPEG"),
        ("seal.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "cannot be read"),
        ("big.png", PNG + b"\0" * letter_edits.LOGO_MAX_BYTES, "at most 512 KB"),
        ("empty.png", b"", "empty"),
    ):
        with pytest.raises(ValidationError) as e:
            letter_edits.save_letterhead(
                {**_fields(head), "note": "bad"},
                actor=town.u("clerk"),
                logo=SimpleUploadedFile(name, data, content_type="image/png"),
            )
        assert message in " ".join(e.value.message_dict["logo"]), name


def _fields(head: Any) -> dict[str, Any]:
    return {
        k: getattr(head, k)
        for k in ("town_name", "office_name", "address", "phone", "email", "hours")
    }


def test_the_letterhead_requires_its_address(town: Town) -> None:
    with pytest.raises(ValidationError) as e:
        letter_edits.save_letterhead(
            {"town_name": "T", "office_name": "O", "address": " ", "note": "n"},
            actor=town.u("clerk"),
        )
    assert "Mailing address is required." in e.value.message_dict["address"]


# --- the pages ----------------------------------------------------------------------------------


def test_the_editor_lists_every_kind_and_shows_its_fields(town: Town, login: Any) -> None:
    approved(town)
    c = login("viewer")
    page = c.get("/letters/").content.decode()
    for k in letters.kinds():
        assert f"/letters/{k.key}/" in page and escape(k.name) in page
    detail = c.get(f"/letters/{APPROVAL}/").content.decode()
    assert "version 0 (bundled)" in detail
    for name, description in letters.kind(APPROVAL).fields.items():
        assert f"<code>{name}</code>" in detail and escape(description) in detail
    assert detail.count('class="required">required') == len(letters.kind(APPROVAL).required)
    assert "Save as a new version" not in detail  # a viewer previews, never saves
    assert "Written approval of a discharge of industrial waste" in detail  # the preview
    r = c.get(f"/letters/{APPROVAL}/preview.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


def test_the_clerk_saves_from_the_page_and_a_viewer_cannot(town: Town, login: Any) -> None:
    a = approved(town)
    body = letters.kind(APPROVAL).default_body.replace("{{ signed_by }}", "Signed: {{ signed_by }}")
    url = f"/letters/{APPROVAL}/"
    post = {"body": body, "note": "Signed line", "record": a.pk, "action": "save"}
    assert login("viewer").post(url, post).status_code == 403
    assert login("engineer").post(url, post).status_code == 403
    assert not LetterTemplate.objects.exists()
    # a draft previewed: composed on the page, nothing saved
    page = login("viewer").post(url, {**post, "action": "preview"}).content.decode()
    assert "Signed: " in page and "draft, not saved" in page
    assert not LetterTemplate.objects.exists()
    r = login("clerk").post(url, post)
    assert r.status_code == 302
    assert LetterTemplate.objects.get().version == 1
    page = login("clerk").get(url).content.decode()
    assert "Current: version 1" in page and "Signed line" in page
    # refused: the names of the missing fields on the page, nothing saved
    bad = {**post, "body": body.replace("{{ conditions }}", ""), "note": "Shorter"}
    page = login("superintendent").post(url, bad).content.decode()
    assert "Required merge fields missing" in page and "conditions" in page
    assert LetterTemplate.objects.count() == 1
    # the PDF of a draft, inline
    r = login("viewer").post(f"{url}preview.pdf", {"body": body, "record": a.pk})
    assert r.status_code == 200 and "Signed:" in pdf_text(r.content)
    r = login("viewer").post(f"{url}preview.pdf", {"body": "{% load x %}", "record": a.pk})
    assert r.status_code == 400


def test_the_letterhead_page(town: Town, login: Any) -> None:
    assert login("viewer").post("/letters/letterhead/", {}).status_code == 403
    r = login("clerk").post(
        "/letters/letterhead/",
        {
            "town_name": "Town of Wappinger",
            "office_name": "Sewer office",
            "address": "20 Middlebush Road\r\nWappingers Falls, NY 12590",
            "phone": "(845) 297-4158",
            "email": "sewer@example.org",
            "hours": "9 to 4",
            "note": "Address",
            "logo": SimpleUploadedFile("seal.png", PNG, content_type="image/png"),
        },
    )
    assert r.status_code == 302
    r = login("viewer").get("/letters/letterhead/preview.pdf")
    text = pdf_text(r.content)
    assert "20 Middlebush Road" in text and "Wappingers Falls, NY 12590" in text
    page = login("viewer").get("/letters/letterhead/").content.decode()
    assert "version 1" in page and "with a logo (PNG)" in page
    r = login("clerk").post(
        "/letters/letterhead/",
        {
            "town_name": "T",
            "office_name": "O",
            "address": "A",
            "note": "n",
            "logo": SimpleUploadedFile("x.png", b"GIF89a....", content_type="image/png"),
        },
    )
    assert r.status_code == 200 and "not a PNG or JPEG" in r.content.decode()


def test_every_registered_kind_renders_its_bundled_template_on_a_record(town: Town) -> None:
    """Each app's kind composes on one of its records, with no merge field left unfilled and
    no internal key in its words."""
    approved(town)
    for k in letters.kinds():
        record = next(iter(k.records()[:1]), None)
        if record is None:
            continue
        values = k.context(record)
        assert set(k.fields) <= set(values) | {"year"}, k.key
        text = "\n".join(t for _, t in letters.compose(k.key, record))
        assert "{{" not in text and "None" not in text.split(), k.key
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (k.key, text)


def test_the_docs_list_every_kind_and_its_fields() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "letters.md").read_text()
    for k in letters.kinds():
        assert f"`{k.key}`" in doc, k.key
        for name in k.fields:
            assert f"`{name}`" in doc, (k.key, name)


def test_render_pdf_is_the_same_bytes_for_the_same_input() -> None:
    moment = datetime(2026, 1, 2, 12, tzinfo=timezone.get_current_timezone())
    blocks = [("title", "T"), ("text", "Body")]
    head = letter_pdf.Head("Town", "Office", ("1 Main St",), "1", "e@x", "9-5", "")
    one = letter_pdf.render_pdf(blocks, title="t", created=moment, head=head)
    two = letter_pdf.render_pdf(blocks, title="t", created=moment, head=head)
    assert one == two and io.BytesIO(one).read(5) == b"%PDF-"
