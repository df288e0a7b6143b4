"""The receipt of a payment and a person's statement of account, as PDF (fpdf2, as the
letters). Rendered from the stored records, so the same records always give the same paper."""

from __future__ import annotations

from datetime import datetime, time
from decimal import Decimal

from django.utils import timezone
from fpdf import FPDF

from sewer_office.inspections.report import _latin
from sewer_office.permits import rules

from .models import Payment
from .payments import applications_by_invoice, unapplied_of
from .statements import Statement


def _usd(amount: Decimal) -> str:
    return f"USD {amount:,.2f}"


class _Paper:
    def __init__(self, title: str, created: datetime) -> None:
        self.pdf = FPDF(format="Letter")
        self.pdf.set_creation_date(created)
        self.pdf.set_title(title)
        self.pdf.add_page()
        self.pdf.set_margins(20, 18, 20)
        self.width = self.pdf.w - self.pdf.l_margin - self.pdf.r_margin

    def para(self, text: str, size: int = 10, style: str = "", gap: float = 1.5) -> None:
        self.pdf.set_font("Helvetica", style, size)
        self.pdf.multi_cell(self.width, 5, _latin(text), new_x="LMARGIN", new_y="NEXT")
        self.pdf.ln(gap)

    def row(self, cells: list[tuple[str, float, str]], style: str = "") -> None:
        self.pdf.set_font("Helvetica", style, 9)
        for text, share, align in cells:
            self.pdf.cell(self.width * share, 5.5, _latin(text), border="B", align=align)
        self.pdf.ln(5.5)

    def bytes(self) -> bytes:
        return bytes(self.pdf.output())


def receipt_pdf(payment: Payment) -> bytes:
    """The receipt: number, payer, date, method and reference, amount, what it paid."""
    paper = _Paper(f"Receipt {payment.receipt_number}", payment.recorded_at)
    paper.para(rules.params().name, 13, "B", 0)
    paper.para("Office of the Town Clerk — sewer fees and charges", 10, "", 5)
    paper.para(f"Receipt {payment.receipt_number}", 14, "B", 2)
    paper.para(f"Received on {payment.received_on:%B %d, %Y} from {payment.person.name}", 11)
    method = payment.get_method_display()
    if payment.reference:
        method += f" ({'check no. ' if payment.method == 'check' else 'reference '}"
        method += f"{payment.reference})"
    paper.para(f"The sum of {_usd(Decimal(payment.amount))}, by {method}.", 11, "", 4)
    applications = list(payment.applications.select_related("invoice").order_by("id"))
    if applications:
        paper.row([("Applied to invoice", 0.5, "L"), ("Amount", 0.5, "R")], "B")
        for a in applications:
            paper.row([(a.invoice.number, 0.5, "L"), (_usd(Decimal(a.amount)), 0.5, "R")])
        paper.pdf.ln(2)
    refunds = list(payment.refunds.order_by("id"))
    for r in refunds:
        paper.para(f"Refunded {_usd(Decimal(r.amount))} on {r.refunded_on:%Y-%m-%d}: {r.reason}")
    left = unapplied_of([payment])[payment.pk]
    if left > 0:
        paper.para(f"Not applied to an invoice: {_usd(left)}, held as credit of the payer.")
    if payment.notes:
        paper.para(f"Notes: {payment.notes}")
    paper.pdf.ln(4)
    paper.para(
        f"Recorded by {payment.recorded_by.get_full_name() or payment.recorded_by.get_username()} "
        f"at {timezone.localtime(payment.recorded_at):%Y-%m-%d %H:%M}.",
        9,
    )
    return paper.bytes()


def statement_pdf(st: Statement) -> bytes:
    """The statement of account: every entry with the running balance, and what is owed."""
    last = st.entries[-1].on if st.entries else timezone.localdate()
    created = timezone.make_aware(datetime.combine(st.end or last, time(12)))
    paper = _Paper(f"Statement {st.person.name}", created)
    paper.para(rules.params().name, 13, "B", 0)
    paper.para("Statement of account — sewer fees and charges (Town Code ch. 196 art. VII)", 10)
    paper.para(st.person.name, 12, "B", 1)
    span = ""
    if st.start or st.end:
        span = f"from {st.start or 'the first entry'} to {st.end or 'today'}"
    paper.para(f"Statement {span}".strip(), 10, "", 3)
    cols = [0.13, 0.16, 0.35, 0.12, 0.12, 0.12]
    paper.row(
        [
            ("Date", cols[0], "L"),
            ("Reference", cols[1], "L"),
            ("Description", cols[2], "L"),
            ("Charges", cols[3], "R"),
            ("Credits", cols[4], "R"),
            ("Balance", cols[5], "R"),
        ],
        "B",
    )
    if st.start is not None:
        paper.row(
            [
                (f"{st.start:%Y-%m-%d}", cols[0], "L"),
                ("", cols[1], "L"),
                ("Balance brought forward", cols[2], "L"),
                ("", cols[3], "R"),
                ("", cols[4], "R"),
                (f"{st.opening:,.2f}", cols[5], "R"),
            ]
        )
    for e in st.entries:
        paper.row(
            [
                (f"{e.on:%Y-%m-%d}", cols[0], "L"),
                (e.reference, cols[1], "L"),
                (e.description[:60], cols[2], "L"),
                (f"{e.charges:,.2f}" if e.charges else "", cols[3], "R"),
                (f"{e.credits:,.2f}" if e.credits else "", cols[4], "R"),
                (f"{e.balance:,.2f}", cols[5], "R"),
            ]
        )
    paper.pdf.ln(3)
    paper.para(f"Balance: {_usd(st.balance)}", 11, "B", 0)
    paper.para(f"Outstanding on invoices: {_usd(st.owed)}; credit held: {_usd(st.credit)}.", 10)
    open_ids = [e.record.pk for e in st.entries if e.kind == "invoice"]
    if open_ids and applications_by_invoice(open_ids):
        paper.para("Payments are applied to the invoices named on each receipt.", 9)
    return paper.bytes()
