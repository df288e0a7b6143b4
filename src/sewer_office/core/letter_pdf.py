"""How the office's letters are typeset: the letterhead and the one PDF loop.

Every letter and document (:mod:`.letters`), the invoices and receipts (billing) and the
reports' copies go through :func:`render_pdf`: blocks of text in a few styles (titles, headings,
paragraphs, small print, table rows) on US Letter pages, with the letterhead — the Town's, stored by
the office (:class:`~.models.Letterhead`), else the bundled default — on the first page and the
office's contact in every page's footer. The PDF core fonts are Latin-1, so the text goes
through :func:`latin` first. Apart from :mod:`.letters` (kinds of letter, templates, documents
of record) because this is only the page: it knows nothing of templates or records.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from fpdf import FPDF

from sewer_office.accounts.towns import primary
from sewer_rules.parameters import load_jurisdiction

from .models import Letterhead as LetterheadModel

#: One typeset block: (style, text). Styles: "title", "heading", "text", "small", "gap",
#: "row" and "rowhead" (a table row; its cells separated by TAB).
Block = tuple[str, str]

STYLES: dict[str, tuple[str, float]] = {
    "title": ("B", 14),
    "heading": ("B", 11),
    "text": ("", 10.5),
    "small": ("", 8.5),
    "row": ("", 9),
    "rowhead": ("B", 9),
}
#: Line height per style (mm), and the space after a paragraph.
LINE = {"title": 6.5, "heading": 5.5, "text": 5.2, "small": 4.2, "row": 5.2, "rowhead": 5.2}
AFTER = {"title": 1.5, "heading": 1.0, "text": 1.5, "small": 0.8, "row": 0.0, "rowhead": 0.0}
GAP = 4.0
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 22.0, 18.0, 22.0


_LATIN = {
    "\u2014": "-",  # em dash
    "\u2013": "-",  # en dash
    "\u2012": "-",
    "\u2212": "-",  # minus
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2026": "...",
    "\u2022": "-",  # bullet
    "\u2264": "<=",
    "\u2265": ">=",
    "\u2248": "~",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
    "\u2192": "->",
    "\u2010": "-",
    "\u2011": "-",
}


def latin(text: str) -> str:
    """Text the PDF core fonts can print (they are Latin-1): the section sign, degrees and ±
    stay; dashes, curly quotes, ellipsis, ≤ ≥ ≈ and arrows get their plain equivalents;
    anything else becomes "?" rather than failing the whole letter."""
    for a, b in _LATIN.items():
        text = text.replace(a, b)
    return text.encode("latin-1", "replace").decode("latin-1")


# --- the letterhead -----------------------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """The letterhead's content, from a stored version or the bundled default."""

    town_name: str
    office_name: str
    address_lines: tuple[str, ...]
    phone: str
    email: str
    hours: str
    payment_instructions: str
    logo: bytes = b""
    version: int = 0

    @property
    def contact(self) -> str:
        """The office's contact in one line (every page's footer)."""
        parts = [self.office_name, ", ".join(self.address_lines)]
        if self.phone:
            parts.append(f"tel. {self.phone}")
        parts.append(self.email)
        return " - ".join(p for p in parts if p)

    @property
    def missing(self) -> list[str]:
        """What the office must still complete before its letters can be mailed."""
        wanted = {
            "mailing address": self.address_lines,
            "phone": self.phone,
            "e-mail": self.email,
            "office hours": self.hours,
        }
        return [name for name, value in wanted.items() if not value]


def bundled_head(jurisdiction: str = "") -> Head:
    """The letterhead before the office stores one for the town (``jurisdiction``, else the
    primary): the Town's name from its parameters and the office named by the article
    (§ 196-15 SUPERINTENDENT); the address, phone, e-mail and hours are the office's to
    complete (the editor says so)."""
    return Head(
        town_name=load_jurisdiction(jurisdiction or primary()).name,
        office_name="Office of the Superintendent of the Sewer Districts",
        address_lines=(),
        phone="",
        email="",
        hours="",
        payment_instructions="",
    )


def head_of(letterhead: LetterheadModel | None, jurisdiction: str = "") -> Head:
    """The head a letter is printed with: the stored version, else the town's bundled one."""
    if letterhead is None:
        return bundled_head(jurisdiction)
    return Head(
        town_name=letterhead.town_name,
        office_name=letterhead.office_name,
        address_lines=tuple(ln.strip() for ln in letterhead.address.splitlines() if ln.strip()),
        phone=letterhead.phone,
        email=letterhead.email,
        hours=letterhead.hours,
        payment_instructions=letterhead.payment_instructions,
        logo=bytes(letterhead.logo or b""),
        version=letterhead.version,
    )


def town_head(jurisdiction: str) -> Head:
    """The head of a letter of ``jurisdiction``'s records: its newest letterhead, else its
    bundled one."""
    return head_of(current_letterhead(jurisdiction=jurisdiction), jurisdiction)


def current_letterhead(
    at: datetime | None = None, jurisdiction: str = ""
) -> LetterheadModel | None:
    """The newest stored letterhead version of the town (``jurisdiction``, else the primary),
    at ``at`` if given (None: the bundled one is current)."""
    found = LetterheadModel.objects.filter(jurisdiction=jurisdiction or primary())
    if at is not None:
        found = found.filter(created_at__lte=at)
    return found.order_by("-version").first()


# --- the one PDF loop ------------------------------------------------------------------------


class _Paper(FPDF):
    """US Letter with the office's contact and "page N of M" in every page's footer."""

    footer_text = ""

    def footer(self) -> None:
        self.set_y(-16)
        self.set_font("Helvetica", "", 7.5)
        width = self.w - self.l_margin - self.r_margin
        if self.footer_text:
            self.multi_cell(width, 3.6, self.footer_text, align="C", new_x="LMARGIN", new_y="NEXT")
        self.cell(width, 3.6, f"page {self.page_no()} of {{nb}}", align="C")


def _draw_head(pdf: _Paper, head: Head, width: float) -> None:
    top = pdf.get_y()
    text_x = pdf.l_margin
    if head.logo:
        pdf.image(io.BytesIO(head.logo), x=pdf.l_margin, y=top, h=20)
        text_x = pdf.l_margin + 26
    pdf.set_xy(text_x, top)
    inner = width - (text_x - pdf.l_margin)
    pdf.set_font("Helvetica", "B", 13)
    pdf.multi_cell(inner, 6, latin(head.town_name), new_x="LEFT", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9.5)
    lines = [head.office_name, *head.address_lines]
    contact = "   ".join(p for p in (f"Tel. {head.phone}" if head.phone else "", head.email) if p)
    if contact:
        lines.append(contact)
    if head.hours:
        lines.append(f"Office hours: {head.hours}")
    for ln in lines:
        if ln:
            pdf.multi_cell(inner, 4.4, latin(ln), new_x="LEFT", new_y="NEXT")
    bottom = max(pdf.get_y(), top + 21 if head.logo else 0)
    pdf.set_xy(pdf.l_margin, bottom + 2)
    pdf.set_draw_color(120, 120, 120)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.l_margin + width, pdf.get_y())
    pdf.ln(6)


_NUMBER = re.compile(r"^[-+(]?(USD\s*)?[\d.,]+\)?%?$")


def _table(pdf: _Paper, rows: list[Block], width: float) -> None:
    """Consecutive table rows: columns as wide as their longest cell (scaled to the page),
    numbers right-aligned, a cell too long for its column cut with "..."."""
    cells = [[latin(c.strip()) for c in text.split("\t")] for _style, text in rows]
    ncols = max(len(r) for r in cells)
    widths = [0.0] * ncols
    for (style, _), row in zip(rows, cells, strict=True):
        pdf.set_font("Helvetica", STYLES[style][0], STYLES[style][1])
        for i, c in enumerate(row):
            widths[i] = max(widths[i], pdf.get_string_width(c) + 3)
    total = sum(widths) or 1.0
    if total > width:
        # shrink the widest columns first: the short ones (dates, amounts) keep their width
        fair = width / ncols
        small = sum(w for w in widths if w <= fair)
        big = total - small
        widths = [w if w <= fair else (width - small) * w / big for w in widths]
    else:
        widths = [w * width / total for w in widths]
    for (style, _), row in zip(rows, cells, strict=True):
        pdf.set_font("Helvetica", STYLES[style][0], STYLES[style][1])
        if pdf.will_page_break(LINE[style]):
            pdf.add_page()
        for i in range(ncols):
            c = row[i] if i < len(row) else ""
            while c and pdf.get_string_width(c) > widths[i] - 2 and len(c) > 3:
                c = c[:-4] + "..."
            align = "R" if _NUMBER.match(c) and i > 0 else "L"
            pdf.cell(widths[i], LINE[style], c, border="B", align=align)
        pdf.ln(LINE[style])
    pdf.ln(2)


def render_pdf(
    blocks: Sequence[Block],
    *,
    title: str,
    created: datetime,
    letterhead: bool = True,
    head: Head | None = None,
) -> bytes:
    """THE one PDF loop (fpdf2, US Letter). With ``letterhead`` the letterhead (``head``, else
    the current one) heads page 1 and the office's contact is in every page's footer with
    "page N of M". The same blocks, title, moment and letterhead give the same bytes."""
    pdf = _Paper(format="Letter")
    pdf.set_creation_date(created)
    pdf.set_title(latin(title))
    pdf.set_producer("sewer-use")
    pdf.set_margins(MARGIN_X, MARGIN_TOP, MARGIN_X)
    pdf.set_auto_page_break(True, margin=MARGIN_BOTTOM)
    the_head = (head or head_of(current_letterhead())) if letterhead else None
    if the_head is not None:
        pdf.footer_text = latin(the_head.contact)
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    if the_head is not None:
        _draw_head(pdf, the_head, width)
    pending: list[Block] = []
    for style, text in [*blocks, ("end", "")]:
        if style in ("row", "rowhead"):
            pending.append((style, text))
            continue
        if pending:
            _table(pdf, pending, width)
            pending = []
        if style == "end":
            break
        if style == "gap":
            pdf.ln(GAP)
            continue
        if style == "page":
            pdf.add_page()
            continue
        if style not in STYLES:
            raise ValueError(f"unknown block style {style!r}")
        font, size = STYLES[style]
        if style in ("heading", "title") and pdf.will_page_break(LINE[style] * 3):
            pdf.add_page()  # a heading is never left alone at the foot of a page
        pdf.set_font("Helvetica", font, size)
        pdf.multi_cell(width, LINE[style], latin(text), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(AFTER[style])
    return bytes(pdf.output())
