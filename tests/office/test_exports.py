"""Downloads of every list (core.exports): CSV and Excel, filtered as the page, escaped against
formula injection, with the list's access (the permission battery of the export URLs)."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pytest
from openpyxl import load_workbook

from sewer_office.core.exports import FORMATS, cell, escape
from sewer_office.registry.models import Person

from .enforcement_factories import overdue, served
from .factories import Town, new_record
from .test_schedules import schedule

#: Every list page of the office, each downloadable with ?format=csv|xlsx.
LISTS = (
    "/enforcement/",
    "/enforcement/schedules/",
    "/monitoring/results/",
    "/monitoring/findings/",
    "/monitoring/imports/",
    "/meters/",
    "/grease/",
    "/inspections/",
    "/registry/properties/",
    "/registry/persons/",
    "/registry/establishments/",
    "/registry/areas/",
    *(
        f"/permits/{slug}/"
        for slug in (
            "building-sewer",
            "industrial",
            "private-system",
            "subdivision",
            "grinder",
            "interceptor",
            "flushing",
        )
    ),
)
STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
NASTY = ("=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\tTabbed", "\rReturn")


def _csv(response: Any) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv"), response["Content-Type"]
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def _xlsx(response: Any) -> list[list[Any]]:
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    ws = load_workbook(io.BytesIO(response.content)).active
    return [list(r) for r in ws.iter_rows(values_only=True)]


def _url(url: str, fmt: str, query: str = "") -> str:
    return f"{url}?{query + '&' if query else ''}format={fmt}"


def test_escape_and_cells() -> None:
    for text in NASTY:
        assert escape(text) == "'" + text
    assert escape("Olive's Diner") == "Olive's Diner" and escape("") == ""
    assert cell(Decimal("-2.50")) == Decimal("-2.50")  # a number stays a number
    assert cell(-3) == -3 and cell(None) is None and cell(True) == "yes"
    assert cell(date(2026, 1, 5)) == date(2026, 1, 5)
    assert cell("-2") == "'-2"  # text is text


@pytest.mark.parametrize("fmt", FORMATS)
def test_formula_injection_is_escaped_in_both_formats(town: Town, login: Any, fmt: str) -> None:
    for name in NASTY:
        Person.objects.create(name=name)
    r = login("clerk").get(_url("/registry/persons/", fmt))
    assert r.status_code == 200
    assert r["Content-Disposition"].startswith('attachment; filename="persons-')
    rows = _csv(r) if fmt == "csv" else _xlsx(r)
    # XML reads a lone carriage return back as a line feed: compare that way in a workbook
    names = {row[1].replace("\r", "\n") for row in rows[1:]}
    for name in (n.replace("\r", "\n") for n in NASTY):
        assert "'" + name in names, name
        assert name not in names
    if fmt == "xlsx":
        ws = load_workbook(io.BytesIO(r.content)).active
        kinds = {c.value: c.data_type for c in ws["B"]}
        assert kinds["'" + NASTY[0]] == "s"  # a string, never a formula
        ids = [row[0] for row in rows[1:]]
        assert all(isinstance(i, int) for i in ids)  # numbers stay numbers


@pytest.mark.parametrize("fmt", FORMATS)
def test_downloads_are_filtered_as_the_page(town: Town, login: Any, fmt: str) -> None:
    c = login("clerk")
    read = _csv if fmt == "csv" else _xlsx
    everything = read(c.get(_url("/registry/establishments/", fmt)))
    assert {r[2] for r in everything[1:]} == {"Olive's Diner", "Otto Plating"}
    filtered = read(c.get(_url("/registry/establishments/", fmt, "q=otto")))
    assert [r[2] for r in filtered[1:]] == ["Otto Plating"]
    assert everything[0][:3] == ["Id", "Code", "Name"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_violations_download_with_fines_and_deadlines(town: Town, login: Any, fmt: str) -> None:
    late = overdue(town)
    other = served(town, mine=False)
    read = _csv if fmt == "csv" else _xlsx
    c = login("superintendent")
    rows = read(c.get(_url("/enforcement/", fmt)))
    header = rows[0]
    assert header[:3] == ["Id", "Number", "Facility or property"]
    by_id = {str(r[0]): dict(zip(header, r, strict=True)) for r in rows[1:]}
    assert set(by_id) == {str(late.pk), str(other.pk)}
    row = by_id[str(late.pk)]
    assert row["Fines"] == "accrued, subject to conviction"
    assert str(row["Notice deadline"])[:10] == "2026-01-15"
    if fmt == "xlsx":
        assert isinstance(row["Fines accrued (USD)"], int | float)
        assert isinstance(row["Notice deadline"], datetime)  # a date cell, not text
    only = read(c.get(_url("/enforcement/", fmt, "state=fines_accruing")))
    assert [str(r[0]) for r in only[1:]] == [str(late.pk)]


def test_an_unknown_format_is_refused(town: Town, login: Any) -> None:
    r = login("clerk").get("/registry/persons/?format=pdf")
    assert r.status_code == 400 and "csv and xlsx" in r.content.decode()


def test_every_list_page_links_its_downloads(town: Town, login: Any) -> None:
    c = login("superintendent")
    for url in LISTS:
        body = c.get(url + "?q=x").content.decode()
        assert "format=csv" in body and "format=xlsx" in body, url
    assert "q=x&amp;format=csv" in c.get("/registry/persons/?q=x").content.decode()


# --- the permission battery of the export URLs: the list's own access ------------------------


def _some_records(town: Town) -> None:
    served(town)
    served(town, mine=False)
    schedule(town)
    schedule(town, mine=False)
    new_record("grinder", town)
    new_record("grinder", town, mine=False)


def test_anonymous_is_sent_to_login(town: Town, client: Any) -> None:
    for url in LISTS:
        for fmt in FORMATS:
            r = client.get(_url(url, fmt))
            assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), url


def test_no_role_is_refused(town: Town, login: Any) -> None:
    c = login("norole")
    for url in LISTS:
        for fmt in FORMATS:
            assert c.get(_url(url, fmt)).status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_staff_download_every_list(town: Town, login: Any, username: str) -> None:
    _some_records(town)
    c = login(username)
    for url in LISTS:
        for fmt in FORMATS:
            r = c.get(_url(url, fmt))
            assert r.status_code == 200, (url, fmt)
            assert "attachment" in r["Content-Disposition"]
    rows = _csv(c.get(_url("/enforcement/", "csv")))
    assert {r[2] for r in rows[1:]} == {"Olive's Diner", "Otto Plating"}


def test_outside_users_download_only_their_own(town: Town, login: Any) -> None:
    _some_records(town)
    c = login("owner")
    for url in LISTS:
        for fmt in FORMATS:
            assert c.get(_url(url, fmt)).status_code == 200, (url, fmt)
    text = "\n".join(c.get(_url(url, "csv")).content.decode() for url in LISTS)
    assert "Otto Plating" not in text and "Otto Other" not in text
    assert "Olive's Diner" in _csv(c.get(_url("/enforcement/", "csv")))[1][2]
    schedules_rows = _csv(c.get(_url("/enforcement/schedules/", "csv")))
    assert [r[1] for r in schedules_rows[1:]] == ["Olive's Diner"]
    grinders = _csv(c.get(_url("/permits/grinder/", "csv")))
    assert [r[1] for r in grinders[1:]] == ["Olive Owner"]
