"""Reversing URLs with the answers remembered: what ``{% url %}`` and ``get_absolute_url`` call.

Django's :func:`django.urls.reverse` walks the resolver on every call (namespaces, candidate
patterns, quoting): about 55 µs here. The office's pages reverse some 70 links each, 174 on
the findings list (three a row), which made reversing a tenth of what a page costs under load.

A reversal depends only on the URLconf, the script prefix, the view name, the current
application's namespace and the arguments' values, and every one of them is in the key, so a
remembered answer is the one :func:`~django.urls.reverse` would give. Only arguments that are
exactly ``int`` or ``str`` are remembered (their URL text is fixed by their value); anything
else — a model instance, whose text may change — is reversed afresh. A reversal that fails is
not remembered (the exception goes through). The cache is bounded (least recently used).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.urls import get_script_prefix, get_urlconf, reverse

#: Reversals remembered per process (a few hundred bytes each).
REMEMBERED = 16384


@lru_cache(maxsize=REMEMBERED)
def _remembered(
    view_name: str,
    args: tuple[int | str, ...],
    kwargs: tuple[tuple[str, int | str], ...],
    current_app: str | None,
    urlconf: Any,
    prefix: str,
) -> str:
    # ``prefix`` is part of the key only: reverse() reads the same script prefix itself
    return reverse(
        view_name, urlconf=urlconf, args=args, kwargs=dict(kwargs), current_app=current_app
    )


def _plain(value: Any) -> bool:
    kind = type(value)
    return kind is int or kind is str


def link(
    view_name: str,
    args: Sequence[Any] = (),
    kwargs: Mapping[str, Any] | None = None,
    current_app: str | None = None,
) -> str:
    """``reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)``, remembered
    when every argument is an ``int`` or a ``str``."""
    named = dict(kwargs or {})
    if not (all(_plain(a) for a in args) and all(_plain(v) for v in named.values())):
        return reverse(view_name, args=args, kwargs=named, current_app=current_app)
    return _remembered(
        view_name,
        tuple(args),
        tuple(sorted(named.items())),
        current_app,
        get_urlconf(),
        get_script_prefix(),
    )
