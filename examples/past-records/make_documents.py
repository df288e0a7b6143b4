"""Write the example's scanned papers: small PDFs that look like scans of typed forms.

    python examples/past-records/make_documents.py     # writes documents/*.pdf beside this file

Each page is a greyish sheet with a typewriter's text and a stamp, made with fpdf2 (the
office's PDF library) and dated alike on every run, so the files are the same on every
machine and their SHA-256 in an import's report does not change.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

HERE = Path(__file__).resolve().parent
DOCUMENTS = HERE / "documents"
#: The creation date written in every file (fixed, so the bytes are the same on every run).
CREATED = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

PAPERS: dict[str, tuple[str, list[str], str]] = {
    "bsp-94-117.pdf": (
        "TOWN OF WAPPINGER - BUILDING SEWER PERMIT",
        [
            "Permit No. BSP 94-117            Class 1 (residential)",
            "Owner / applicant: James Delaney",
            "Premises: 11 Myers Corners Road   Parcel 6158-01-100037",
            "Application received: August 2, 1994",
            "Inspected: September 15, 1994    Connected: September 20, 1994",
            "Work by: R. Amato, licensed plumber",
        ],
        "APPROVED",
    ),
    "ida-2022-14.pdf": (
        "INDUSTRIAL DISCHARGE APPROVAL (§ 196-16 E)",
        [
            "Approval No. IDA-2022-14        Riverbend Printing",
            "Facility code RIVERBEND-PRINTING   Flow 3,200 gpd",
            "Decided: July 1, 2022           Term: five years",
            "Conditions: metals recovery on the rinse line (§ 196-19 E(1)(b));",
            "  quarterly composite sample at CM-1 (§ 196-19 I).",
            "Limits: copper 1.0 mg/l, chromium 0.5 mg/l (daily maximum);",
            "  pH 6.0 to 9.5 SU.",
        ],
        "APPROVED WITH CONDITIONS",
    ),
    "inspection-2019-22.pdf": (
        "INSPECTION REPORT (§ 196-21 A)",
        [
            "Report No. INSP 2019-22         May 14, 2019, 10:30 - 11:45",
            "Facility: Riverbend Printing (RIVERBEND-PRINTING)",
            "Inspector: I. Moreau, Town ID 114",
            "Metals recovery unit in service. Control manhole clean.",
            "Sampler seal intact.",
        ],
        "NO DEFICIENCY",
    ),
}


def paper(title: str, lines: list[str], stamp: str) -> bytes:
    pdf = FPDF(format="letter")
    pdf.set_creation_date(CREATED)
    pdf.set_title(title.title())
    pdf.set_author("Town of Wappinger (example)")
    pdf.add_page()
    pdf.set_fill_color(236, 233, 224)  # the yellowed sheet of a scan
    pdf.rect(0, 0, pdf.w, pdf.h, style="F")
    pdf.set_text_color(40, 40, 48)
    pdf.set_font("Courier", "B", 13)
    pdf.set_xy(20, 25)
    pdf.cell(0, 8, title.replace("§", "Sec."))
    pdf.set_font("Courier", size=11)
    y = 45
    for line in lines:
        pdf.set_xy(20, y)
        pdf.cell(0, 6, line.replace("§", "Sec."))
        y += 8
    pdf.set_draw_color(150, 30, 30)
    pdf.set_text_color(150, 30, 30)
    pdf.set_line_width(0.8)
    pdf.rect(120, y + 10, 75, 16)
    pdf.set_font("Helvetica", "B", 11)
    pdf.set_xy(120, y + 15)
    pdf.cell(75, 6, stamp, align="C")
    return bytes(pdf.output())


def main() -> None:
    DOCUMENTS.mkdir(exist_ok=True)
    for name, (title, lines, stamp) in PAPERS.items():
        (DOCUMENTS / name).write_bytes(paper(title, lines, stamp))
        print(f"wrote {DOCUMENTS / name}")


if __name__ == "__main__":
    main()
