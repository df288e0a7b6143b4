"""Every list of the office downloads as CSV and Excel, typed, with its rows.

The lists are not named here: they are found. Every named URL of the office that takes no
argument is opened as the Superintendent on the demo town; a page that answers with a table is
a list, and must offer ``?format=csv`` and ``?format=xlsx`` and answer both with a file of at
least one row. So a list page added without its download fails this test, unless it is one of
the few pages below that show a table without being a list.

In the Excel file a cell holds what it is: a number or a date is never text (a text cell that
reads as a number or an ISO date fails), and a choice is its label, never its code (a cell in
``snake_case`` fails).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from openpyxl import load_workbook

from sewer_office.core.exports import XLSX_TYPE
from sewer_office.enforcement import schedules
from sewer_office.enforcement.models import ComplianceSchedule
from sewer_office.permits.models import IndustrialDischargeApproval

#: Pages that show a table but are not a list of records, and why.
NOT_LISTS = {
    "dashboard": "the home page: panels of several lists, each with its own page",
    "law": "the text of the law and the parameters in force, not records",
    "letters:letterhead": "the letterhead's form, its versions beside it",
    "monitoring:mapping-create": "a form: a laboratory's sample file read column by column",
    "enforcement:plan": "the enforcement response plan in force and its adoption, not records",
}
#: Routes that are not the office's pages (the API has its own formats).
OTHER_ROUTES = ("api/", "admin/")
#: Columns whose values are identifiers written with digits (a check number), not quantities.
IDENTIFIER_HEADERS = {"Reference"}

NUMBER_TEXT = re.compile(r"^-?\d+(\.\d+)?$")
DATE_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}([ T][\d:]+)?$")
CODE_TEXT = re.compile(r"^[a-z]+(_[a-z0-9]+)+$")


def _named(patterns: list[Any], namespace: str = "", prefix: str = "") -> Iterator[tuple[str, str]]:
    """``(name, route)`` of every named URL, namespaced as ``reverse`` wants it."""
    for p in patterns:
        if isinstance(p, URLResolver):
            inner = ":".join(x for x in (namespace, p.namespace or "") if x)
            yield from _named(p.url_patterns, inner, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and p.name:
            name = f"{namespace}:{p.name}" if namespace else p.name
            yield name, prefix + str(p.pattern)


def _list_pages(client: Any) -> list[tuple[str, str]]:
    """The office's list pages: named, no argument, answering the Superintendent a table."""
    pages = []
    for name, route in _named(get_resolver().url_patterns):
        if route.startswith(OTHER_ROUTES) or name in NOT_LISTS or "<" in route:
            continue
        try:
            url = reverse(name)
        except Exception:
            continue
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        if "<table" in response.content.decode():
            pages.append((name, url))
    return pages


def _no_schedule_yet() -> None:
    """The demo has no compliance schedule yet: impose one, as the engineer would, so that
    the schedules' list has a row to download."""
    if ComplianceSchedule.objects.exists():
        return
    approval = IndustrialDischargeApproval.objects.filter(state="approved").first()
    assert approval is not None, "the demo town has an approved industrial approval"
    from django.contrib.auth import get_user_model

    schedules.create_schedule(
        get_user_model().objects.get(username="engineer"),
        establishment=approval.establishment,
        imposed_by="approval_condition",
        requirement="Install pH neutralization ahead of the discharge",
        citation="§ 196-19 E(1)",
        milestones=[(timezone.localdate(), "Design submitted")],
        approval=approval,
    )


def _xlsx_problems(body: bytes) -> tuple[int, int, list[str]]:
    """Rows, typed cells and the cells that hold a number, a date or a code as text."""
    sheet = load_workbook(io.BytesIO(body), read_only=True).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header, data = rows[0], rows[1:]
    typed = 0
    problems: list[str] = []
    for row in data:
        for head, value in zip(header, row, strict=False):
            if isinstance(value, int | float | date | datetime) and not isinstance(value, bool):
                typed += 1
            if not isinstance(value, str) or head in IDENTIFIER_HEADERS:
                continue
            if NUMBER_TEXT.match(value) or DATE_TEXT.match(value):
                problems.append(f"{head}: {value!r} is text")
            elif CODE_TEXT.match(value):
                problems.append(f"{head}: {value!r} is a code, not its label")
    return len(data), typed, sorted(set(problems))[:5]


@pytest.mark.django_db
def test_every_list_of_the_office_downloads_as_csv_and_excel(client: Any, demo_town: Any) -> None:
    demo_town(seed=4, anchor=timezone.localdate())
    _no_schedule_yet()
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="superintendent"))
    pages = _list_pages(client)
    found = {name for name, _ in pages}
    # the walk finds the lists the office is known for (a broken walk would find none)
    assert {"billing:invoices", "billing:statements", "reports:list", "grease:list"} <= found

    failures: list[str] = []
    for _name, url in pages:
        page = client.get(url).content.decode()
        if "format=csv" not in page or "format=xlsx" not in page:
            failures.append(f"{url}: the page offers no CSV and Excel download")
        as_csv = client.get(url, {"format": "csv"})
        if not as_csv["Content-Type"].startswith("text/csv"):
            failures.append(f"{url}?format=csv answers {as_csv['Content-Type']}, not a CSV file")
            continue
        csv_rows = list(csv.reader(io.StringIO(as_csv.content.decode())))
        if len(csv_rows) < 2:
            failures.append(f"{url}?format=csv: no data row")
        as_xlsx = client.get(url, {"format": "xlsx"})
        if as_xlsx["Content-Type"] != XLSX_TYPE:
            failures.append(f"{url}?format=xlsx answers {as_xlsx['Content-Type']}")
            continue
        assert as_xlsx["Content-Disposition"].startswith("attachment;")
        rows, typed, problems = _xlsx_problems(as_xlsx.content)
        if rows != len(csv_rows) - 1:
            failures.append(f"{url}: {rows} Excel rows, {len(csv_rows) - 1} CSV rows")
        if rows and not typed:
            failures.append(f"{url}?format=xlsx: no number or date cell at all")
        failures.extend(f"{url}?format=xlsx: {p}" for p in problems)
    assert not failures, "\n".join(failures)
