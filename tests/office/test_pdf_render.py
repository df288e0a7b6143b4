"""The letters the Town mails, read as the recipient reads them: the invoices and the notices of
violation of the demo town, fetched from their PDF addresses (as the office's links do),
rendered to PNG and their text read back with PDFium (pypdfium2).

Each must carry the recipient's complete mailing address in its address block (the name, the
street, then the town, state and ZIP code on one line), the office's contact (a phone number or
an e-mail address, the letterhead's when one is stored), and nothing a reader cannot read: no
raw parameter key (``invoice.due_days = 30``) and no run of 12 digits or more (an unrounded
decimal such as ``80.84615384615384615384615385``).
Every page must render to a picture with ink on it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium  # type: ignore[import-untyped]  # no type information shipped
import pytest
from django.urls import reverse
from django.utils import timezone

from sewer_office.billing.models import Invoice
from sewer_office.core.models import Letterhead
from sewer_office.enforcement.models import Notice
from sewer_office.registry.choices import ContactKind

DEMO_PASSWORD = "demo"
#: "Wappingers Falls, NY 12590" (a ZIP+4 too): the line of the address a carrier sorts by.
TOWN_STATE_ZIP = re.compile(r"[A-Z][A-Za-z .'-]+,\s*(?:NY|New York)\s+\d{5}(?:-\d{4})?\b")
PHONE = re.compile(r"\(?\b\d{3}\)?[ .-]?\d{3}[ .-]\d{4}\b")
EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
RAW_KEY = re.compile(r"\b[a-z_]+\.[a-z_]+\b\s*=")
LONG_DIGITS = re.compile(r"\d{12,}")
#: A document's SHA-256 printed in hexadecimal is not a number: left out of the digit check.
HEX_DIGEST = re.compile(r"\b[0-9a-fA-F]{32,}\b")


@pytest.fixture
def demo(demo_town: Any, client: Any) -> Any:
    """The demo town, and the test client signed in as its Superintendent."""
    demo_town(seed=4, anchor=timezone.localdate())
    assert client.login(username="superintendent", password=DEMO_PASSWORD)
    return client


def _pdf(client: Any, url: str) -> bytes:
    answer = client.get(url)
    assert answer.status_code == 200, f"{url}: {answer.status_code}"
    assert answer["Content-Type"] == "application/pdf", f"{url}: {answer['Content-Type']}"
    content = b"".join(answer.streaming_content) if answer.streaming else answer.content
    assert content.startswith(b"%PDF"), f"{url}: not a PDF"
    return content


def _render_and_read(content: bytes, out: Path) -> str:
    """Every page to a PNG (72 dpi x 2) under ``out``; the text of every page, in order."""
    out.mkdir(parents=True, exist_ok=True)
    document = pdfium.PdfDocument(content)
    texts = []
    try:
        assert len(document) >= 1
        for number, page in enumerate(document, start=1):
            image = page.render(scale=2).to_pil()
            path = out / f"page-{number}.png"
            image.save(path)
            assert path.read_bytes().startswith(b"\x89PNG")
            width, height = image.size
            assert width > 1000 and height > 1000, f"page {number}: {image.size}"
            # ink on the page: some pixels are dark (a blank page renders all white)
            darkest = image.convert("L").getextrema()[0]
            assert darkest < 100, f"page {number} renders blank"
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
    finally:
        document.close()
    # PDFium ends lines with CR LF; one space for every run of blanks within a line
    return "\n".join(texts).replace("\r\n", "\n").replace("\r", "\n")


def _streets(person: Any, *properties: Any) -> list[str]:
    """The street lines a letter to ``person`` may be addressed to: the first line of its
    recorded mailing address, else the premises concerned or a property it owns."""
    found = [ln.strip() for ln in person.mail_street.splitlines() if ln.strip()][:2]
    for contact in person.contacts.filter(kind=ContactKind.MAIL).order_by("id"):
        lines = [ln.strip() for ln in contact.value.splitlines() if ln.strip()]
        found.extend(lines[:2])  # a care-of line may come first
    found.extend(p.address for p in properties if p is not None)
    found.extend(p.address for p in person.properties.order_by("id"))
    return [s for s in found if s]


def _flat(text: str) -> str:
    return re.sub(r"[ \t]+", " ", text)


def _address_problems(text: str, name: str, streets: list[str]) -> list[str]:
    """The recipient's address block: its name, then (within three lines) its street, then on
    the street's line or the next two the town, state and ZIP. Read as a block, so that the
    letterhead's own "Wappingers Falls, NY 12590" does not stand in for the recipient's."""
    lines = [_flat(line).strip() for line in text.splitlines()]
    wanted = [_flat(street).strip() for street in streets]
    blocks = [
        lines[i : i + 3]
        for i, line in enumerate(lines)
        if any(street in line for street in wanted)
        and any(name in before for before in lines[max(0, i - 3) : i + 1])
    ]
    if not any(name in line for line in lines):
        return [f"no recipient name {name!r}"]
    if not blocks:
        return [f"no address block: {name!r} followed by its street (one of {streets[:3]})"]
    if not any(TOWN_STATE_ZIP.search(line) for block in blocks for line in block):
        shown = " / ".join(blocks[0])
        return [f"the recipient's address lacks a 'Town, NY 12345' line: {shown!r}"]
    return []


def _problems(text: str, recipient: Any, streets: list[str]) -> list[str]:
    """What the letter lacks or shows that it should not, in words (empty: a letter to mail)."""
    flat = _flat(text)
    problems = _address_problems(text, recipient.name, streets)
    head = Letterhead.objects.order_by("-version").first()
    shown = head is not None and any(v and v in flat for v in (head.phone, head.email))
    if head is not None and (head.phone or head.email) and not shown:
        problems.append(f"not the letterhead's phone {head.phone!r} or e-mail {head.email!r}")
    if not (PHONE.search(flat) or EMAIL.search(flat)):
        problems.append("no office contact: neither a phone number nor an e-mail address")
    keys = RAW_KEY.findall(flat)
    if keys:
        problems.append(f"raw parameter keys: {sorted(set(keys))[:5]}")
    digits = LONG_DIGITS.findall(HEX_DIGEST.sub(" ", flat))
    if digits:
        problems.append(f"runs of 12+ digits (unrounded numbers): {digits[:5]}")
    return problems


def test_notice_of_violation_pdfs_read_as_letters_to_mail(demo: Any, tmp_path: Path) -> None:
    notices = list(
        Notice.objects.filter(response="notice_of_violation")
        .select_related("violation__person", "violation__establishment", "violation__property")
        .order_by("pk")
    )
    assert notices, "the demo town has no notice of violation"
    failures = {}
    for notice in notices:
        violation = notice.violation
        premises = (
            violation.establishment.building.property
            if violation.establishment is not None
            else violation.property
        )
        content = _pdf(demo, reverse("enforcement:notice-pdf", args=[notice.pk]))
        text = _render_and_read(content, tmp_path / f"notice-{notice.pk}")
        if "196-22 A" not in text:
            failures[f"notice {notice.pk}"] = ["does not say § 196-22 A"]
        problems = _problems(text, violation.person, _streets(violation.person, premises))
        if problems:
            failures.setdefault(f"notice {notice.pk}", []).extend(problems)
    assert failures == {}, failures


def test_invoice_pdfs_read_as_letters_to_mail(demo: Any, tmp_path: Path) -> None:
    # one invoice of each kind of charge the demo bills (fees, surcharges with their decimals…)
    chosen: dict[str, Invoice] = {}
    for invoice in Invoice.objects.prefetch_related("lines__charge").order_by("pk"):
        for line in invoice.lines.all():
            chosen.setdefault(line.charge.source, invoice)
    assert "surcharge" in chosen, f"the demo bills no surcharge: {sorted(chosen)}"
    failures = {}
    for source, invoice in sorted(chosen.items()):
        premises = (
            invoice.establishment.building.property if invoice.establishment is not None else None
        )
        content = _pdf(demo, reverse("billing:invoice-pdf", args=[invoice.pk]))
        text = _render_and_read(content, tmp_path / f"invoice-{invoice.pk}")
        problems = _problems(text, invoice.person, _streets(invoice.person, premises))
        if invoice.number not in text:
            problems.append(f"no invoice number {invoice.number}")
        if problems:
            failures[f"invoice {invoice.number} ({source})"] = problems
    assert failures == {}, failures
