"""``{% url %}`` for every office template, its reversals remembered (:mod:`..links`).

Registered as a builtin of the office's template engine (``TEMPLATES[0]["OPTIONS"]["builtins"]``
in the settings), after Django's own builtins, so that this ``url`` takes the place of
Django's in every template without a ``{% load %}``. The tag is parsed by Django's own
function (same syntax, same errors); only the reversal goes through :func:`..links.link`.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch
from django.utils.html import conditional_escape

from sewer_office.core.links import link

register = template.Library()


def _current_app(context: Context) -> str | None:
    """The namespace Django's ``{% url %}`` reverses in, read as Django's tag reads it."""
    request: Any = getattr(context, "request", None)
    try:
        return request.current_app  # type: ignore[no-any-return]
    except AttributeError:
        try:
            return request.resolver_match.namespace  # type: ignore[no-any-return]
        except AttributeError:
            return None


class RememberedURLNode(URLNode):
    """Django's URL node, rendering through :func:`..links.link`."""

    def render(self, context: Context) -> str:
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        url = ""
        try:
            url = link(self.view_name.resolve(context), args, kwargs, _current_app(context))
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: Parser, token: Token) -> RememberedURLNode:
    node = django_url(parser, token)
    return RememberedURLNode(node.view_name, node.args, node.kwargs, node.asvar)
