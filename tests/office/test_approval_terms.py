"""Industrial approvals with a term, expiry and renewal (40 CFR 403.8(f)(1)(iii): "for a
specified time period, not to exceed five years"); an expired approval with no other in force
is an APPROVAL_EXPIRED finding (sewer-use flag-overdue, once), shown on the permit and the
facility pages."""

from __future__ import annotations

import re
import zlib
from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.core.errors import InvalidInput
from sewer_office.core.services import perform
from sewer_office.findings.models import Finding
from sewer_office.permits import rules
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.services.industrial import (
    file_discharge_approval,
    flag_expired_approvals,
)

from .enforcement_factories import at
from .factories import Town, new_record


def granted(town: Town, day: str = "2021-03-10", **data: Any) -> IndustrialDischargeApproval:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    return perform(a, "approve", town.u("engineer"), data, at=at(day))


def test_expiry_is_the_day_before_the_anniversary() -> None:
    assert rules.approval_expiry(date(2021, 3, 10), 5) == date(2026, 3, 9)
    assert rules.approval_expiry(date(2024, 2, 29), 1) == date(2025, 2, 28)
    assert rules.approval_term("demo", date(2026, 1, 1)).value == 5


def test_approval_takes_the_longest_term_or_a_shorter_one_never_longer(town: Town) -> None:
    a = granted(town)
    assert (a.term_years, a.expires_on) == (5, date(2026, 3, 9))
    b = granted(town, term_years="2")
    assert (b.term_years, b.expires_on) == (2, date(2023, 3, 9))
    c = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    with pytest.raises(InvalidInput) as e:
        perform(c, "approve", town.u("engineer"), {"term_years": "6"})
    assert "not to exceed 5 years (40 CFR 403.8(f)(1)(iii))" in e.value.errors["term_years"][0]
    c.refresh_from_db()
    assert (c.state, c.expires_on) == ("under_review", None)
    d = perform(
        perform(new_record("industrial", town), "begin_review", town.u("engineer")),
        "approve_with_conditions",
        town.u("engineer"),
        {"sampling": "monthly", "term_years": "3"},
        at=at("2025-01-15"),
    )
    assert d.expires_on == date(2028, 1, 14)


def _renewal(town: Town, old: IndustrialDischargeApproval, filed: str) -> Any:
    return file_discharge_approval(
        town.u("clerk"),
        applicant=town.owner_person,  # type: ignore[arg-type]
        establishment=town.owner_restaurant,  # type: ignore[arg-type]
        discharge_kind="new",
        concentrations={"bod5": "300"},
        renews=old,
        filed_on=date.fromisoformat(filed),
    )


def test_a_renewal_names_the_approval_and_whether_it_was_timely(town: Town) -> None:
    old = granted(town)
    r = _renewal(town, old, "2026-01-05")
    assert r.renews == old and r.renewal_timely is True
    assert _renewal(town, old, "2026-04-01").renewal_timely is False
    other = perform(new_record("industrial", town, mine=False), "begin_review", town.u("engineer"))
    other = perform(other, "approve", town.u("engineer"))
    with pytest.raises(InvalidInput) as e:
        _renewal(town, other, "2026-01-05")
    assert "not a granted approval of Olive's Diner" in e.value.errors["renews"][0]


def test_expired_without_another_in_force_is_a_finding_once(town: Town) -> None:
    old = granted(town)  # in force through 2026-03-09
    assert flag_expired_approvals(date(2026, 3, 9)) == 0
    assert flag_expired_approvals(date(2026, 3, 10)) == 1
    assert flag_expired_approvals(date(2026, 3, 11)) == 0
    f = Finding.objects.get(kind="approval_expired")
    assert f.citation == "40 CFR 403.8(f)(1)(iii)" and f.establishment == town.owner_restaurant
    assert old.number in f.message and "No renewal was applied for" in f.message
    assert timezone.localdate(f.observed_at) == date(2026, 3, 10)


def test_a_renewal_granted_in_time_means_no_finding(town: Town) -> None:
    old = granted(town)
    r = perform(_renewal(town, old, "2026-01-05"), "begin_review", town.u("engineer"))
    perform(r, "approve", town.u("engineer"), at=at("2026-03-01"))
    assert flag_expired_approvals(date(2026, 6, 1)) == 0


def test_a_renewal_still_pending_does_not_cover_the_gap(town: Town) -> None:
    old = granted(town)
    r = _renewal(town, old, "2026-01-05")
    assert flag_expired_approvals(date(2026, 3, 10)) == 1
    f = Finding.objects.get(kind="approval_expired")
    assert f"A renewal, {r.number}, was applied for on 2026-01-05 (submitted)" in f.message


def test_pages_show_the_term_expiry_and_finding(town: Town, login: Any) -> None:
    old = granted(town)
    flag_expired_approvals(date(2026, 3, 10))
    c = login("owner")
    page = c.get(f"/permits/industrial/{old.pk}/").content.decode()
    assert "in force through 2026-03-09" in page and "expired" in page
    assert "expiry-finding" in page and "40 CFR 403.8(f)(1)(iii)" in page
    page = c.get(f"/registry/establishments/{town.owner_restaurant.pk}/").content.decode()  # type: ignore[union-attr]
    assert "in force through 2026-03-09" in page and "expired" in page


def test_flag_overdue_reports_expired_approvals(town: Town, capsys: Any) -> None:
    from sewer_cli.main import main

    granted(town, day=(timezone.localdate() - timedelta(days=800)).isoformat(), term_years="2")
    assert main(["flag-overdue"]) == 0
    assert "1 expired-approval finding(s) recorded" in capsys.readouterr().out
    assert main(["flag-overdue"]) == 0
    assert "0 expired-approval finding(s) recorded" in capsys.readouterr().out


def _pdf_text(data: bytes) -> str:
    """The letter's lines of text, joined by spaces (fpdf2 compresses its page streams)."""
    streams = re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
    raw = "".join(zlib.decompress(s).decode("latin-1") for s in streams if s[:1] == b"x")
    lines = re.findall(r"\((.*?)\) Tj", raw)
    return " ".join(line.replace("\\(", "(").replace("\\)", ")") for line in lines)


def test_the_approval_letter_states_the_term(town: Town, login: Any) -> None:
    a = granted(town, term_years="3")
    r = login("owner").get(f"/permits/industrial/{a.pk}/letter.pdf")
    assert r.status_code == 200
    text = _pdf_text(r.content)
    assert "term of 3 years" in text and "March 9, 2024" in text
