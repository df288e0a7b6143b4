"""One page of a list, and the rest of the query string for the page links."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

PAGE_SIZE = 25


def page_of(request: HttpRequest, qs: Any, size: int = PAGE_SIZE) -> tuple[Page[Any], str]:
    """The requested page of ``qs`` and the query string without ``page`` (filters kept)."""
    page = Paginator(qs, size).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return page, query.urlencode()
