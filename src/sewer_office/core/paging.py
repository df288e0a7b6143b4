"""One page of a list, and the rest of the query string for the page links."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

PAGE_SIZE = 25


def page_of(
    request: HttpRequest, qs: Any, size: int = PAGE_SIZE, count: int | None = None
) -> tuple[Page[Any], str]:
    """The requested page of ``qs`` and the query string without ``page`` (filters kept).

    ``count``: the number of rows of ``qs`` when the page already knows it (a list that counts
    its rows per status sums them), which spares the paginator's own COUNT over the list."""
    paginator = Paginator(qs, size)
    if count is not None:
        paginator.count = count  # a cached property: the known figure replaces the query
    page = paginator.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return page, query.urlencode()
