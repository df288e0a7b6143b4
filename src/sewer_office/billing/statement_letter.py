"""A person's statement of account as a letter: a point-in-time view, rendered on request
(:func:`statement_pdf`) and never kept — every entry with the running balance, and what is owed.
A statement of one member town's books is printed with that town's letterhead.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, time
from decimal import Decimal

from django.utils import timezone

from sewer_office.core import letters
from sewer_office.core.letter_pdf import town_head
from sewer_office.core.letters import LetterKind, long_date
from sewer_office.enforcement.letters import usd
from sewer_office.registry.addresses import mailing_lines
from sewer_office.registry.models import Person

from .statements import Statement, statement

STATEMENT = "billing.statement"


def _statement(record: Statement | Person) -> Statement:
    """A statement, or a person's whole statement (the editor's preview picks a person)."""
    return record if isinstance(record, Statement) else statement(record)


def _money(value: Decimal) -> str:
    return f"{value:,.2f}"


def statement_context(record: Statement | Person) -> Mapping[str, str]:
    st = _statement(record)
    span = ""
    if st.start or st.end:
        first = long_date(st.start) if st.start else "the first entry"
        last = long_date(st.end) if st.end else "today"
        span = f"from {first} to {last}"
    rows = ["|| Date | Reference | Description | Charges | Credits | Balance"]
    if st.start is not None:
        rows.append(
            f"| {long_date(st.start)} |  | Balance brought forward |  |  | {_money(st.opening)}"
        )
    for e in st.entries:
        rows.append(
            f"| {long_date(e.on)} | {e.reference} | {e.description.replace('|', '/')} | "
            f"{_money(e.charges) if e.charges else ''} | "
            f"{_money(e.credits) if e.credits else ''} | {_money(e.balance)}"
        )
    return {
        "person": "\n".join(mailing_lines(st.person)),
        "span": f"Statement {span}".strip(),
        "entries": "\n".join(rows),
        "balance": f"Balance: {usd(st.balance)}",
        "owed": f"Outstanding on invoices: {usd(st.owed)}; credit held: {usd(st.credit)}.",
    }


STATEMENT_BODY = """## Statement of account
~ Sewer fees and charges (Town Code ch. 196 art. VII)

{{ person }}

{{ span }}

{{ entries }}

# {{ balance }}
{{ owed }}
"""


def _statement_moment(record: Statement | Person) -> datetime:
    st = _statement(record)
    last = st.entries[-1].on if st.entries else timezone.localdate()
    return timezone.make_aware(datetime.combine(st.end or last, time(12)))


STATEMENT_KIND = letters.register(
    LetterKind(
        key=STATEMENT,
        name="Statement of account",
        fields={
            "person": "the person and its mailing address (several lines)",
            "span": "the period the statement covers",
            "entries": "every entry with the running balance (a table)",
            "balance": "the balance to the cent",
            "owed": "what is outstanding on invoices, and the credit held",
        },
        required=("person", "entries", "balance"),
        default_body=STATEMENT_BODY,
        context=statement_context,
        records=lambda: Person.objects.filter(invoices__isnull=False).distinct().order_by("name"),
        title=lambda r: f"Statement {_statement(r).person.name}",
        filename=lambda r: f"statement-{_statement(r).person.pk}.pdf",
        created=_statement_moment,
    )
)


def books_of(st: Statement) -> str | None:
    """The one town whose books ``st`` shows (the towns asked, else its entries'), if one."""
    towns = set(st.towns) or {str(e.record.jurisdiction) for e in st.entries}
    return towns.pop() if len(towns) == 1 else None


def statement_pdf(st: Statement) -> bytes:
    """The statement as it stands (rendered on request; a statement is not of record), with
    the letterhead of the town whose books it shows (else the primary's)."""
    town = books_of(st)
    return letters.render(STATEMENT, st, head=town_head(town) if town else None)
