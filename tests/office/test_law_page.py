"""The office shows the law where a finding cites it: the law page and the ``cite`` filter."""

from __future__ import annotations

import html
import re
from datetime import date
from typing import Any
from urllib.parse import quote

from django.template import Context, Template
from django.utils import timezone

from sewer_office.core.law import TOOLTIP_CHARS
from sewer_rules.law import provision

from .factories import Town
from .test_monitoring_permissions import World


def _render(value: object) -> str:
    return Template("{% load office %}{{ value|cite }}").render(Context({"value": value}))


def test_a_citation_links_to_its_page_with_the_text_as_tooltip() -> None:
    out = _render("§ 196-19 C(3)")
    m = re.fullmatch(r'<a class="law" href="([^"]+)" title="([^"]+)">§ 196-19 C\(3\)</a>', out)
    assert m, out
    assert m.group(1) == "/law/?c=%C2%A7+196-19+C%283%29"
    title = html.unescape(m.group(2))
    assert title.startswith("pH lower than 5.5 (implemented): (3) Any waters or wastes")
    assert provision("§ 196-19 C(3)").text in title


def test_several_citations_unknown_ones_and_markup() -> None:
    out = _render("§ 196-19 C(3), § 196-19 D(8) and 40 CFR 136.3 <b>")
    assert out.count('<a class="law"') == 2
    assert "%C2%A7+196-19+D%288%29" in out
    assert out.endswith(" and 40 CFR 136.3 &lt;b&gt;")  # escaped, not linked
    assert _render("§ 196-19 C(9)") == "§ 196-19 C(9)"  # no such subsection: shown as written
    assert _render(None) == ""


def test_a_pair_of_defined_terms_links_the_first_and_long_texts_are_cut() -> None:
    out = _render("§ 196-15 COOLING WATER, UNPOLLUTED WATER OR WASTE")
    assert out.startswith('<a class="law" href="/law/?c=%C2%A7+196-15+COOLING+WATER"')
    assert out.endswith("</a>, UNPOLLUTED WATER OR WASTE")
    whole = _render("§ 196-19")
    title = html.unescape(re.search(r'title="([^"]+)"', whole).group(1))  # type: ignore[union-attr]
    assert len(title) == TOOLTIP_CHARS and title.endswith("…")


def test_the_page_shows_text_status_implementers_and_parameters(town: Town, login: Any) -> None:
    r = login("viewer").get("/law/?c=" + quote("§ 196-19 C(3)"))
    assert r.status_code == 200
    page = r.content.decode()
    assert "pH lower than 5.5" in page and "implemented" in page
    assert "Any waters or wastes having a pH lower than 5.5" in page
    assert "sewer_rules.ordinance.s196_19_use_of_public_sewers.prohibitions.PH_LOW" in page
    assert '<code class="muted">ph.minimum</code>' in page and "5.5 SU" in page
    # the way up: Article VII › § 196-19 › § 196-19 C, each a link
    assert 'href="/law/?c=%C2%A7+196-19+C"' in page


def test_a_not_formalized_provision_gives_its_reason(town: Town, login: Any) -> None:
    page = login("owner").get("/law/?c=" + quote("§ 196-19 D(9)(a)")).content.decode()
    assert "not_formalized" in page and "is left to the judgment of the engineer" in page
    assert "Nothing: the software does not compute this provision." in page


def test_the_index_lists_every_provision_and_unknown_ones_are_404(town: Town, login: Any) -> None:
    c = login("clerk")
    index = c.get("/law/").content.decode()
    assert index.count('<a class="law"') == 120
    r = c.get("/law/?c=" + quote("§ 196-19 C(9)"))
    assert r.status_code == 404
    assert c.get("/law/?c=nonsense").status_code == 404


def test_a_finding_page_links_its_citation_to_the_law(town: Town, login: Any) -> None:
    world = World(town)
    finding = world.my_finding
    assert finding is not None and finding.citation.startswith("§ 196-")
    page = login("superintendent").get(f"/monitoring/results/{world.my_result.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    # the law of the finding's day: the page of that day (cite_on)
    day = timezone.localdate(finding.observed_at).isoformat()
    url = f"/law/?c={quote(finding.citation, safe='').replace('%20', '+')}&amp;on={day}"
    assert f'href="{url}"' in text
    assert 'title="' in text.split('class="law"', 1)[1]


def test_the_page_shows_the_text_in_force_on_a_day(town: Town, login: Any) -> None:
    """/law/?c=…&on=DATE: § 196-21 D the day before L.L. No. 10-2003 says it was not part of
    the article; § 196-22 B before L.L. No. 5-2004 says its words are not on file, and shows
    none; from its date, the words as shipped."""
    c = login("viewer")

    def text_of(url: str) -> str:  # the law-text card (the heading's link keeps today's tooltip)
        page: str = c.get(url).content.decode()
        return page.split('class="card law-text"', 1)[1].split("</section>", 1)[0]

    page = text_of("/law/?c=" + quote("§ 196-21 D") + "&on=2003-08-17")
    assert "The text in force on 2003-08-17" in page
    assert "Not part of the article on 2003-08-17" in page
    assert "added 2003-08-18 by L.L. No. 10-2003" in page
    assert "This chapter will be enforced by the Superintendent of Highways" not in page
    page = text_of("/law/?c=" + quote("§ 196-21 D") + "&on=2003-08-18")
    assert "This chapter will be enforced by the Superintendent of Highways" in page
    page = text_of("/law/?c=" + quote("§ 196-22 B") + "&on=2004-03-21")
    assert "Text not on file" in page and "text before L.L. No. 5-2004 not on file" in page
    assert "122-20Y of the Code" not in page
    page = text_of("/law/?c=" + quote("§ 196-22 B") + "&on=2004-03-22")
    assert "122-20Y of the Code" in page
    # the parameters are those in force that day too
    page = c.get("/law/?c=" + quote("§ 196-19 C(3)") + "&on=1995-01-01").content.decode()
    assert "In force on 1995-01-01" in page and '<code class="muted">ph.minimum</code>' in page


def test_a_bad_date_is_refused_with_its_reason(town: Town, login: Any) -> None:
    r = login("viewer").get("/law/?c=" + quote("§ 196-19 C(3)") + "&on=2003-13-01")
    assert r.status_code == 400 and "is not a date (YYYY-MM-DD)" in r.content.decode()


def test_law_url_carries_the_day() -> None:
    from sewer_office.core.law import law_url
    from sewer_rules.citations import Citation

    assert law_url(Citation.parse("§ 196-21 D"), date(2003, 1, 2)) == (
        "/law/?c=%C2%A7+196-21+D&on=2003-01-02"
    )


def test_a_citation_of_a_past_day_links_to_the_law_of_that_day() -> None:
    """``cite_on``: a determination of 2003-01-02 citing § 196-21 D links to the page of that
    day, whose tooltip says the provision was not yet part of the article."""
    out = Template("{% load office %}{{ value|cite_on:day }}").render(
        Context({"value": "§ 196-21 D", "day": date(2003, 1, 2)})
    )
    m = re.fullmatch(r'<a class="law" href="([^"]+)" title="([^"]+)">§ 196-21 D</a>', out)
    assert m, out
    assert m.group(1) == "/law/?c=%C2%A7+196-21+D&amp;on=2003-01-02"
    assert "was not part of the article on 2003-01-02" in html.unescape(m.group(2))
    today = Template("{% load office %}{{ value|cite_on:day }}").render(
        Context({"value": "§ 196-21 D", "day": None})
    )
    assert today == _render("§ 196-21 D")  # no day: today's law, as |cite
