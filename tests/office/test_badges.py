"""The status and badge tags and the date filters draw what their templates drew.

``{% status %}`` and ``{% badge %}`` were inclusion tags over ``includes/status.html``, and
``|day`` and ``|moment`` went through Django's ``date`` filter; they are now built in Python
(a list page draws them on every row). The earlier template and filter are the oracle here.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.template.defaultfilters import date as date_filter
from django.utils import timezone

from sewer_office.core.statuses import status_label, status_tone
from sewer_office.core.templatetags.office import day, moment

#: ``includes/status.html`` as it was.
EARLIER = Template(
    '<span class="badge tone-{{ tone }}"{% if code %} title="{{ code }}{% if citation %} · '
    '{{ citation }}{% endif %}" data-code="{{ code }}"{% endif %}>{{ label }}</span>'
)


def _tag(text: str, **values: object) -> str:
    return Template("{% load office %}" + text).render(Context(values))


@pytest.mark.parametrize("code", ["prohibited", "review", "compliant", "no_limit", "x<&\"'>", ""])
@pytest.mark.parametrize("citation", ["", "§ 196-19 C(3)", '<b>&"</b>'])
def test_status_draws_what_the_template_drew(code: str, citation: str) -> None:
    expected = EARLIER.render(
        Context(
            {
                "code": code,
                "label": status_label(code),
                "tone": status_tone(code),
                "citation": citation,
            }
        )
    )
    assert _tag("{% status code citation %}", code=code, citation=citation) == expected


@pytest.mark.parametrize("label", ["Open", 'Notice <issued> & "served"'])
@pytest.mark.parametrize("tone", ["neutral", "", "warn"])
@pytest.mark.parametrize("code", ["", "open", "a&b"])
def test_badge_draws_what_the_template_drew(label: str, tone: str, code: str) -> None:
    expected = EARLIER.render(
        Context({"code": code, "label": label, "tone": tone or "neutral", "citation": ""})
    )
    assert _tag("{% badge label tone code %}", label=label, tone=tone, code=code) == expected


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 3, 8, 6, 59, tzinfo=ZoneInfo("UTC")),  # the night of the spring change
        datetime(2026, 11, 1, 5, 30, tzinfo=ZoneInfo("UTC")),
        datetime(2, 1, 1, 12, 5, tzinfo=ZoneInfo("UTC")),  # a year of one digit
        datetime(2026, 12, 31, 23, 59),  # noqa: DTZ001  (a naive time is shown as it is)
        date(9, 2, 3),
        date(2026, 1, 5),
    ],
)
def test_dates_read_as_the_date_filter_read_them(value: date) -> None:
    local = value
    if isinstance(value, datetime) and timezone.is_aware(value):
        local = timezone.localtime(value)
    assert day(value) == date_filter(local, "Y-m-d")
    fmt = "Y-m-d H:i" if isinstance(value, datetime) else "Y-m-d"
    assert moment(value) == date_filter(local, fmt)
