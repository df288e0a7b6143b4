"""Template filters of the office."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from sewer_office.core.law import link_citations

register = template.Library()


@register.filter
def words(value: str) -> str:
    """``record_fee_payment`` → ``Record fee payment``."""
    text = str(value).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def state_of(workflow: Any, value: str) -> str:
    """The label of a state value in ``workflow`` (the value itself if unknown)."""
    return workflow.label(value) if workflow is not None and value else value


@register.filter
def check_class(passed: bool | None) -> str:
    labels: dict[bool | None, str] = {True: "pass", False: "fail"}
    return labels.get(passed, "undecided")


@register.filter
def check_word(passed: bool | None) -> str:
    labels: dict[bool | None, str] = {True: "passed", False: "failed"}
    return labels.get(passed, "for the inspector")


@register.filter
def cite(value: Any) -> SafeString:
    """Citations of the article linked to the law page, with the law's words as a tooltip.

    ``{{ finding.citation|cite }}``: ``§ 196-19 C(3)`` becomes a link to ``/law/?c=…`` whose
    ``title`` is the subsection's text; other text (a federal reference) is shown escaped.
    """
    return link_citations(value)
