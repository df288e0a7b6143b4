"""The notice letter cites as the law reads: correct English for the fine, the Town Code only for
the article's own provisions, a federal requirement as federal law."""

from __future__ import annotations

from sewer_office.core.letters import compose
from sewer_office.core.services import perform
from sewer_office.enforcement import services
from sewer_office.enforcement.letters import kind_of
from sewer_office.findings.services import record_finding

from .enforcement_factories import at, served
from .factories import Town


def _letter(violation: object) -> str:
    notice = violation.notices.get()  # type: ignore[attr-defined]
    return "\n".join(text for _, text in compose(kind_of(notice), notice))


def test_the_fine_sentence_is_english(town: Town) -> None:
    """§ 196-22 B: "shall be fined in the amount set forth in ... § 122-20Y ... per day for each
    violation" — the letter says "shall be fined USD 250.00 per day", never "fined a fine of"."""
    text = _letter(served(town))
    assert "on conviction, shall be fined USD 250.00 per day for each violation" in text
    assert "fined a fine" not in text
    assert "violating Town Code § 196-19 C(3)." in text


def test_a_late_report_is_cited_as_the_federal_duty_not_as_the_town_code(town: Town) -> None:
    """A report not received breaks the reporting condition of 40 CFR 403.12 (here 403.12(e)),
    not § 196-16 E; the letter does not call a federal rule part of the Town Code."""
    f = record_finding(
        source=None,
        establishment=town.owner_restaurant,
        kind="report_late",
        status="violation",
        citation="40 CFR 403.12(e)",
        message="Periodic compliance report due 2025-12-31 not received",
        observed_at=at("2026-01-02", 9),
    )
    v = services.open_from_finding(town.u("superintendent"), f, at=at("2026-01-02", 12))
    assert v.section == "40 CFR 403.12(e)"
    v = perform(v, "issue_notice", town.u("superintendent"), {"nature": "x"}, at=at("2026-01-05"))
    text = _letter(v)
    assert "violating 40 CFR 403.12(e)." in text
    assert "Town Code 40 CFR" not in text
