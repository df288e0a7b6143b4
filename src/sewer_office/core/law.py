"""The law page: a provision of Article VII as the office shows it wherever a finding cites it.

``/law/?c=§ 196-19 C(3)`` shows the words of the subsection (from the text shipped with the
jurisdiction, :mod:`sewer_rules.law`), its status in the registry of sections, the functions
that compute it and the parameters it authorises with the values in force today — the same as
``sewer-use sections "§ 196-19 C(3)"``. ``/law/?c=…&on=2003-01-01`` shows the words and
values in force on that day (``sewer-use sections … --on``): a provision the article did not
yet contain says so, and one amended since says its earlier words are not on file — so a past
determination can be read against the law of its day. ``/law/`` lists every provision. The ``cite`` template
filter (:mod:`sewer_office.core.templatetags.office`) links citations here, with the text as
a tooltip, using :func:`citation_link`.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

from sewer_office.core.links import link
from sewer_rules.citations import Citation, CitationError
from sewer_rules.law import LawError, provision
from sewer_rules.parameters import load_jurisdiction
from sewer_rules.rulebook import explain
from sewer_rules.sections import REGISTRY, Section, UnknownSection

from .decorators import office_view

TOOLTIP_CHARS = 400

# A defined term of § 196-15, or a section with its subsection (letters and parenthesised parts).
_CITATION = re.compile(
    r"§ 196-15 [A-Z][A-Z ,\-]*[A-Z](?![a-z(])|§ 196-\d\d(?: [A-Z](?:\((?:\d+|[a-z])\))*(?![A-Za-z]))?"
)


def law_url(citation: Citation, on: date | None = None) -> str:
    """The law page of ``citation`` (as in force on ``on``, when given)."""
    query = {"c": str(citation)} | ({"on": on.isoformat()} if on is not None else {})
    return link("law") + "?" + urlencode(query)


def tooltip(citation: Citation, on: date | None = None) -> str:
    """``heading (status): words of the law…`` — at most :data:`TOOLTIP_CHARS` characters;
    with ``on``, the words in force that day (or why there are none)."""
    entry = REGISTRY[citation]
    p = provision(citation, on=on)
    paragraphs = p.paragraphs
    words = " ".join(
        paragraphs[1:] if citation.term else paragraphs
    )  # a term's first line is its name
    if not paragraphs and p.note:
        words = p.note
    text = f"{entry.heading} ({entry.coverage}): {words}"
    return text if len(text) <= TOOLTIP_CHARS else text[: TOOLTIP_CHARS - 1].rstrip() + "…"


@lru_cache(maxsize=512)
def citation_link(text: str, on: date | None = None) -> SafeString | None:
    """An ``<a>`` to the law page for one citation of the article; None if it names none.
    With ``on`` (a determination's day), the page and the tooltip of the text in force then."""
    try:
        c = Citation.parse(text)
        if c not in REGISTRY:
            return None
        title = tooltip(c, on)
    except (CitationError, LawError):
        return None
    return format_html('<a class="law" href="{}" title="{}">{}</a>', law_url(c, on), title, str(c))


def link_citations(value: Any, on: date | None = None) -> SafeString:
    """Every citation of the article in ``value`` linked to its page (as in force on ``on``,
    when given); the rest escaped as is."""
    text = "" if value is None else str(value)
    out: list[str] = []
    last = 0
    for m in _CITATION.finditer(text):
        found = m.group(0)
        anchor = citation_link(found, on)
        while anchor is None and ", " in found:  # "§ 196-15 COOLING WATER, UNPOLLUTED WATER ..."
            found = found.rsplit(", ", 1)[0]
            anchor = citation_link(found, on)
        if anchor is None or m.start() < last:
            continue
        out += [conditional_escape(text[last : m.start()]), anchor]
        last = m.start() + len(found)
    out.append(conditional_escape(text[last:]))
    # safe: every piece is escaped above or built by format_html in citation_link
    return mark_safe("".join(out))


@office_view()
def law_page(request: HttpRequest) -> HttpResponse:
    text = request.GET.get("c", "").strip()
    if not text:
        return render(request, "core/law_index.html", {"entries": list(REGISTRY.values())})
    params = load_jurisdiction(settings.SEWER_USE_JURISDICTION)
    today = timezone.localdate()
    raw_on = request.GET.get("on", "").strip()
    try:
        on = date.fromisoformat(raw_on) if raw_on else today
    except ValueError:
        return HttpResponseBadRequest(f"on: {raw_on!r} is not a date (YYYY-MM-DD)")
    try:
        ex = explain(text, params, on)
    except UnknownSection as e:
        raise Http404(str(e)) from None
    c = ex.section.citation
    parents: list[Section] = []
    p = c.parent
    while p is not None:
        parents.insert(0, REGISTRY[p])
        p = p.parent
    children = [s for k, s in REGISTRY.items() if k.parent == c]
    context = {
        "ex": ex,
        "entry": ex.section,
        "paragraphs": ex.provision.paragraphs,
        "parents": parents,
        "children": children,
        "today": today,
        "on": on,
        "dated": bool(raw_on),
        "jurisdiction": params.jurisdiction,
    }
    return render(request, "core/law.html", context)
