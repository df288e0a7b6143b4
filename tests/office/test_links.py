"""Reversals remembered (core.links, the office's ``{% url %}``): the same URL as Django's
``reverse`` and ``{% url %}`` in every case, answered from memory the second time."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import engines
from django.test import RequestFactory
from django.urls import NoReverseMatch, get_script_prefix, reverse, set_script_prefix

from sewer_cli.cmd_office import default_workers
from sewer_office.core import links
from sewer_office.core.templatetags.office_links import RememberedURLNode


@pytest.fixture(autouse=True)
def _fresh_memory() -> Any:
    links._remembered.cache_clear()
    yield
    links._remembered.cache_clear()


def _misses() -> int:
    return links._remembered.cache_info().misses


def test_the_same_url_as_reverse_and_the_second_time_from_memory() -> None:
    expected = reverse("permits:detail", args=["building-sewer", 12])
    assert links.link("permits:detail", ["building-sewer", 12]) == expected
    assert _misses() == 1
    assert links.link("permits:detail", ("building-sewer", 12)) == expected
    assert links._remembered.cache_info().hits == 1
    assert _misses() == 1


def test_every_argument_is_part_of_the_key() -> None:
    a = links.link("permits:detail", ["building-sewer", 12])
    b = links.link("permits:detail", ["building-sewer", 13])
    c = links.link("permits:detail", ["industrial", 12])
    d = links.link("registry:establishment", kwargs={"pk": 12})
    assert len({a, b, c, d}) == 4
    assert d == reverse("registry:establishment", kwargs={"pk": 12})
    assert _misses() == 4


def test_the_script_prefix_is_part_of_the_key() -> None:
    before = get_script_prefix()
    plain = links.link("dashboard")
    try:
        set_script_prefix("/sewer/")
        assert links.link("dashboard") == "/sewer" + plain == reverse("dashboard")
    finally:
        set_script_prefix(before)
    assert links.link("dashboard") == plain


def test_arguments_other_than_int_and_str_are_reversed_afresh() -> None:
    class Pk:
        def __init__(self, value: int) -> None:
            self.value = value

        def __str__(self) -> str:
            return str(self.value)

    pk = Pk(7)
    assert links.link("registry:establishment", [pk]) == "/registry/establishments/7/"
    pk.value = 8  # its text changed: a remembered answer would be wrong
    assert links.link("registry:establishment", [pk]) == "/registry/establishments/8/"
    assert links._remembered.cache_info().currsize == 0


def test_a_failed_reversal_raises_and_is_not_remembered() -> None:
    with pytest.raises(NoReverseMatch):
        links.link("no-such-view", [1])
    with pytest.raises(NoReverseMatch):
        links.link("no-such-view", [1])
    assert links._remembered.cache_info().currsize == 0


def _render(source: str, **context: Any) -> str:
    template = engines["django"].from_string(source)
    return template.render(context, request=RequestFactory().get("/"))


def test_the_url_tag_of_every_template_is_the_remembered_one() -> None:
    template = engines["django"].from_string("{% url 'registry:establishment' pk %}")
    nodes = template.template.nodelist.get_nodes_by_type(RememberedURLNode)  # type: ignore[attr-defined]
    assert len(nodes) == 1
    assert _render("{% url 'registry:establishment' pk %}", pk=5) == reverse(
        "registry:establishment", args=[5]
    )
    assert _misses() == 1
    assert _render("<a href='{% url 'registry:establishment' pk=pk %}'>", pk=5) == (
        f"<a href='{reverse('registry:establishment', kwargs={'pk': 5})}'>"
    )


def test_the_url_tag_as_a_variable_and_when_nothing_matches() -> None:
    out = _render("{% url 'permits:detail' kind pk as u %}[{{ u }}]", kind="industrial", pk=3)
    assert out == f"[{reverse('permits:detail', args=['industrial', 3])}]"
    # "as" swallows a failed reversal (Django's behaviour); without it the error is raised
    assert _render("{% url 'no-such-view' as u %}[{{ u }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        _render("{% url 'no-such-view' %}")


def test_the_url_tag_escapes_as_django_does() -> None:
    out = _render("{% url 'law' %}?c={{ c|urlencode }}", c="§ 196-19 C(3)")
    assert out.startswith(reverse("law") + "?c=")


def test_gunicorn_workers_default_to_one_per_core_and_one_more() -> None:
    assert default_workers(2) == 3
    assert default_workers(8) == 9
    assert default_workers(None) == 2
