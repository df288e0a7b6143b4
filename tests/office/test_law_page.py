"""The office shows the law where a finding cites it: the law page and the ``cite`` filter."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

from django.template import Context, Template

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
    assert "<code>ph.minimum</code>" in page and "5.5 SU" in page
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
    assert f'href="/law/?c={quote(finding.citation, safe="").replace("%20", "+")}"' in text
    assert 'title="' in text.split('class="law"', 1)[1]
